import DaguerreCore

/// Images under a homography (SPEC I4): what the perspective filters (PerspectiveTransform,
/// PerspectiveCorrection, PerspectiveRotate…) draw with.
///
/// ```swift
/// let tilted = try h.warp(photo, source: photo.extent, extent: photo.extent, name: "tilt", parameters: [])
/// ```
extension Homography {
    /// `input` under this map (source → output), bilinear, transparent beyond the vanishing line;
    /// the output extent is the image of `extent` (the source rectangle or the whole input),
    /// infinite when that crosses the vanishing line.
    func warp(_ input: Image, source: Rect, extent: Rect, name: String, parameters: [Double]) throws(DaguerreError) -> Image {
        let h = self
        guard let inv = h.inverse else { throw .invalidArgument(what: name, problem: "the perspective map is not invertible") }
        // The sign of w at the source's points, seen from the output side.
        let centre = h.apply(SIMD2(source.midX, source.midY))
        let sign: Double = inv.homogeneous(centre).z >= 0 ? 1 : -1
        let forwardSign: Double = h.homogeneous(SIMD2(source.midX, source.midY)).z >= 0 ? 1 : -1
        let out = h.bounds(of: extent, sign: forwardSign) ?? .infinite
        return Warp.image(
            input, name: name, extent: out, parameters: parameters + h.m,
            roi: { r in inv.bounds(of: r, sign: sign) }, map: inv.samplingMap(sign: sign))
    }
}
