import Daguerre
import DaguerreTestSupport
import Foundation

/// Fixtures and small helpers for the engine tests.
enum Kodak {
    static func url(_ n: Int) -> URL {
        Judge.testdata.appendingPathComponent("kodak24").appendingPathComponent(String(format: "kodim%02d.png", n))
    }
    static func image(_ n: Int) throws -> Image { try Image(contentsOf: url(n)) }
}

/// Writes a buffer's rows without padding, for the Python judges.
func writeTight(_ buffer: PixelBuffer, to path: String) throws { try tight(buffer).write(to: path) }

/// A pixel of an RGBAf buffer.
func pixelF(_ b: PixelBuffer, _ x: Int, _ y: Int) -> SIMD4<Float> {
    b.rowAddress(y).loadUnaligned(fromByteOffset: x * 16, as: SIMD4<Float>.self)
}

/// Contexts used across tests.
enum Contexts {
    /// Colour management off: filters see the file's encoded values, as OpenCV and Pillow do.
    static func unmanaged() throws -> Context { try Context(options: .init(workingColorSpace: nil)) }
    static func float() throws -> Context { try Context(options: .init(workingFormat: .rgbaf)) }
}

extension Double {
    func d(_ digits: Int = 3) -> String { String(format: "%.\(digits)f", self) }
}

/// The largest absolute component of a difference.
func maxAbs<T: SIMD>(_ v: T) -> T.Scalar where T.Scalar: FloatingPoint {
    v.indices.map { abs(v[$0]) }.max() ?? 0
}
