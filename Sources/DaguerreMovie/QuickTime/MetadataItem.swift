// Movie metadata items: QuickTime 'mdta' keys, old user-data ('©xxx') and iTunes-style entries.
import DaguerreCore
import DaguerreFormats

/// The name of a metadata item's key, such as `com.apple.quicktime.content.identifier`.
///
/// The constants are AVFoundation's `AVMetadataKey.quickTimeMetadataKey…` values with the
/// prefix dropped (SPEC mapping). A Live Photo movie carries ``contentIdentifier`` (SPEC L3) and
/// whatever the capture settings add (L6: author, location, …); its timed metadata track carries
/// ``stillImageTime`` (L4).
///
/// ```swift
/// let key: MetadataKey = .locationISO6709
/// key.rawValue    // "com.apple.quicktime.location.ISO6709"
/// ```
public struct MetadataKey: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    /// The Live Photo UUID shared with the still's Apple MakerNote (L3).
    public static let contentIdentifier: MetadataKey = "com.apple.quicktime.content.identifier"
    /// Timed metadata: marks the still's time in a Live Photo movie (L4); the value is -1 (int8).
    public static let stillImageTime: MetadataKey = "com.apple.quicktime.still-image-time"
    public static let author: MetadataKey = "com.apple.quicktime.author"
    /// A point in ISO 6709 form, e.g. `+37.3349-122.0090+010.000/`.
    public static let locationISO6709: MetadataKey = "com.apple.quicktime.location.ISO6709"
    public static let make: MetadataKey = "com.apple.quicktime.make"
    public static let model: MetadataKey = "com.apple.quicktime.model"
    public static let software: MetadataKey = "com.apple.quicktime.software"
    /// ISO 8601 date and time, e.g. `2016-09-13T10:41:00+0200`.
    public static let creationDate: MetadataKey = "com.apple.quicktime.creationdate"
    public static let title: MetadataKey = "com.apple.quicktime.title"
    public static let comment: MetadataKey = "com.apple.quicktime.comment"
}

/// One metadata item of a movie: a key in a key space and a typed value (AVMetadataItem).
///
/// Written items go into the movie-level `meta` atom ('mdta' handler, `keys` + `ilst`, QuickTime
/// File Format "Metadata atoms and types"), as Live Photo movies carry them (SPEC L3, L6). The
/// reader also returns the older user-data items (`udta` '©nam' …) and iTunes-style `ilst`
/// entries, in their own key spaces, so a caller sees everything a camera wrote.
///
/// ```swift
/// let author = MetadataItem(key: .author, value: "Ansel")
/// author.identifier     // "mdta/com.apple.quicktime.author"
/// ```
public struct MetadataItem: Sendable, Hashable, CustomStringConvertible {
    /// Where the key lives (AVMetadataKeySpace).
    public enum KeySpace: String, Sendable, Hashable {
        /// moov/meta with the 'mdta' handler: reverse-DNS string keys.
        case quickTimeMetadata = "mdta"
        /// moov/udta: four-character keys such as '©nam', '©day'.
        case quickTimeUserData = "udta"
        /// udta/meta/ilst with the 'mdir' handler: four-character keys.
        case iTunes = "itsk"
    }

    /// A value, as its well-known data type says (QuickTime "Well-known types").
    public enum Value: Sendable, Hashable {
        case string(String)
        case integer(Int64)
        case float(Double)
        case data([UInt8])
    }

    public var keySpace: KeySpace
    /// The key: a reverse-DNS string for ``KeySpace/quickTimeMetadata``, the four characters
    /// otherwise.
    public var key: String
    public var value: Value
    /// The QuickTime well-known type the value had or will have (1 UTF-8, 21 signed integer,
    /// 23/24 float, 0 binary, …).
    public var dataType: UInt32
    /// The locale indicator of the `data` atom (0: every country and language).
    public var locale: UInt32

    public init(keySpace: KeySpace = .quickTimeMetadata, key: String, value: Value, dataType: UInt32? = nil, locale: UInt32 = 0) {
        self.keySpace = keySpace
        self.key = key
        self.value = value
        self.locale = locale
        if let dataType {
            self.dataType = dataType
        } else {
            switch value {
            case .string: self.dataType = MetadataItem.typeUTF8
            case .integer: self.dataType = MetadataItem.typeSignedInteger
            case .float: self.dataType = MetadataItem.typeFloat64
            case .data: self.dataType = 0
            }
        }
    }

    /// A UTF-8 string item in the QuickTime metadata key space.
    public init(key: MetadataKey, value: String) {
        self.init(keySpace: .quickTimeMetadata, key: key.rawValue, value: .string(value))
    }

    /// "mdta/com.apple.quicktime.author", "udta/©nam": the key space and key (AVMetadataIdentifier).
    public var identifier: String { "\(keySpace.rawValue)/\(key)" }

    public var stringValue: String? {
        switch value {
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .float(let f): return String(f)
        case .data: return nil
        }
    }

    public var description: String {
        if case .data(let d) = value { return "\(identifier) = <\(d.count) bytes, type \(dataType)>" }
        return "\(identifier) = \(stringValue ?? "")"
    }

    /// Well-known type: UTF-8 text.
    public static let typeUTF8: UInt32 = 1
    /// Well-known type: UTF-16 big-endian text.
    public static let typeUTF16: UInt32 = 2
    /// Well-known type: big-endian signed integer of 1, 2, 3, 4 or 8 bytes.
    public static let typeSignedInteger: UInt32 = 21
    /// Well-known type: big-endian unsigned integer of 1, 2, 3, 4 or 8 bytes.
    public static let typeUnsignedInteger: UInt32 = 22
    public static let typeFloat32: UInt32 = 23
    public static let typeFloat64: UInt32 = 24
    /// Well-known type: one signed byte (the still-image-time value's type).
    public static let typeInt8: UInt32 = 65

    /// The bytes a `data` atom or timed metadata sample holds for this value.
    var encodedValue: [UInt8] {
        switch value {
        case .string(let s): return Array(s.utf8)
        case .data(let d): return d
        case .float(let f):
            if dataType == MetadataItem.typeFloat32 {
                let bits = Float(f).bitPattern
                return (0..<4).map { UInt8(truncatingIfNeeded: bits >> (24 - 8 * $0)) }
            }
            let bits = f.bitPattern
            return (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
        case .integer(let i):
            let width: Int
            switch dataType {
            case 65, 75: width = 1
            case 66, 76: width = 2
            case 67, 77: width = 4
            case 74, 78: width = 8
            default: width = Int8(exactly: i) != nil ? 1 : Int16(exactly: i) != nil ? 2 : Int32(exactly: i) != nil ? 4 : 8
            }
            return (0..<width).map { UInt8(truncatingIfNeeded: i >> (8 * Int64(width - 1 - $0))) }
        }
    }

    /// Decodes value bytes of a well-known type (unknown types stay binary).
    static func decodeValue(_ bytes: [UInt8], type: UInt32) -> Value {
        func integer(signed: Bool) -> Value {
            guard [1, 2, 3, 4, 8].contains(bytes.count) else { return .data(bytes) }
            var v: UInt64 = 0
            for b in bytes { v = v << 8 | UInt64(b) }
            if signed, bytes.count < 8, bytes[0] & 0x80 != 0 { v |= ~0 << (8 * UInt64(bytes.count)) }
            return .integer(Int64(bitPattern: v))
        }
        switch type {
        case typeUTF8, 4:
            return .string(String(decoding: bytes, as: UTF8.self))
        case typeUTF16, 5:
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = 0
            while i + 1 < bytes.count {
                units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
                i += 2
            }
            return .string(String(decoding: units, as: UTF16.self))
        case typeSignedInteger, 65, 66, 67, 74: return integer(signed: true)
        case typeUnsignedInteger, 75, 76, 77, 78: return integer(signed: false)
        case typeFloat32:
            guard bytes.count == 4 else { return .data(bytes) }
            return .float(Double(Float(bitPattern: bytes.reduce(0) { $0 << 8 | UInt32($1) })))
        case typeFloat64:
            guard bytes.count == 8 else { return .data(bytes) }
            return .float(Double(bitPattern: bytes.reduce(0) { $0 << 8 | UInt64($1) }))
        default:
            return .data(bytes)
        }
    }
}
