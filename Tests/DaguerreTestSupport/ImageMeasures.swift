import DaguerreCore
import DaguerreFormats
import Foundation

/// Measures the tests take of images: a file's mean sample value, and colour differences
/// judged by colour-science.
public enum ImageMeasures {
    /// The mean of every 8-bit sample of an image file (all channels), 0...255.
    public static func meanLevel(_ path: String) throws -> Double {
        let pixels = try ImageReader.readAll(path: path)
        let rowBytes = pixels.width * pixels.format.bytesPerPixel
        let sum = pixels.withUnsafeBytes { bytes -> Int in
            var total = 0
            for y in 0..<pixels.height {
                for x in 0..<rowBytes { total += Int(bytes[y * pixels.bytesPerRow + x]) }
            }
            return total
        }
        return Double(sum) / Double(rowBytes * pixels.height)
    }

    /// CIEDE2000 between each truth and measured XYZ pair (CIELAB against `white`), by
    /// colour-science (`Tests/judges/delta_e.py`), after scaling the measured colours so that
    /// patch `exposureReference` has its true luminance (exposure is the camera's choice).
    public static func deltaE2000(
        truth: [SIMD3<Double>], measured: [SIMD3<Double>], white: SIMD3<Double>, exposureReference: Int
    ) throws -> [Double] {
        let k = truth[exposureReference].y / measured[exposureReference].y
        let pairs = zip(truth, measured).map { t, m in [[t.x, t.y, t.z], [m.x * k, m.y * k, m.z * k]] }
        let dir = try TemporaryDirectory()
        let spec = dir.path("pairs.json")
        try JSONSerialization.data(withJSONObject: ["white": [white.x, white.y, white.z], "pairs": pairs]).write(
            to: URL(fileURLWithPath: spec))
        return try Judge.need(try Judge.python("delta_e.py", [spec])["delta_e"] as? [Double], "delta_e.py's ΔE list")
    }
}
