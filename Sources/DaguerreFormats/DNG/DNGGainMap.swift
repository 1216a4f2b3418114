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

    public init(top: Int, left: Int, bottom: Int, right: Int, rowPitch: Int = 1, colPitch: Int = 1,
                pointsV: Int, pointsH: Int, gains: [Float]) {
        area = DNGOpcodeArea(top: top, left: left, bottom: bottom, right: right, rowPitch: rowPitch, colPitch: colPitch)
        self.pointsV = pointsV; self.pointsH = pointsH
        spacingV = pointsV > 1 ? 1 / Double(pointsV - 1) : 1
        spacingH = pointsH > 1 ? 1 / Double(pointsH - 1) : 1
        self.gains = gains
    }

    init(parsing params: [UInt8]) throws(DaguerreError) {
        var r = ByteReader(params, truncated: "DNG GainMap")
        area = try DNGOpcodeArea(reading: &r)
        pointsV = Int(try r.u32()); pointsH = Int(try r.u32())
        spacingV = try r.f64(); spacingH = try r.f64(); originV = try r.f64(); originH = try r.f64()
        mapPlanes = Int(try r.u32())
        let (n1, o1) = pointsV.multipliedReportingOverflow(by: pointsH)
        let (n, o2) = n1.multipliedReportingOverflow(by: mapPlanes)
        guard !o1, !o2, pointsV > 0, pointsH > 0, mapPlanes > 0, n <= (params.count - 76) / 4 + 0,
              area.rowPitch > 0, area.colPitch > 0, spacingV.isFinite, spacingH.isFinite, spacingV > 0, spacingH > 0,
              originV.isFinite, originH.isFinite else {
            throw .corruptData(format: "DNG GainMap", detail: "its map size or spacing is inconsistent with its \(params.count) bytes", path: nil)
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
        w.f64(spacingV); w.f64(spacingH); w.f64(originV); w.f64(originH)
        w.u32(UInt32(clamping: mapPlanes))
        gains.forEach { w.f32($0) }
        return w.bytes
    }

    /// The gain at fractional image position (yN, xN) for map plane `p`.
    public func gain(yN: Double, xN: Double, mapPlane p: Int) -> Float {
        let fy = min(max((yN - originV) / spacingV, 0), Double(pointsV - 1))
        let fx = min(max((xN - originH) / spacingH, 0), Double(pointsH - 1))
        let y0 = Int(fy), x0 = Int(fx)
        let y1 = min(y0 + 1, pointsV - 1), x1 = min(x0 + 1, pointsH - 1)
        let ty = Float(fy - Double(y0)), tx = Float(fx - Double(x0))
        let mp = min(p, mapPlanes - 1)
        func at(_ y: Int, _ x: Int) -> Float { gains[(y * pointsH + x) * mapPlanes + mp] }
        let a = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * tx
        let b = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * tx
        return a + (b - a) * ty
    }

    /// Multiplies `factors[i]` by the map's gain at row `y`, column `columns.lowerBound + i` of a
    /// `width` × `height` single-plane image (a CFA mosaic), where the area covers that sample;
    /// other entries are left alone. For streaming develops that read photosites a row at a
    /// time (the draft paths, X7): the map is interpolated down the grid once per row, then
    /// along it per sample. Equal to ``apply(to:width:height:channels:rows:columns:)`` up to
    /// rounding (the two bilinear steps run in the other order).
    public func multiplyRow(_ y: Int, columns: Range<Int>, width: Int, height: Int, into factors: UnsafeMutablePointer<Float>) {
        let a = area
        guard width > 0, height > 0, pointsV > 0, pointsH > 0, mapPlanes > 0, gains.count >= pointsV * pointsH * mapPlanes,
              spacingV > 0, spacingH > 0, spacingV.isFinite, spacingH.isFinite, originV.isFinite, originH.isFinite,
              a.rowPitch > 0, a.colPitch > 0, a.plane == 0, a.planes > 0, y >= max(0, a.top), y < min(a.bottom, height), (y - max(0, a.top)) % a.rowPitch == 0 else { return }
        let fy = min(max(((Double(y) + 0.5) / Double(height) - originV) / spacingV, 0), Double(pointsV - 1))
        let y0 = Int(fy), y1 = min(y0 + 1, pointsV - 1), ty = Float(fy - Double(y0))
        let row = (0..<pointsH).map { x -> Float in
            let g0 = gains[(y0 * pointsH + x) * mapPlanes], g1 = gains[(y1 * pointsH + x) * mapPlanes]
            return g0 + (g1 - g0) * ty
        }
        let firstX = max(0, a.left), endX = min(a.right, width, columns.upperBound)
        var x = firstX >= columns.lowerBound ? firstX : firstX + (columns.lowerBound - firstX + a.colPitch - 1) / a.colPitch * a.colPitch
        while x < endX {
            let fx = min(max(((Double(x) + 0.5) / Double(width) - originH) / spacingH, 0), Double(pointsH - 1))
            let x0 = Int(fx), x1 = min(x0 + 1, pointsH - 1), tx = Float(fx - Double(x0))
            factors[x - columns.lowerBound] *= row[x0] + (row[x1] - row[x0]) * tx
            x += a.colPitch
        }
    }

    /// Multiplies the map into `pixels` (`width` × `height`, `channels` interleaved floats),
    /// over the opcode's area, pitch and planes.
    public func apply(to pixels: inout [Float], width: Int, height: Int, channels: Int = 1, rows: Range<Int>? = nil, columns: Range<Int>? = nil) {
        let bufferWidth = columns?.count ?? width
        guard width > 0, height > 0, bufferWidth > 0, pixels.count >= bufferWidth * (rows?.count ?? height) * channels, pointsV > 0, pointsH > 0,
              mapPlanes > 0, gains.count >= pointsV * pointsH * mapPlanes, spacingV > 0, spacingH > 0 else { return }
        let firstRow = rows?.lowerBound ?? 0, firstColumn = columns?.lowerBound ?? 0
        area.forEachSample(width: width, height: height, channels: channels, rows: rows, columns: columns) { i, mapPlane in
            let pixel = i / channels
            let yN = (Double(firstRow + pixel / bufferWidth) + 0.5) / Double(height)
            let xN = (Double(firstColumn + pixel % bufferWidth) + 0.5) / Double(width)
            pixels[i] *= gain(yN: yN, xN: xN, mapPlane: mapPlane)
        }
    }
}
