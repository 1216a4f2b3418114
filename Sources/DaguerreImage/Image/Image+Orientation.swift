import DaguerreCore

extension Image {
    /// The image turned upright from EXIF/TIFF orientation `orientation` (1…8; CIImage's
    /// `oriented(_:)`), with its extent moved back to start at the origin. A RAW developer
    /// applies the file's orientation this way (SPEC X1). The transforms map pixel centres onto
    /// pixel centres, so no pixel is resampled: the result holds exactly the input's values.
    ///
    /// ```swift
    /// let upright = try image.oriented(6)    // stored sideways, shown rotated 90° clockwise
    /// ```
    public func oriented(_ orientation: Int) throws(DaguerreError) -> Image {
        guard (1...8).contains(orientation) else {
            throw .invalidArgument(what: "orientation \(orientation)", problem: "EXIF orientation is 1…8 (1 is upright)")
        }
        let e = extent
        guard orientation != 1, !e.isEmpty, !e.isInfinite else { return self }
        let (w, h) = (e.width, e.height)
        // x' = a·x + c·y + tx, y' = b·x + d·y + ty, on coordinates relative to the extent's origin.
        let t: AffineTransform2D
        switch orientation {
        case 2: t = AffineTransform2D(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)  // mirrored left–right
        case 3: t = AffineTransform2D(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)  // upside down
        case 4: t = AffineTransform2D(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)  // mirrored top–bottom
        case 5: t = AffineTransform2D(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)  // transposed
        case 6: t = AffineTransform2D(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)  // needs 90° clockwise
        case 7: t = AffineTransform2D(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)  // transverse
        default: t = AffineTransform2D(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)  // 8: needs 90° anticlockwise
        }
        let toOrigin = AffineTransform2D(translationX: -e.minX, y: -e.minY)
        return transformed(by: toOrigin).transformed(by: t, interpolation: .bilinear)
    }
}
