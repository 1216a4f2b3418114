// Full-range to video-range Y'CbCr, for recording 420f frames into H.264 movies tagged video
// range (SPEC C4's 420v/420f; the movie writer's frames are video range).
import DaguerreCore
import DaguerreFormats

enum YCbCrRange {
    /// Luma 0–255 → 16–235.
    private static let luma: [UInt8] = (0...255).map { UInt8((16 + Double($0) * 219 / 255).rounded()) }
    /// Chroma 0–255 around 128 → 16–240 around 128.
    private static let chroma: [UInt8] = (0...255).map { UInt8((128 + (Double($0) - 128) * 224 / 255).rounded()) }

    /// The same picture in video range; a video-range buffer comes back unchanged.
    static func videoRange(_ frame: PlanarYCbCr420Buffer) throws(DaguerreError) -> PlanarYCbCr420Buffer {
        guard frame.fullRange else { return frame }
        let y = frame.luma.map { luma[Int($0)] }
        let cb = frame.cb.map { chroma[Int($0)] }
        let cr = frame.cr.map { chroma[Int($0)] }
        return try PlanarYCbCr420Buffer(width: frame.width, height: frame.height, luma: y, cb: cb, cr: cr,
                                        colorProperties: frame.colorProperties, fullRange: false)
    }
}
