// The 'hvcC' record (ISO/IEC 14496-15 §8.3.3): VPS, SPS and PPS of an HEVC track.
import DaguerreCore
import DaguerreFormats

/// The HEVC decoder configuration record that an `hvc1` or `hev1` sample entry carries in its
/// `hvcC` box: the profile, tier and level, the chroma format and bit depths, and the arrays of
/// parameter sets (VPS, SPS, PPS, and any SEI arrays the writer added).
///
/// The record is kept byte for byte (``serialized()``): it is the decoder's extradata, so a
/// movie's record reaches libavcodec exactly as the file stores it. A record made from an
/// encoder's parameter sets (``init(videoParameterSets:sequenceParameterSets:pictureParameterSets:)``)
/// takes its profile, chroma format and bit depths from the SPS. Damaged records are refused with
/// `.corruptData`: a wrong version, 3-byte NAL lengths, arrays that run past the end, empty NAL
/// units, or no VPS, SPS or PPS.
///
/// ```swift
/// let config = try HEVCDecoderConfiguration(parsing: hvcCBody)
/// print(config.profile, config.bitDepthLuma, config.chromaFormat)   // 2 (Main 10), 10, 1 (4:2:0)
/// ```
public struct HEVCDecoderConfiguration: Sendable, Hashable {
    /// One `hvcC` array: NAL units of one type (32 VPS, 33 SPS, 34 PPS, 39/40 SEI).
    public struct NALArray: Sendable, Hashable {
        public var type: UInt8
        /// All units of this type are in the record (none in the samples).
        public var complete: Bool
        public var units: [[UInt8]]
    }

    /// general_profile_space (0 for every profile defined so far).
    public let profileSpace: UInt8
    /// general_tier_flag: false Main tier, true High tier.
    public let highTier: Bool
    /// general_profile_idc: 1 Main, 2 Main 10, 3 Main Still Picture, 4 range extensions.
    public let profile: UInt8
    public let profileCompatibility: UInt32
    /// general_level_idc: 30 × the level number (level 4 is 120).
    public let level: UInt8
    /// chroma_format_idc: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public let chromaFormat: UInt8
    public let bitDepthLuma: UInt8
    public let bitDepthChroma: UInt8
    /// Bytes in each NAL unit's length prefix (1, 2 or 4).
    public let nalLengthSize: Int
    public let arrays: [NALArray]
    private let record: [UInt8]

    /// Video, sequence and picture parameter sets (NAL unit types 32, 33, 34).
    public var videoParameterSets: [[UInt8]] { units(ofType: 32) }
    public var sequenceParameterSets: [[UInt8]] { units(ofType: 33) }
    public var pictureParameterSets: [[UInt8]] { units(ofType: 34) }

    /// The NAL units of all arrays of `type`.
    public func units(ofType type: UInt8) -> [[UInt8]] { arrays.filter { $0.type == type }.flatMap(\.units) }

    /// The NAL unit type of an HEVC NAL unit (H.265 §7.3.1.2): 19, 20 IDR, 32 VPS, 33 SPS,
    /// 34 PPS, 35 access unit delimiter, 39 and 40 SEI.
    public static func nalType(of nal: [UInt8]) -> UInt8 { nal.first.map { ($0 >> 1) & 0x3F } ?? 0 }

    /// Parses an `hvcC` box body.
    public init(parsing bytes: [UInt8]) throws(DaguerreError) {
        func corrupt(_ detail: String) -> DaguerreError {
            .corruptData(
                format: "QuickTime", detail: "the hvcC record \(detail)",
                path: nil)
        }
        var r = ByteReader(bytes, range: 0..<bytes.count, context: "hvcC")
        guard bytes.count >= 23 else { throw corrupt("is \(bytes.count) bytes, shorter than its 23-byte header") }
        guard try r.u8("version") == 1 else { throw corrupt("is not version 1 (the file is damaged or not HEVC)") }
        let p = try r.u8()
        profileSpace = p >> 6
        highTier = p & 0x20 != 0
        profile = p & 0x1F
        profileCompatibility = try r.u32()
        try r.skip(6)  // general_constraint_indicator_flags
        level = try r.u8()
        try r.skip(3)  // min_spatial_segmentation_idc, parallelismType
        chromaFormat = try r.u8() & 3
        bitDepthLuma = (try r.u8() & 7) + 8
        bitDepthChroma = (try r.u8() & 7) + 8
        try r.skip(2)  // avgFrameRate
        nalLengthSize = Int(try r.u8() & 3) + 1
        guard nalLengthSize != 3 else { throw corrupt("declares 3-byte NAL lengths") }
        let count = Int(try r.u8("array count"))
        var arrays: [NALArray] = []
        for _ in 0..<count {
            let head = try r.u8("array header")
            let n = Int(try r.u16("NAL unit count"))
            var units: [[UInt8]] = []
            for _ in 0..<n {
                let length = Int(try r.u16("NAL unit length"))
                guard length > 0 else { throw corrupt("holds an empty NAL unit") }
                units.append(try r.read(length, "NAL unit"))
            }
            arrays.append(NALArray(type: head & 0x3F, complete: head & 0x80 != 0, units: units))
        }
        self.arrays = arrays
        record = bytes
        for (type, name) in [(UInt8(32), "VPS"), (33, "SPS"), (34, "PPS")] where units(ofType: type).isEmpty {
            throw corrupt("has no \(name), so the stream cannot be decoded")
        }
    }

    /// A record for 4-byte length prefixes from an encoder's parameter sets; profile, level,
    /// chroma format and bit depths come from the first SPS.
    public init(videoParameterSets: [[UInt8]], sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]])
        throws(DaguerreError)
    {
        let all = [videoParameterSets, sequenceParameterSets, pictureParameterSets]
        guard let sps = sequenceParameterSets.first, all.allSatisfy({ !$0.isEmpty && $0.count <= 0xFFFF }),
            all.joined().allSatisfy({ (3...0xFFFF).contains($0.count) })
        else {
            throw .invalidArgument(
                what: "HEVC parameter sets", problem: "need at least one VPS, SPS and PPS, each 3 to 65535 bytes")
        }
        let info = try SequenceParameterSet(sps)
        profileSpace = info.profileTierLevel[0] >> 6
        highTier = info.profileTierLevel[0] & 0x20 != 0
        profile = info.profileTierLevel[0] & 0x1F
        profileCompatibility = info.profileTierLevel[1...4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        level = info.profileTierLevel[11]
        chromaFormat = info.chromaFormat
        bitDepthLuma = info.bitDepthLuma
        bitDepthChroma = info.bitDepthChroma
        nalLengthSize = 4
        arrays = zip([UInt8(32), 33, 34], all).map { NALArray(type: $0, complete: true, units: $1) }
        var w = ByteWriter()
        w.u8(1)
        w.append(info.profileTierLevel)  // profile space, tier, profile, compatibility, constraints, level
        w.u16(0xF000)  // min_spatial_segmentation_idc 0
        w.u8(0xFC)  // parallelismType 0 (unknown)
        w.u8(0xFC | chromaFormat)
        w.u8(0xF8 | (bitDepthLuma - 8))
        w.u8(0xF8 | (bitDepthChroma - 8))
        w.u16(0)  // avgFrameRate unspecified
        // constantFrameRate 0, numTemporalLayers, temporalIdNested, lengthSizeMinusOne 3
        w.u8(UInt8(info.temporalLayers & 7) << 3 | (info.temporalIdNested ? 4 : 0) | 3)
        w.u8(UInt8(arrays.count))
        for a in arrays {
            w.u8((a.complete ? 0x80 : 0) | a.type)
            w.u16(UInt16(a.units.count))
            for u in a.units {
                w.u16(UInt16(u.count))
                w.append(u)
            }
        }
        record = w.bytes
    }

    /// The configuration of an encoder's header NAL units (Annex B): its VPS, SPS and PPS, other
    /// units ignored.
    init(headerUnits units: [[UInt8]]) throws(DaguerreError) {
        try self.init(
            videoParameterSets: units.filter { Self.nalType(of: $0) == 32 },
            sequenceParameterSets: units.filter { Self.nalType(of: $0) == 33 },
            pictureParameterSets: units.filter { Self.nalType(of: $0) == 34 })
    }

    /// The box body (for a parsed record, the bytes it was parsed from).
    public func serialized() -> [UInt8] { record }
}

/// The fields of an HEVC SPS that the `hvcC` record repeats (H.265 §7.3.2.2.1).
private struct SequenceParameterSet {
    /// The 12 bytes of general profile, tier, compatibility, constraint flags and level.
    var profileTierLevel: [UInt8]
    var temporalLayers: Int
    var temporalIdNested: Bool
    var chromaFormat: UInt8
    var bitDepthLuma: UInt8
    var bitDepthChroma: UInt8

    init(_ nal: [UInt8]) throws(DaguerreError) {
        var r = NALBitReader(nal, context: "HEVC SPS")
        try r.skip(16 + 4)  // NAL unit header, sps_video_parameter_set_id
        let maxSubLayersMinus1 = Int(try r.bits(3))
        temporalLayers = maxSubLayersMinus1 + 1
        temporalIdNested = try r.bit() == 1
        profileTierLevel = try r.bytes(at: 3, count: 12)
        try r.skip(96)
        var profilePresent: [Bool] = []
        var levelPresent: [Bool] = []
        for _ in 0..<maxSubLayersMinus1 {
            profilePresent.append(try r.bit() == 1)
            levelPresent.append(try r.bit() == 1)
        }
        if maxSubLayersMinus1 > 0 { try r.skip(2 * (8 - maxSubLayersMinus1)) }
        for i in 0..<maxSubLayersMinus1 {
            if profilePresent[i] { try r.skip(88) }
            if levelPresent[i] { try r.skip(8) }
        }
        _ = try r.exponentialGolomb()  // sps_seq_parameter_set_id
        let chroma = try r.exponentialGolomb()
        guard chroma <= 3 else {
            throw .corruptData(format: "HEVC SPS", detail: "chroma_format_idc is \(chroma) (0–3 allowed)", path: nil)
        }
        chromaFormat = UInt8(chroma)
        if chroma == 3 { try r.skip(1) }  // separate_colour_plane_flag
        _ = try r.exponentialGolomb()  // pic_width_in_luma_samples
        _ = try r.exponentialGolomb()  // pic_height_in_luma_samples
        if try r.bit() == 1 {
            for _ in 0..<4 { _ = try r.exponentialGolomb() }  // conformance window offsets
        }
        let luma = try r.exponentialGolomb()
        let chromaDepth = try r.exponentialGolomb()
        guard luma <= 7, chromaDepth <= 7 else {
            throw .corruptData(
                format: "HEVC SPS", detail: "bit depths \(luma + 8)/\(chromaDepth + 8) exceed 15 (what hvcC can record)", path: nil)
        }
        bitDepthLuma = UInt8(luma) + 8
        bitDepthChroma = UInt8(chromaDepth) + 8
    }
}
