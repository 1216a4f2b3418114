// The sample description of a video track: 'avc1' with avcC or 'hvc1' with hvcC, then colr, pasp.
import DaguerreCore
import DaguerreFormats

/// An H.264 or HEVC video track for ``MovieWriter``: frame size, the parameter sets
/// (``VideoDecoderConfiguration``), colour tags, pixel aspect ratio and display matrix
/// (``transform``, in the track header), written as an `avc1` sample entry with `avcC`, or an
/// `hvc1` one with `hvcC`, then `colr` ('nclx') and `pasp` atoms (QuickTime File Format "Video
/// sample description"; ISO 14496-15).
///
/// SPEC L2: Live Photo movies are 1440×1080 (or 1290×960) H.264 at 15 fps; W5: their `colr`
/// says P3 when the capture was wide colour. Timescale 600, as Apple's video tracks.
///
/// ```swift
/// let format = VideoTrackFormat(width: 1440, height: 1080, decoderConfiguration: .avc(encoder.decoderConfiguration),
///                               colorProperties: .displayP3)
/// let video = try writer.addVideoTrack(format)
/// ```
public struct VideoTrackFormat: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var decoderConfiguration: VideoDecoderConfiguration
    public var colorProperties: VideoColorProperties
    /// Pixel aspect ratio as horizontal and vertical spacing (`pasp`); 1:1 for square pixels.
    public var pixelAspectHorizontal: UInt32 = 1
    public var pixelAspectVertical: UInt32 = 1
    /// Ticks per second of the track's media.
    public var timescale: Int32
    /// The display matrix written in the track header: how players turn the frames
    /// (``TrackTransform/init(exifOrientation:width:height:)`` makes one for a frame size).
    public var transform: TrackTransform = .identity

    public init(
        width: Int, height: Int, decoderConfiguration: VideoDecoderConfiguration,
        colorProperties: VideoColorProperties = .bt709, timescale: Int32 = 600
    ) {
        self.width = width
        self.height = height
        self.decoderConfiguration = decoderConfiguration
        self.colorProperties = colorProperties
        self.timescale = timescale
    }

    func validate() throws(DaguerreError) {
        guard (1...65535).contains(width), (1...65535).contains(height), timescale > 0,
            pixelAspectHorizontal > 0, pixelAspectVertical > 0
        else {
            throw .invalidArgument(
                what: "Video track \(width)×\(height), timescale \(timescale)",
                problem: "width and height must be 1–65535, the timescale and pixel aspect positive")
        }
    }

    /// The display width: width × horizontal / vertical spacing.
    var displayWidth: Double { Double(width) * Double(pixelAspectHorizontal) / Double(pixelAspectVertical) }

    /// The `avc1` or `hvc1` sample entry.
    func sampleEntry() -> [UInt8] {
        let codec = decoderConfiguration.codec
        var w = ByteWriter()
        w.box(codec.sampleEntryType) { w in
            w.zeros(6)
            w.u16(1)  // reserved, data reference index
            w.u16(0)
            w.u16(0)
            w.u32(0)  // version, revision, vendor
            w.u32(0)
            w.u32(0)  // temporal and spatial quality
            w.u16(UInt16(width))
            w.u16(UInt16(height))
            w.u32(0x0048_0000)
            w.u32(0x0048_0000)  // 72 dpi
            w.u32(0)  // data size
            w.u16(1)  // frames per sample
            w.pascalString(codec.displayName, fieldSize: 32)  // compressor name
            w.u16(24)  // depth
            w.i16(-1)  // no colour table
            w.box(codec.configurationBoxType) { w in w.append(decoderConfiguration.serialized()) }
            w.box("colr") { w in
                w.fourCC("nclx")
                w.u16(colorProperties.primaries)
                w.u16(colorProperties.transfer)
                w.u16(colorProperties.matrix)
                w.u8(colorProperties.fullRange ? 0x80 : 0)
            }
            w.box("pasp") { w in
                w.u32(pixelAspectHorizontal)
                w.u32(pixelAspectVertical)
            }
        }
        return w.bytes
    }
}
