// FFmpeg error codes as text (av_strerror through the CFFmpeg shim), and the checks that the
// video libraries (FFmpeg, x264, OpenH264), loaded on first use (CDaguerreVideo), are there.
import CDaguerreVideo
import CFFmpeg
import DaguerreCore
import DaguerreFormats

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

    /// Throws `.unsupported` for `feature` when libavcodec and libavutil cannot be loaded.
    static func requireLibraries(for feature: String) throws(DaguerreError) {
        if let reason = dag_ffmpeg_load_error() { throw .unsupported(feature: feature, hint: String(cString: reason)) }
    }

    /// Throws `.unsupported` for `feature` when libx264 cannot be loaded.
    static func requireX264(for feature: String) throws(DaguerreError) {
        if let reason = dag_x264_load_error() { throw .unsupported(feature: feature, hint: String(cString: reason)) }
    }

    /// Throws `.unsupported` for `feature` when libopenh264 cannot be loaded.
    static func requireOpenH264(for feature: String) throws(DaguerreError) {
        if let reason = dag_openh264_load_error() { throw .unsupported(feature: feature, hint: String(cString: reason)) }
    }

    static let again = dag_averror_eagain()
    static let endOfFile = dag_averror_eof()
}
