// Any image file as a scene (SPEC C4): the file's pixels are linearized through their
// colour space, converted to linear sRGB reflectance, lifted to spectra through the smooth
// bases (Colorimetry), and lit by the camera's illuminant at its light level.
import DaguerreCore
import DaguerreFormats
import Foundation

/// A flat picture filling the camera's 4:3 field (scaled to cover it and centred, as a print on
/// a wall would be framed), at one distance.
///
/// Reflectance is the file's linear sRGB value, clamped to 0...1 and scaled by `whiteReflectance`
/// (paper is not a perfect reflector). Grey pixels are spectrally flat, so they stay grey under
/// every light.
///
/// ```swift
/// let camera = VirtualCamera(profile: .back, scene: try ImageScene(path: "street.jpg"), seed: 1)
/// camera.lux = 2000
/// ```
public struct ImageScene: Scene {
    public let width: Int, height: Int
    /// Linear sRGB reflectance, interleaved RGB, row-major.
    let pixels: [Float]
    public let distance: Float
    public let whiteReflectance: Float
    public let cacheKey: String

    /// Reads `path` (JPEG, PNG or TIFF) with its embedded colour space.
    public init(path: String, distance: Float = 2, whiteReflectance: Float = 0.9, limits: Limits = .default) throws(DaguerreError) {
        let buffer = try ImageReader.readAll(path: path, limits: limits)
        try self.init(buffer: buffer, distance: distance, whiteReflectance: whiteReflectance, key: path)
    }

    /// Uses pixels in memory (8- or 16-bit grey, RGB or RGBA, in their colour space; sRGB if untagged).
    public init(buffer: PixelBuffer, distance: Float = 2, whiteReflectance: Float = 0.9, key: String = UUID().uuidString)
        throws(DaguerreError)
    {
        guard buffer.format.component == .uint8 || buffer.format.component == .uint16 else {
            throw .unsupported(feature: "\(buffer.format) pixels as a scene", hint: "Give 8- or 16-bit grey, RGB or RGBA pixels.")
        }
        let space = buffer.colorSpace ?? .sRGB
        let gray = buffer.format.layout == .l || buffer.format.layout == .la
        let transfer = space.transfer ?? .sRGB
        guard gray || (space.isRGB && space.linearMatrix(to: .extendedLinearSRGB) != nil) else {
            throw .unsupported(feature: "scenes in the \(space.name) colour space", hint: "Convert the image to an RGB colour space first.")
        }
        let toSRGB = gray ? Matrix3.identity : (space.linearMatrix(to: .extendedLinearSRGB) ?? .identity)
        let channels = buffer.format.channels
        let size = buffer.format.component.size
        let maxValue = size == 1 ? 255.0 : 65535.0
        // Decoding table: one entry per code value.
        let table = (0...Int(maxValue)).map { Float(transfer.decode(Double($0) / maxValue)) }
        var out = [Float](repeating: 0, count: buffer.width * buffer.height * 3)
        buffer.withUnsafeBytes { raw in
            for y in 0..<buffer.height {
                let row = raw.baseAddress! + y * buffer.bytesPerRow
                for x in 0..<buffer.width {
                    func code(_ c: Int) -> Int {
                        let offset = (x * channels + c) * size
                        return size == 1
                            ? Int(row.load(fromByteOffset: offset, as: UInt8.self))
                            : Int(row.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
                    }
                    let linear: SIMD3<Double> =
                        gray
                        ? SIMD3(repeating: Double(table[code(0)]))
                        : SIMD3(Double(table[code(0)]), Double(table[code(1)]), Double(table[code(2)]))
                    let srgb = toSRGB * linear
                    let i = (y * buffer.width + x) * 3
                    out[i] = Float(min(max(srgb.x, 0), 1)) * whiteReflectance
                    out[i + 1] = Float(min(max(srgb.y, 0), 1)) * whiteReflectance
                    out[i + 2] = Float(min(max(srgb.z, 0), 1)) * whiteReflectance
                }
            }
        }
        width = buffer.width
        height = buffer.height
        pixels = out
        self.distance = distance
        self.whiteReflectance = whiteReflectance
        cacheKey = "image-\(key)-\(width)x\(height)-\(whiteReflectance)-\(distance)"
    }

    public func sample(u: Double, v: Double, lighting: SceneLighting) -> SceneSample {
        // Cover the 4:3 field, centred.
        let fieldAspect = 4.0 / 3
        let aspect = Double(width) / Double(height)
        let scale = aspect > fieldAspect ? Double(height) : Double(width) / fieldAspect  // image pixels per field-height unit
        let x = (u - 0.5) * fieldAspect * scale + Double(width) / 2 - 0.5
        let y = (v - 0.5) * scale + Double(height) / 2 - 0.5
        let xf = min(max(x, 0), Double(width - 1))
        let yf = min(max(y, 0), Double(height - 1))
        let x0 = Int(xf)
        let y0 = Int(yf)
        let x1 = min(x0 + 1, width - 1)
        let y1 = min(y0 + 1, height - 1)
        let tx = Float(xf - Double(x0))
        let ty = Float(yf - Double(y0))
        func at(_ xx: Int, _ yy: Int) -> SIMD3<Float> {
            let i = (yy * width + xx) * 3
            return SIMD3(pixels[i], pixels[i + 1], pixels[i + 2])
        }
        let top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * tx
        let bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * tx
        return SceneSample(response: lighting.srgb(top + (bottom - top) * ty), distance: distance)
    }
}
