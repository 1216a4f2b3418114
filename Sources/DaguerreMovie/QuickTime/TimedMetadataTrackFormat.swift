// The sample description of a timed metadata track: 'mebx' with its key table.
import DaguerreCore
import DaguerreFormats

/// One key a timed metadata track can carry: the local ID its samples use, the key itself and
/// its well-known data type (QuickTime File Format "Metadata key atom", 'keyd', 'dtyp').
///
/// ```swift
/// let key = TimedMetadataKey(localID: 1, key: .stillImageTime, dataType: MetadataItem.typeInt8)
/// ```
public struct TimedMetadataKey: Sendable, Hashable {
    /// The atom type of this key's values inside samples (not 0 or 0xFFFFFFFF).
    public var localID: UInt32
    public var key: MetadataKey
    /// The key namespace: 'mdta' for reverse-DNS keys.
    public var namespace: FourCC
    /// Well-known data type (namespace 0), e.g. 65 for int8.
    public var dataType: UInt32

    public init(localID: UInt32, key: MetadataKey, namespace: FourCC = "mdta", dataType: UInt32) {
        self.localID = localID
        self.key = key
        self.namespace = namespace
        self.dataType = dataType
    }
}

/// A timed metadata track for ``MovieWriter``: handler 'meta', sample entry 'mebx' whose
/// `keys` atom declares each key, a `gmhd` media header (QuickTime File Format "Timed
/// metadata media").
///
/// SPEC L4: a Live Photo movie has one such track with the key
/// `com.apple.quicktime.still-image-time` (type int8, local ID 1) whose item, value -1, is in
/// the sample at the still's time (MovieRecorder puts an empty sample before it); the track
/// refers to the video track it describes ('cdsc').
///
/// ```swift
/// let meta = try writer.addTimedMetadataTrack(.stillImageTime, describing: video)
/// try writer.append(sample: [], to: meta, duration: 900)            // nothing until 1.5 s (600 ticks/s)
/// try writer.append(sample: TimedMetadataTrackFormat.sample([(1, [0xFF])]), to: meta, duration: 1)
/// ```
public struct TimedMetadataTrackFormat: Sendable, Hashable {
    public var keys: [TimedMetadataKey]
    public var timescale: Int32

    public init(keys: [TimedMetadataKey], timescale: Int32 = 600) {
        self.keys = keys
        self.timescale = timescale
    }

    /// The Live Photo still-image-time track (L4): one key, local ID 1, int8.
    public static let stillImageTime = TimedMetadataTrackFormat(
        keys: [TimedMetadataKey(localID: 1, key: .stillImageTime, dataType: MetadataItem.typeInt8)])

    func validate() throws(DaguerreError) {
        guard !keys.isEmpty, keys.count <= 1024, timescale > 0,
            keys.allSatisfy({ $0.localID != 0 && $0.localID != 0xFFFF_FFFF }),
            Set(keys.map(\.localID)).count == keys.count
        else {
            throw .invalidArgument(
                what: "Timed metadata keys",
                problem: "need 1–1024 keys with distinct local IDs other than 0 and 0xFFFFFFFF, and a positive timescale")
        }
    }

    /// The `mebx` sample entry.
    func sampleEntry() -> [UInt8] {
        var w = ByteWriter()
        w.box("mebx") { w in
            w.zeros(6)
            w.u16(1)  // reserved, data reference index
            w.box("keys") { w in
                for key in keys {
                    w.box(FourCC(key.localID)) { w in
                        w.box("keyd") { w in
                            w.fourCC(key.namespace)
                            w.utf8(key.key.rawValue)
                        }
                        w.box("dtyp") { w in
                            w.u32(0)
                            w.u32(key.dataType)
                        }
                    }
                }
            }
        }
        return w.bytes
    }

    /// A sample: each value as an atom whose type is its key's local ID.
    public static func sample(_ values: [(localID: UInt32, value: [UInt8])]) -> [UInt8] {
        var w = ByteWriter()
        for v in values { w.box(FourCC(v.localID)) { w in w.append(v.value) } }
        return w.bytes
    }
}
