// FFmpeg error codes as text (av_strerror through the CFFmpeg shim).
import CFFmpeg

/// Helpers for libavcodec's negative error codes.
///
/// ```swift
/// let text = FFmpegError.describe(code)    // "Invalid data found when processing input"
/// ```
enum FFmpegError {
    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        return buffer.withUnsafeMutableBufferPointer { b in
            String(cString: dag_av_strerror(code, b.baseAddress, b.count))
        }
    }

    static let again = dag_averror_eagain()
    static let endOfFile = dag_averror_eof()
}
