// A run of microphone samples with the time of its first sample (SPEC C1 inputs; L2 audio).
import DaguerreCore

/// Interleaved 16-bit PCM from an audio device, stamped with the time of its first sample on
/// the clock the device streams against.
///
/// ```swift
/// let silence = try CaptureAudioBuffer(samples: [Int16](repeating: 0, count: 882),
///                                      sampleRate: 44_100, channels: 1, timestamp: 0.02)
/// silence.duration   // 0.02
/// ```
public struct CaptureAudioBuffer: Sendable, Hashable {
    /// Interleaved samples, `frameCount × channels` of them.
    public let samples: [Int16]
    public let sampleRate: Int
    public let channels: Int
    /// Seconds: the time of the first sample.
    public let timestamp: Double

    /// Throws unless the rate and channel count are sane and the samples fill whole frames.
    public init(samples: [Int16], sampleRate: Int, channels: Int, timestamp: Double) throws(DaguerreError) {
        let format = try CaptureAudioFormat(sampleRate: sampleRate, channels: channels)
        guard samples.count % format.channels == 0 else {
            throw .invalidArgument(
                what: "Audio buffer of \(samples.count) samples", problem: "must hold whole frames of \(channels) interleaved channels")
        }
        guard timestamp.isFinite else {
            throw .invalidArgument(what: "Audio buffer timestamp \(timestamp)", problem: "must be finite")
        }
        self.samples = samples
        self.sampleRate = sampleRate
        self.channels = channels
        self.timestamp = timestamp
    }

    /// Sample frames (one sample per channel each).
    public var frameCount: Int { samples.count / channels }
    /// Seconds.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }
}
