// Which library encodes a movie's H.264 video, and what that means for the program's licence.

/// The H.264 encoder a ``MovieRecorder`` uses (``MovieSettings/encoder``).
///
/// The choice decides the licence of a program that records movies. Both libraries are loaded on
/// first use, not linked: a process that never records loads neither.
/// - ``x264``: libx264, GPL-2 or later. A program that records with it runs GPL code: if you
///   distribute it together with x264, the GPL's terms apply to the whole. The faster of the
///   two, and the sharper at the target bit rate (Benchmarks/README.md: 0.31 s against 0.40 s
///   for the 45-frame movie, 46 dB luma PSNR against 42.5).
/// - ``openH264``: Cisco's OpenH264, BSD-2-Clause: no copyleft, so a closed or
///   permissively licensed program may ship it (with its copyright notice). Its licence covers
///   the code, not the H.264 patents: Cisco's patent licence covers only the binaries Cisco
///   itself distributes, not a build such as Debian's.
///
/// Recording a Live Photo movie (PCM audio) uses no other video library. H.264 decoding and AAC
/// encoding (Motion Photos) use FFmpeg's libavcodec, which Debian builds with GPL parts.
///
/// ```swift
/// var settings = MovieSettings()
/// settings.encoder = .openH264     // permissive: no GPL code in the recording path
/// ```
public enum H264EncoderChoice: String, Sendable, Hashable, CaseIterable {
    /// libx264 (GPL-2), the default: Constrained Baseline with the `ultrafast` preset, High
    /// profile with slower presets (``MovieSettings/encoderPreset``).
    case x264
    /// OpenH264 (BSD-2): Constrained Baseline, CAVLC; ``MovieSettings/encoderPreset`` is ignored.
    case openH264
}
