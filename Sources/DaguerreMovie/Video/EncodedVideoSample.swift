// One coded H.264 access unit as a QuickTime/MP4 sample.
import DaguerreCore
import DaguerreFormats

/// One coded frame: length-prefixed NAL units (4-byte lengths, no parameter sets) and its times
/// in the encoder's timescale, ready for ``MovieWriter/append(sample:to:duration:compositionOffset:isSync:)``.
///
/// ```swift
/// for sample in try encoder.encode(frame, presentationTime: 40 * n) { print(sample.data.count, sample.isKeyFrame) }
/// ```
public struct EncodedVideoSample: Sendable, Equatable {
    /// The sample bytes: NAL units, each after its length as a 4-byte big-endian number.
    public var data: [UInt8]
    /// When the frame is shown, in the encoder's timescale.
    public var presentationTime: Int64
    /// When the frame is decoded (equal to the presentation time without B-frames).
    public var decodeTime: Int64
    /// An IDR frame: decoding can start here (the track's sync samples, 'stss').
    public var isKeyFrame: Bool

    public init(data: [UInt8], presentationTime: Int64, decodeTime: Int64, isKeyFrame: Bool) {
        self.data = data
        self.presentationTime = presentationTime
        self.decodeTime = decodeTime
        self.isKeyFrame = isKeyFrame
    }
}
