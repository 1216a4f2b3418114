// The typed values a TIFF/EXIF/DNG field holds (TIFF 6.0 §2, plus type 13 IFD from TIFF tech note 1).
// Part of the hand-written IFD layer: libtiff writes whole TIFF files through its own I/O, but
// cannot lay out an EXIF APP1 block, an Apple MakerNote with makernote-relative offsets, or a DNG
// whose tiles are our own lossless JPEG, so this small layer does those byte layouts (SPEC R1, P12).

/// TIFF byte order: "II" (little-endian) or "MM" (big-endian).
public enum TIFFByteOrder: Sendable, Hashable {
    case littleEndian, bigEndian
}

/// The field types of TIFF 6.0 (1–12) and the IFD type (13).
public enum TIFFFieldType: UInt16, Sendable, Hashable {
    case byte = 1
    case ascii = 2
    case short = 3
    case long = 4
    case rational = 5
    case sbyte = 6
    case undefined = 7
    case sshort = 8
    case slong = 9
    case srational = 10
    case float = 11
    case double = 12
    case ifd = 13

    /// Bytes per value.
    public var size: Int {
        switch self {
        case .byte, .ascii, .sbyte, .undefined: return 1
        case .short, .sshort: return 2
        case .long, .slong, .float, .ifd: return 4
        case .rational, .srational, .double: return 8
        }
    }
}

/// A field's value, typed as it will be written.
///
/// ```swift
/// var ifd = TIFFDirectory()
/// ifd[.make] = .ascii("Daguerre")
/// ifd[.exposureTime] = .rationals([TIFFRational(1, 60)])
/// ```
public enum TIFFValue: Sendable, Hashable {
    case bytes([UInt8])
    case ascii(String)
    case shorts([UInt16])
    case longs([UInt32])
    case rationals([TIFFRational])
    case sbytes([Int8])
    case undefined([UInt8])
    case sshorts([Int16])
    case slongs([Int32])
    case srationals([TIFFSRational])
    case floats([Float])
    case doubles([Double])

    public var type: TIFFFieldType {
        switch self {
        case .bytes: return .byte
        case .ascii: return .ascii
        case .shorts: return .short
        case .longs: return .long
        case .rationals: return .rational
        case .sbytes: return .sbyte
        case .undefined: return .undefined
        case .sshorts: return .sshort
        case .slongs: return .slong
        case .srationals: return .srational
        case .floats: return .float
        case .doubles: return .double
        }
    }

    /// The number of values (for ASCII: bytes including the terminating NUL).
    public var count: Int {
        switch self {
        case .bytes(let v), .undefined(let v): return v.count
        case .ascii(let s): return s.utf8.count + 1
        case .shorts(let v): return v.count
        case .longs(let v): return v.count
        case .rationals(let v): return v.count
        case .sbytes(let v): return v.count
        case .sshorts(let v): return v.count
        case .slongs(let v): return v.count
        case .srationals(let v): return v.count
        case .floats(let v): return v.count
        case .doubles(let v): return v.count
        }
    }

    /// The value's bytes in `order`.
    public func encoded(_ order: TIFFByteOrder) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(count * type.size)
        func put16(_ v: UInt16) {
            order == .bigEndian
                ? out.append(contentsOf: [UInt8(v >> 8), UInt8(v & 0xFF)]) : out.append(contentsOf: [UInt8(v & 0xFF), UInt8(v >> 8)])
        }
        func put32(_ v: UInt32) {
            if order == .bigEndian {
                put16(UInt16(v >> 16))
                put16(UInt16(v & 0xFFFF))
            } else {
                put16(UInt16(v & 0xFFFF))
                put16(UInt16(v >> 16))
            }
        }
        func put64(_ v: UInt64) {
            if order == .bigEndian {
                put32(UInt32(v >> 32))
                put32(UInt32(v & 0xFFFF_FFFF))
            } else {
                put32(UInt32(v & 0xFFFF_FFFF))
                put32(UInt32(v >> 32))
            }
        }
        switch self {
        case .bytes(let v), .undefined(let v): out = v
        case .ascii(let s): out = Array(s.utf8) + [0]
        case .shorts(let v): v.forEach(put16)
        case .longs(let v): v.forEach(put32)
        case .rationals(let v):
            v.forEach {
                put32($0.numerator)
                put32($0.denominator)
            }
        case .sbytes(let v): out = v.map { UInt8(bitPattern: $0) }
        case .sshorts(let v): v.forEach { put16(UInt16(bitPattern: $0)) }
        case .slongs(let v): v.forEach { put32(UInt32(bitPattern: $0)) }
        case .srationals(let v):
            v.forEach {
                put32(UInt32(bitPattern: $0.numerator))
                put32(UInt32(bitPattern: $0.denominator))
            }
        case .floats(let v): v.forEach { put32($0.bitPattern) }
        case .doubles(let v): v.forEach { put64($0.bitPattern) }
        }
        return out
    }
}

/// An unsigned TIFF RATIONAL.
public struct TIFFRational: Sendable, Hashable {
    public var numerator: UInt32
    public var denominator: UInt32
    public init(_ numerator: UInt32, _ denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }
    /// The nearest fraction with the given denominator (negative and non-finite values give 0/1).
    public init(_ value: Double, denominator: UInt32 = 10_000) {
        guard value.isFinite, value > 0 else {
            self.init(0, 1)
            return
        }
        let n = (value * Double(denominator)).rounded()
        if n > Double(UInt32.max) {
            self.init(UInt32(min(value.rounded(), Double(UInt32.max))), 1)
        } else {
            self.init(UInt32(n), denominator)
        }
    }
    public var doubleValue: Double { denominator == 0 ? 0 : Double(numerator) / Double(denominator) }
}

/// A signed TIFF SRATIONAL.
public struct TIFFSRational: Sendable, Hashable {
    public var numerator: Int32
    public var denominator: Int32
    public init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }
    /// The nearest fraction with the given denominator (non-finite values give 0/1).
    public init(_ value: Double, denominator: Int32 = 10_000) {
        guard value.isFinite else {
            self.init(0, 1)
            return
        }
        let n = (value * Double(denominator)).rounded()
        self.init(Int32(max(Double(Int32.min), min(Double(Int32.max), n))), denominator)
    }
    public var doubleValue: Double { denominator == 0 ? 0 : Double(numerator) / Double(denominator) }
}
