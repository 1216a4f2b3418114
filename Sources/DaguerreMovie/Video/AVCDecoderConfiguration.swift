// The 'avcC' record (ISO/IEC 14496-15 §5.3.3): SPS and PPS of an H.264 track.
import DaguerreCore
import DaguerreFormats

/// The AVC decoder configuration record that an `avc1` sample entry carries in its `avcC` box.
///
/// x264 produces an Annex-B stream with the parameter sets in-band; a QuickTime or MP4 track
/// needs them here instead (TOOLCHAIN.md), with every sample's NAL units prefixed by their
/// length (``nalLengthSize`` bytes, 4 here). The decoder gets this record as its extradata.
///
/// ```swift
/// let config = try AVCDecoderConfiguration(sequenceParameterSets: [sps], pictureParameterSets: [pps])
/// let avcC = config.serialized()        // the box body
/// ```
public struct AVCDecoderConfiguration: Sendable, Hashable {
    public var profile: UInt8
    public var profileCompatibility: UInt8
    public var level: UInt8
    /// Bytes in each NAL unit's length prefix (1, 2 or 4).
    public var nalLengthSize: Int
    public var sequenceParameterSets: [[UInt8]]
    public var pictureParameterSets: [[UInt8]]
    /// The High-profile extension (chroma format, bit depths); nil when absent.
    public var chromaFormat: UInt8?
    public var bitDepthLuma: UInt8 = 8
    public var bitDepthChroma: UInt8 = 8

    /// A record for 4-byte length prefixes; profile and level come from the first SPS.
    /// The configuration of an encoder's header NAL units (Annex B): its SPS and PPS, other
    /// units ignored.
    init(headerUnits units: [[UInt8]]) throws(DaguerreError) {
        try self.init(
            sequenceParameterSets: units.filter { AnnexB.type(of: $0) == 7 },
            pictureParameterSets: units.filter { AnnexB.type(of: $0) == 8 })
    }

    public init(sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]]) throws(DaguerreError) {
        guard let sps = sequenceParameterSets.first, sps.count >= 4, !pictureParameterSets.isEmpty,
            sequenceParameterSets.allSatisfy({ $0.count <= 0xFFFF }),
            pictureParameterSets.allSatisfy({ $0.count <= 0xFFFF && !$0.isEmpty }),
            sequenceParameterSets.count <= 31, pictureParameterSets.count <= 255
        else {
            throw .invalidArgument(what: "H.264 parameter sets", problem: "need one to 31 SPS (each at least 4 bytes) and one to 255 PPS")
        }
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
        profile = sps[1]
        profileCompatibility = sps[2]
        level = sps[3]
        nalLengthSize = 4
        // ISO/IEC 14496-15: the extension follows for profiles other than 66, 77 and 88.
        chromaFormat = [66, 77, 88].contains(sps[1]) ? nil : 1
    }

    /// Parses an `avcC` box body.
    public init(parsing bytes: [UInt8]) throws(DaguerreError) {
        var r = ByteReader(bytes, range: 0..<bytes.count, context: "avcC")
        guard try r.u8("version") == 1 else {
            throw .corruptData(format: "QuickTime", detail: "the avcC record is not version 1", path: nil)
        }
        profile = try r.u8()
        profileCompatibility = try r.u8()
        level = try r.u8()
        nalLengthSize = Int(try r.u8() & 3) + 1
        guard nalLengthSize != 3 else {
            throw .corruptData(format: "QuickTime", detail: "the avcC record declares 3-byte NAL lengths", path: nil)
        }
        let spsCount = Int(try r.u8() & 0x1F)
        var sps: [[UInt8]] = []
        for _ in 0..<spsCount { sps.append(try r.read(Int(try r.u16("SPS length")), "SPS")) }
        let ppsCount = Int(try r.u8("PPS count"))
        var pps: [[UInt8]] = []
        for _ in 0..<ppsCount { pps.append(try r.read(Int(try r.u16("PPS length")), "PPS")) }
        sequenceParameterSets = sps
        pictureParameterSets = pps
        if r.remaining >= 4, ![66, 77, 88].contains(profile) {
            chromaFormat = try r.u8() & 3
            bitDepthLuma = (try r.u8() & 7) + 8
            bitDepthChroma = (try r.u8() & 7) + 8
        }
    }

    /// The box body.
    public func serialized() -> [UInt8] {
        var w = ByteWriter()
        w.u8(1)
        w.u8(profile)
        w.u8(profileCompatibility)
        w.u8(level)
        w.u8(0xFC | UInt8((nalLengthSize - 1) & 3))
        w.u8(0xE0 | UInt8(sequenceParameterSets.count & 0x1F))
        for s in sequenceParameterSets {
            w.u16(UInt16(truncatingIfNeeded: s.count))
            w.append(s)
        }
        w.u8(UInt8(truncatingIfNeeded: pictureParameterSets.count))
        for p in pictureParameterSets {
            w.u16(UInt16(truncatingIfNeeded: p.count))
            w.append(p)
        }
        if let chromaFormat {
            w.u8(0xFC | chromaFormat)
            w.u8(0xF8 | ((bitDepthLuma &- 8) & 7))
            w.u8(0xF8 | ((bitDepthChroma &- 8) & 7))
            w.u8(0)  // no SPS extensions
        }
        return w.bytes
    }
}
