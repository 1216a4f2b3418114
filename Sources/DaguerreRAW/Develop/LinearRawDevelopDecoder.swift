// LinearRaw development (SPEC X6; DNG 1.4 PhotometricInterpretation 34892): DNGs whose pixels
// are already demosaicked (Adobe's lossy DNGs, many phones' and scanners' DNGs) go through the
// same stages as a mosaic minus the demosaic: linearize per plane, OpcodeList2, highlights,
// the camera matrix (which carries the white balance). Streams row bands, like the mosaic path.
// Our own code: no Debian library develops DNGs.
import DaguerreCore
import DaguerreFormats
import DaguerreImage
import Dispatch
import Foundation

/// Develops rows of a LinearRaw image into linear RGB float rows (`.rgbf`) in the working space.
///
/// ```swift
/// let d = try LinearRawDevelopDecoder(linear: dng.linearRaw!, opcodes: [], activeArea: nil, settings: settings)
/// try d.readRows(y: 0, count: 16, into: rows, bytesPerRow: d.info.width * 12)
/// ```
final class LinearRawDevelopDecoder: DevelopSource {
    let info: RowSourceInfo
    private let linear: LinearRawImage
    private let settings: DevelopSettings
    /// OpcodeList2 (applied to the linearized image, in the active area's coordinates).
    private let opcodes: [DNGOpcode]
    private let active: IntRect
    var columns: Range<Int>

    init(linear: LinearRawImage, opcodes: [DNGOpcode], activeArea: IntRect?, settings: DevelopSettings) throws(DaguerreError) {
        guard linear.samplesPerPixel == 1 || linear.samplesPerPixel == 3 else {
            throw .unsupported(
                feature: "developing \(linear.samplesPerPixel)-colour LinearRaw DNGs",
                hint: "RAWFilter develops 3-colour (RGB) and monochrome LinearRaw DNGs.")
        }
        let c = settings.crop
        let active = activeArea ?? IntRect(x: 0, y: 0, width: linear.width, height: linear.height)
        guard c.width > 0, c.height > 0, c.x >= active.x, c.y >= active.y, c.maxX <= active.maxX, c.maxY <= active.maxY,
            active.x >= 0, active.y >= 0, active.maxX <= linear.width, active.maxY <= linear.height,
            linear.samples.count >= linear.width * linear.height * linear.samplesPerPixel,
            linear.blackLevel.count >= linear.samplesPerPixel, linear.whiteLevel.count >= linear.samplesPerPixel
        else {
            throw .invalidArgument(
                what: "LinearRaw crop \(c) of a \(linear.width)×\(linear.height) image",
                problem: "must lie inside the active area and the image")
        }
        if let warp = opcodes.first(where: { if case .warpRectilinear = $0 { true } else { false } }) {
            throw .unsupported(
                feature: "\(warp.name) in OpcodeList2",
                hint: "Only point-wise opcodes (GainMap, MapTable, MapPolynomial) are applied before the colour stages.")
        }
        try settings.limits.check(width: c.width, height: c.height, bytesPerPixel: 12, what: "developed RAW image")
        self.linear = linear
        self.settings = settings
        self.opcodes = opcodes
        self.active = active
        columns = 0..<c.width
        info = RowSourceInfo(
            kind: "LinearRaw develop", width: c.width, height: c.height, pixelFormat: .rgbf, alpha: .premultiplied,
            colorSpace: settings.workingSpace)
    }

    func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        try checkRows(y: y, count: count)
        guard count > 0 else { return }
        let l = linear
        let s = settings
        let spp = l.samplesPerPixel
        // The band and the requested columns, in the active area's coordinates (which the
        // opcodes address), linearized.
        let band = (s.crop.y - active.y + y)..<(s.crop.y - active.y + y + count)
        let span = (s.crop.x - active.x + columns.lowerBound)..<(s.crop.x - active.x + columns.upperBound)
        let sw = span.count
        var pixels = [Float](repeating: 0, count: count * sw * spp)
        let lin = Linearization(linearRaw: l)
        let black = lin.floatBlack
        let scale = lin.floatScale
        for r in 0..<count {
            let src = ((active.y + band.lowerBound + r) * l.width + active.x + span.lowerBound) * spp
            for i in 0..<sw * spp {
                pixels[r * sw * spp + i] = Linearization.float(l.samples[src + i], black: black[i % spp], scale: scale[i % spp])
            }
        }
        for op in opcodes { op.apply(to: &pixels, width: active.width, height: active.height, channels: spp, rows: band, columns: span) }
        let matrix = DevelopMatrix(s.matrix)
        let (neutral, wbGain) = s.whiteBalance
        for r in 0..<count {
            let row = (destination + r * bytesPerRow).assumingMemoryBound(to: Float.self)
            for i in 0..<sw {
                let p = (r * sw + i) * spp
                var rgb = spp == 3 ? SIMD3(pixels[p], pixels[p + 1], pixels[p + 2]) : SIMD3(repeating: pixels[p])
                if let hl = s.highlight, hl.mayBeClipped(rgb * wbGain) {
                    // Each sample is its own photosite here: a plane at its white level is clipped.
                    let clipped = SIMD3<Float>(rgb.x >= 0.999 ? 1 : 0, rgb.y >= 0.999 ? 1 : 0, rgb.z >= 0.999 ? 1 : 0)
                    rgb = hl.apply(rgb * wbGain, clipped: clipped) * neutral
                }
                matrix.write(rgb.x, rgb.y, rgb.z, to: row + 3 * i)
            }
        }
    }
}
