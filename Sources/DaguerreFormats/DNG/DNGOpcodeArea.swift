// The area, planes and pitch that DNG's pixel opcodes share (DNG 1.4 §7: GainMap, MapTable,
// MapPolynomial and the per-row/column opcodes all begin with these eight LONGs).
import DaguerreCore

/// Which samples an opcode touches: rows `top..<bottom` every `rowPitch`, columns
/// `left..<right` every `colPitch`, planes `plane..<plane + planes`.
///
/// ```swift
/// let area = DNGOpcodeArea(top: 0, left: 0, bottom: h, right: w)
/// area.forEachSample(width: w, height: h, channels: 3) { i, _ in pixels[i] *= 2 }
/// ```
public struct DNGOpcodeArea: Sendable, Equatable {
    public var top: Int, left: Int, bottom: Int, right: Int
    public var plane = 0, planes = 1, rowPitch = 1, colPitch = 1

    public init(top: Int, left: Int, bottom: Int, right: Int, plane: Int = 0, planes: Int = 1, rowPitch: Int = 1, colPitch: Int = 1) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
        self.plane = plane
        self.planes = planes
        self.rowPitch = rowPitch
        self.colPitch = colPitch
    }

    init(reading r: inout ByteReader) throws(DaguerreError) {
        top = Int(try r.u32())
        left = Int(try r.u32())
        bottom = Int(try r.u32())
        right = Int(try r.u32())
        plane = Int(try r.u32())
        planes = Int(try r.u32())
        rowPitch = Int(try r.u32())
        colPitch = Int(try r.u32())
    }

    func encode(into w: inout ByteWriter) {
        for v in [top, left, bottom, right, plane, planes, rowPitch, colPitch] { w.u32(UInt32(clamping: v)) }
    }

    /// Calls `body(index, planeOffset)` for every sample of the area inside a `width` × `height`
    /// image of `channels` interleaved planes, where `planeOffset` counts from `plane`. A
    /// damaged area (zero pitch, planes past the image) touches nothing. With `rows`, the
    /// buffer holds only those rows of the image (a band, for streaming), and indices count
    /// from the band's first row; with `columns`, only those columns (a window), and indices
    /// count from its first column. Rows and columns outside the image are never visited.
    public func forEachSample(
        width: Int, height: Int, channels: Int, rows: Range<Int>? = nil, columns: Range<Int>? = nil,
        _ body: (Int, Int) -> Void
    ) {
        guard width > 0, height > 0, channels > 0, plane >= 0, plane < channels, planes > 0 else { return }
        let lastPlane = plane + min(planes, channels - plane)
        let band = rows ?? 0..<height
        let span = columns ?? 0..<width
        let xs = gridColumns(in: span, width: width)
        for y in gridRows(in: band, height: height) {
            for x in xs {
                let base = ((y - band.lowerBound) * span.count + (x - span.lowerBound)) * channels
                for p in plane..<lastPlane { body(base + p, p - plane) }
            }
        }
    }

    /// The rows of the area's pitch grid that lie in `band` and inside an image `height` rows
    /// tall (none when the pitch is not positive).
    public func gridRows(in band: Range<Int>, height: Int) -> StrideTo<Int> {
        Self.grid(from: max(0, top), to: min(bottom, height, band.upperBound), at: band.lowerBound, pitch: rowPitch)
    }

    /// The columns of the area's pitch grid that lie in `span` and inside an image `width`
    /// columns wide (none when the pitch is not positive).
    public func gridColumns(in span: Range<Int>, width: Int) -> StrideTo<Int> {
        Self.grid(from: max(0, left), to: min(right, width, span.upperBound), at: span.lowerBound, pitch: colPitch)
    }

    /// first, first + pitch, … below `end`, from the first of them at or after `low`.
    private static func grid(from first: Int, to end: Int, at low: Int, pitch: Int) -> StrideTo<Int> {
        guard pitch > 0, first < end else { return stride(from: 0, to: 0, by: 1) }
        let start = low <= first ? first : first + (low - first + pitch - 1) / pitch * pitch
        return stride(from: start, to: end, by: pitch)
    }
}
