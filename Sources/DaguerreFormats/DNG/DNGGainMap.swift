// The GainMap opcode (DNG 1.4 §7, opcode 9): a grid of gains, interpolated bilinearly, that a
// developer multiplies into an area of the image (lens shading / vignetting; SPEC R6, X6).
import DaguerreCore

/// A gain map: `pointsV` × `pointsH` × `mapPlanes` gains over a rectangle of the image.
///
/// Map coordinates are fractions of the image size: point (i, j) sits at
/// (originV + i·spacingV, originH + j·spacingH). Pixels are sampled at their centres.
///
/// ```swift
/// let vignette = DNGGainMap(top: 0, left: 0, bottom: h, right: w, pointsV: 2, pointsH: 2, gains: [1, 1, 1, 1])
/// vignette.apply(to: &plane, width: w, height: h, planes: 1)
/// ```
public struct DNGGainMap: Sendable, Equatable {
    /// The samples the map multiplies.
    public var area: DNGOpcodeArea
    public var pointsV: Int, pointsH: Int
    public var spacingV: Double, spacingH: Double
    public var originV = 0.0, originH = 0.0
    public var mapPlanes = 1
    /// Row-major over (v, h), planes innermost.
    public var gains: [Float]

    public init(
        top: Int, left: Int, bottom: Int, right: Int, rowPitch: Int = 1, colPitch: Int = 1,
        pointsV: Int, pointsH: Int, gains: [Float]
    ) {
        area = DNGOpcodeArea(top: top, left: left, bottom: bottom, right: right, rowPitch: rowPitch, colPitch: colPitch)
        self.pointsV = pointsV
        self.pointsH = pointsH
        spacingV = pointsV > 1 ? 1 / Double(pointsV - 1) : 1
        spacingH = pointsH > 1 ? 1 / Double(pointsH - 1) : 1
        self.gains = gains
    }

    init(parsing params: [UInt8]) throws(DaguerreError) {
        var r = ByteReader(params, truncated: "DNG GainMap")
        area = try DNGOpcodeArea(reading: &r)
        pointsV = Int(try r.u32())
        pointsH = Int(try r.u32())
        spacingV = try r.f64()
        spacingH = try r.f64()
        originV = try r.f64()
        originH = try r.f64()
        mapPlanes = Int(try r.u32())
        let (n1, o1) = pointsV.multipliedReportingOverflow(by: pointsH)
        let (n, o2) = n1.multipliedReportingOverflow(by: mapPlanes)
        guard !o1, !o2, pointsV > 0, pointsH > 0, mapPlanes > 0, n <= (params.count - 76) / 4 + 0,
            area.rowPitch > 0, area.colPitch > 0, spacingV.isFinite, spacingH.isFinite, spacingV > 0, spacingH > 0,
            originV.isFinite, originH.isFinite
        else {
            throw .corruptData(
                format: "DNG GainMap", detail: "its map size or spacing is inconsistent with its \(params.count) bytes", path: nil)
        }
        var g: [Float] = []
        g.reserveCapacity(n)
        for _ in 0..<n { g.append(try r.f32()) }
        gains = g
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter()
        area.encode(into: &w)
        for v in [pointsV, pointsH] { w.u32(UInt32(clamping: v)) }
        w.f64(spacingV)
        w.f64(spacingH)
        w.f64(originV)
        w.f64(originH)
        w.u32(UInt32(clamping: mapPlanes))
        gains.forEach { w.f32($0) }
        return w.bytes
    }

    /// The gain at fractional image position (yN, xN) for map plane `p` (1 for a map whose
    /// origin or spacing is not a finite number).
    public func gain(yN: Double, xN: Double, mapPlane p: Int) -> Float {
        guard isEvaluable else { return 1 }
        let (y0, y1, ty) = gridPosition(yN, origin: originV, spacing: spacingV, points: pointsV)
        let (x0, x1, tx) = gridPosition(xN, origin: originH, spacing: spacingH, points: pointsH)
        return interpolated(y0, y1, ty, x0, x1, tx, mapPlane: min(p, mapPlanes - 1))
    }

    /// Multiplies the map into `pixels` (`width` × `height`, `channels` interleaved floats),
    /// over the opcode's area, pitch and planes. With `rows` and `columns`, `pixels` holds only
    /// that band and window of the image.
    public func apply(
        to pixels: inout [Float], width: Int, height: Int, channels: Int = 1, rows: Range<Int>? = nil, columns: Range<Int>? = nil
    ) {
        let band = rows ?? 0..<height
        let span = columns ?? 0..<width
        // A map's first plane past the image's (fuzzed files have them) touches nothing.
        guard width > 0, height > 0, channels > 0, !span.isEmpty, pixels.count >= span.count * band.count * channels,
            area.plane >= 0, area.plane < channels, area.planes > 0
        else { return }
        let planes = area.plane..<(area.plane + min(area.planes, channels - area.plane))
        pixels.withUnsafeMutableBufferPointer { p in
            for y in area.gridRows(in: band, height: height) {
                for plane in planes {
                    multiplyRow(
                        y, columns: span, width: width, height: height, plane: plane,
                        into: p.baseAddress! + (y - band.lowerBound) * span.count * channels + plane, stride: channels)
                }
            }
        }
    }

    /// Multiplies `factors[i · stride]` by the map's gain at row `y`, column
    /// `columns.lowerBound + i`, plane `plane` of a `width` × `height` image, where the area
    /// (rows, columns, pitch, planes) covers that sample; other entries are left alone.
    ///
    /// The one evaluation behind ``apply(to:width:height:channels:rows:columns:)`` and the
    /// streaming develops that read photosites a row at a time (SPEC X6, X7): the grid rows
    /// and their weight are found once per row, the grid columns per sample, and the
    /// arithmetic is ``gain(yN:xN:mapPlane:)``'s.
    public func multiplyRow(
        _ y: Int, columns: Range<Int>, width: Int, height: Int, plane: Int = 0,
        into factors: UnsafeMutablePointer<Float>, stride: Int = 1
    ) {
        let a = area
        guard width > 0, height > 0, isEvaluable, a.plane >= 0, plane >= a.plane, plane - a.plane < a.planes,
            a.gridRows(in: y..<(y + 1), height: height).contains(y)
        else { return }
        let mapPlane = min(plane - a.plane, mapPlanes - 1)
        let (y0, y1, ty) = gridPosition((Double(y) + 0.5) / Double(height), origin: originV, spacing: spacingV, points: pointsV)
        for x in a.gridColumns(in: columns, width: width) {
            let (x0, x1, tx) = gridPosition((Double(x) + 0.5) / Double(width), origin: originH, spacing: spacingH, points: pointsH)
            factors[(x - columns.lowerBound) * stride] *= interpolated(y0, y1, ty, x0, x1, tx, mapPlane: mapPlane)
        }
    }

    /// Whether the grid and its placement can be evaluated (the reader refuses other maps;
    /// these guard maps built in code).
    private var isEvaluable: Bool {
        pointsV > 0 && pointsH > 0 && mapPlanes > 0 && gains.count >= pointsV * pointsH * mapPlanes && spacingV > 0 && spacingH > 0
            && spacingV.isFinite && spacingH.isFinite && originV.isFinite && originH.isFinite
    }

    /// The two grid points around fractional position `n` along one axis, and the weight of
    /// the second (clamped to the grid).
    @inline(__always) private func gridPosition(_ n: Double, origin: Double, spacing: Double, points: Int) -> (Int, Int, Float) {
        let f = min(max((n - origin) / spacing, 0), Double(points - 1))
        let i = Int(f)
        return (i, min(i + 1, points - 1), Float(f - Double(i)))
    }

    /// Bilinear interpolation between grid rows y0, y1 and columns x0, x1 of one map plane.
    @inline(__always) private func interpolated(_ y0: Int, _ y1: Int, _ ty: Float, _ x0: Int, _ x1: Int, _ tx: Float, mapPlane mp: Int)
        -> Float
    {
        func at(_ y: Int, _ x: Int) -> Float { gains[(y * pointsH + x) * mapPlanes + mp] }
        let a = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * tx
        let b = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * tx
        return a + (b - a) * ty
    }
}
