// Full-range to video-range Y'CbCr (SPEC C4's 420f and 420v; L2, W5: movies are H.264 in video
// range). MovieRecorder converts 420f frames with it as they are appended, so every caller (the
// capture session's movie output included) hands over its frames as they are.
import DaguerreCore
import DaguerreFormats

/// Rescales 4:2:0 samples from full range to video range by table, one pass per plane.
///
/// ```swift
/// try YCbCrRange.convertToVideoRange(fullRangeFrame, into: &scratch)   // same size, no allocation
/// ```
enum YCbCrRange {
    /// Luma 0–255 → 16–235.
    private static let luma: [UInt8] = (0...255).map { UInt8((16 + Double($0) * 219 / 255).rounded()) }
    /// Chroma 0–255 around 128 → 16–240 around 128.
    private static let chroma: [UInt8] = (0...255).map { UInt8((128 + (Double($0) - 128) * 224 / 255).rounded()) }

    /// Writes full-range `frame`'s picture in video range into `out` (same size), keeping `out`'s
    /// colour tags. The input is full range: MovieRecorder, the one caller, sends a video-range
    /// (420v) frame to the encoder as it is, so this has no copy path; a video-range input
    /// throws (rescaling it again would crush its range) rather than being copied.
    static func convertToVideoRange(_ frame: PlanarYCbCr420Buffer, into out: inout PlanarYCbCr420Buffer) throws(DaguerreError) {
        guard frame.fullRange else {
            throw .invalidArgument(
                what: "Video-range Y'CbCr frame", problem: "is already video range; only full-range (420f) frames are converted")
        }
        guard out.width == frame.width, out.height == frame.height else {
            throw .invalidArgument(
                what: "Y'CbCr frame of \(frame.width)×\(frame.height)", problem: "the destination is \(out.width)×\(out.height)")
        }
        out.fullRange = false
        map(frame.luma, into: &out.luma, table: luma)
        map(frame.cb, into: &out.cb, table: chroma)
        map(frame.cr, into: &out.cr, table: chroma)
    }

    private static func map(_ source: [UInt8], into destination: inout [UInt8], table: [UInt8]) {
        source.withUnsafeBufferPointer { s in
            table.withUnsafeBufferPointer { t in
                destination.withUnsafeMutableBufferPointer { d in
                    for i in 0..<min(s.count, d.count) { d[i] = t[Int(s[i])] }
                }
            }
        }
    }
}
