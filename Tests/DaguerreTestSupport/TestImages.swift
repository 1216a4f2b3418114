import DaguerreCore
import Foundation

/// A fixed-seed generator (SplitMix64), so "random" tests are the same on every run.
public struct SeededRandom: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A float in [0, 1).
    public mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }
}

/// An image's rows packed without padding (what the Python judges read).
public struct TightImage {
    public var width: Int, height: Int, format: PixelFormat, bytes: [UInt8]
    public var rowBytes: Int { width * format.bytesPerPixel }
    public init(width: Int, height: Int, format: PixelFormat, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.format = format
        self.bytes = bytes
    }
    public func write(to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
}

/// A buffer's rows packed without padding.
public func tight(_ buffer: PixelBuffer) -> TightImage {
    let rb = buffer.width * buffer.format.bytesPerPixel
    var out = [UInt8](repeating: 0, count: rb * buffer.height)
    out.withUnsafeMutableBytes { dst in
        for y in 0..<buffer.height {
            (dst.baseAddress! + y * rb).copyMemory(from: buffer.rowAddress(y), byteCount: rb)
        }
    }
    return TightImage(width: buffer.width, height: buffer.height, format: buffer.format, bytes: out)
}
