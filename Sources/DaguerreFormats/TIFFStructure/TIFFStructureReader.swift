// Safe parsing of TIFF IFD structures (TIFF 6.0 §2): headers, IFD chains, child IFDs and typed
// values, for EXIF blocks, Apple MakerNotes and DNG files. Hand-written for the same reasons as
// TIFFSerializer; every offset and count is checked against the buffer before it is read.
import DaguerreCore

/// One entry of a parsed IFD: where its value bytes are.
public struct TIFFEntry: Sendable, Hashable {
    public var tag: TIFFTagID
    public var type: TIFFFieldType
    public var count: Int
    /// Absolute position of the value bytes in the reader's buffer.
    public var position: Int
    public var byteCount: Int { count * type.size }
}

/// A parsed IFD and the IFDs it points to.
///
/// ```swift
/// let reader = try TIFFStructureReader(bytes: exifBlock)
/// let tree = try reader.tree()
/// let make = tree.first?.string(.make, in: reader)
/// ```
public struct TIFFNode: Sendable {
    /// Offset of the IFD (relative to the reader's origin).
    public var offset: Int
    public var entries: [TIFFTagID: TIFFEntry]
    /// Child IFDs reached through `.exifIFD`, `.gpsIFD`, `.subIFDs` (and the EXIF interop IFD).
    public var children: [TIFFTagID: [TIFFNode]] = [:]

    public func has(_ tag: TIFFTagID) -> Bool { entries[tag] != nil }
    public func uints(_ tag: TIFFTagID, in r: TIFFStructureReader) -> [UInt32]? { entries[tag].flatMap { try? r.uints($0) } }
    public func uint(_ tag: TIFFTagID, in r: TIFFStructureReader) -> UInt32? { uints(tag, in: r)?.first }
    public func doubles(_ tag: TIFFTagID, in r: TIFFStructureReader) -> [Double]? { entries[tag].flatMap { try? r.doubles($0) } }
    public func double(_ tag: TIFFTagID, in r: TIFFStructureReader) -> Double? { doubles(tag, in: r)?.first }
    public func string(_ tag: TIFFTagID, in r: TIFFStructureReader) -> String? { entries[tag].flatMap { try? r.string($0) } }
    public func bytes(_ tag: TIFFTagID, in r: TIFFStructureReader) -> [UInt8]? { entries[tag].flatMap { try? Array(r.rawBytes($0)) } }
}

/// Reads TIFF structures from a byte buffer, refusing anything that points outside it.
///
/// `origin` is the buffer position that offset 0 refers to: 0 for a TIFF file, the position of
/// "MM"/"II" for an EXIF block, the MakerNote's first byte for an Apple MakerNote.
///
/// ```swift
/// let r = try TIFFStructureReader(bytes: fileBytes)
/// for ifd in try r.tree() { print(ifd.uint(.imageWidth, in: r) ?? 0) }
/// ```
public struct TIFFStructureReader: Sendable {
    public let bytes: [UInt8]
    public let byteOrder: TIFFByteOrder
    public let origin: Int
    /// Offset of IFD0 (from the header), or the start given for a headerless chain.
    public let firstIFD: Int
    public let format: String
    /// At most this many IFDs are followed in one tree (hostile files chain thousands).
    public static let maxDirectories = 512
    /// At most this many entries per IFD.
    public static let maxEntries = 4096

    /// Parses the 8-byte header at `origin` ("II*\0" or "MM\0*"; BigTIFF is refused).
    public init(bytes: [UInt8], origin: Int = 0, format: String = "TIFF") throws(DaguerreError) {
        self.bytes = bytes
        self.origin = origin
        self.format = format
        guard origin >= 0, bytes.count >= origin + 8 else { throw .truncated(format: format, path: nil) }
        switch (bytes[origin], bytes[origin + 1]) {
        case (0x49, 0x49): byteOrder = .littleEndian
        case (0x4D, 0x4D): byteOrder = .bigEndian
        default: throw .corruptData(format: format, detail: "the byte-order mark is neither II nor MM", path: nil)
        }
        let magic = Self.read16(bytes, origin + 2, byteOrder)
        if magic == 43 { throw .unsupported(feature: "BigTIFF", hint: "Convert the file to classic TIFF or DNG.") }
        guard magic == 42 else { throw .corruptData(format: format, detail: "the TIFF magic number is \(magic), not 42", path: nil) }
        firstIFD = Int(Self.read32(bytes, origin + 4, byteOrder))
    }

    /// A headerless IFD chain (an Apple MakerNote): offsets count from `origin`, the first IFD is at `start`.
    public init(bytes: [UInt8], origin: Int, start: Int, byteOrder: TIFFByteOrder, format: String) {
        self.bytes = bytes
        self.origin = origin
        self.firstIFD = start
        self.byteOrder = byteOrder
        self.format = format
    }

    static func read16(_ b: [UInt8], _ p: Int, _ o: TIFFByteOrder) -> UInt16 {
        o == .bigEndian ? UInt16(b[p]) << 8 | UInt16(b[p + 1]) : UInt16(b[p + 1]) << 8 | UInt16(b[p])
    }
    static func read32(_ b: [UInt8], _ p: Int, _ o: TIFFByteOrder) -> UInt32 {
        o == .bigEndian
            ? UInt32(read16(b, p, o)) << 16 | UInt32(read16(b, p + 2, o))
            : UInt32(read16(b, p + 2, o)) << 16 | UInt32(read16(b, p, o))
    }
    func u16(_ p: Int) -> UInt16 { Self.read16(bytes, p, byteOrder) }
    func u32(_ p: Int) -> UInt32 { Self.read32(bytes, p, byteOrder) }

    /// Absolute buffer position of `offset` if `length` bytes fit there.
    func position(_ offset: Int, length: Int) throws(DaguerreError) -> Int {
        let (p, o1) = origin.addingReportingOverflow(offset)
        let (end, o2) = p.addingReportingOverflow(length)
        guard offset >= 0, length >= 0, !o1, !o2, end <= bytes.count else {
            throw .corruptData(format: format, detail: "an offset (\(offset), \(length) bytes) points past the end of the data", path: nil)
        }
        return p
    }

    /// Parses the IFD at `offset`; returns it and the offset of the next IFD (0 when none).
    public func directory(at offset: Int) throws(DaguerreError) -> (TIFFNode, Int) {
        let p = try position(offset, length: 2)
        let n = Int(u16(p))
        guard n <= Self.maxEntries else { throw .corruptData(format: format, detail: "an IFD claims \(n) entries", path: nil) }
        let table = try position(offset + 2, length: n * 12 + 4)
        var entries: [TIFFTagID: TIFFEntry] = [:]
        entries.reserveCapacity(n)
        for i in 0..<n {
            let e = table + 12 * i
            guard let type = TIFFFieldType(rawValue: u16(e + 2)) else { continue }  // unknown types are skipped (TIFF 6.0 §2)
            let count = Int(u32(e + 4))
            let (size, o) = count.multipliedReportingOverflow(by: type.size)
            guard !o else { throw .corruptData(format: format, detail: "tag \(u16(e)) claims \(count) values", path: nil) }
            let valuePosition = size <= 4 ? e + 8 : try position(Int(u32(e + 8)), length: size)
            let tag = TIFFTagID(u16(e))
            entries[tag] = TIFFEntry(tag: tag, type: type, count: count, position: valuePosition)
        }
        return (TIFFNode(offset: offset, entries: entries), Int(u32(table + n * 12)))
    }

    /// The IFD chain from IFD0, each with its EXIF, GPS, interoperability and SubIFD children.
    /// Loops (an IFD reached twice) are refused, and at most ``maxDirectories`` are read.
    public func tree() throws(DaguerreError) -> [TIFFNode] {
        var visited = Set<Int>()
        var out: [TIFFNode] = []
        var next = firstIFD
        while next != 0 {
            let (node, following) = try node(at: next, visited: &visited, depth: 0)
            out.append(node)
            next = following
        }
        return out
    }

    /// The tags whose values point to child IFDs (40965 is EXIF's interoperability IFD).
    static let pointerTags: [TIFFTagID] = [.subIFDs, .exifIFD, .gpsIFD, TIFFTagID(40965)]

    /// One IFD with its children (whose own next pointers are not followed), bounded in depth.
    private func node(at offset: Int, visited: inout Set<Int>, depth: Int) throws(DaguerreError) -> (TIFFNode, Int) {
        guard visited.insert(offset).inserted else { throw .corruptData(format: format, detail: "the IFDs form a loop", path: nil) }
        guard visited.count <= Self.maxDirectories else {
            throw .tooLarge(what: "\(format) IFD count", value: visited.count, limit: Self.maxDirectories)
        }
        var (node, following) = try directory(at: offset)
        guard depth < 4 else { return (node, following) }
        for tag in Self.pointerTags {
            guard let e = node.entries[tag], e.type == .long || e.type == .ifd else { continue }
            var kids: [TIFFNode] = []
            for o in try uints(e) where o != 0 { kids.append(try self.node(at: Int(o), visited: &visited, depth: depth + 1).0) }
            node.children[tag] = kids
        }
        return (node, following)
    }

    // MARK: Values

    /// The raw value bytes of `e`.
    public func rawBytes(_ e: TIFFEntry) throws(DaguerreError) -> ArraySlice<UInt8> {
        guard e.position >= 0, e.position + e.byteCount <= bytes.count else { throw .truncated(format: format, path: nil) }
        return bytes[e.position..<e.position + e.byteCount]
    }

    /// BYTE, SHORT, LONG (and IFD) values as unsigned integers.
    public func uints(_ e: TIFFEntry) throws(DaguerreError) -> [UInt32] {
        _ = try rawBytes(e)
        switch e.type {
        case .byte, .undefined: return (0..<e.count).map { UInt32(bytes[e.position + $0]) }
        case .short: return (0..<e.count).map { UInt32(u16(e.position + 2 * $0)) }
        case .long, .ifd: return (0..<e.count).map { u32(e.position + 4 * $0) }
        default: throw .corruptData(format: format, detail: "tag \(e.tag) has type \(e.type), not an unsigned integer", path: nil)
        }
    }

    /// Any numeric type as doubles (rationals divided out; x/0 reads as 0).
    public func doubles(_ e: TIFFEntry) throws(DaguerreError) -> [Double] {
        _ = try rawBytes(e)
        let p = e.position
        switch e.type {
        case .byte, .undefined: return (0..<e.count).map { Double(bytes[p + $0]) }
        case .sbyte: return (0..<e.count).map { Double(Int8(bitPattern: bytes[p + $0])) }
        case .short: return (0..<e.count).map { Double(u16(p + 2 * $0)) }
        case .sshort: return (0..<e.count).map { Double(Int16(bitPattern: u16(p + 2 * $0))) }
        case .long, .ifd: return (0..<e.count).map { Double(u32(p + 4 * $0)) }
        case .slong: return (0..<e.count).map { Double(Int32(bitPattern: u32(p + 4 * $0))) }
        case .rational: return (0..<e.count).map { TIFFRational(u32(p + 8 * $0), u32(p + 8 * $0 + 4)).doubleValue }
        case .srational:
            return (0..<e.count).map {
                TIFFSRational(Int32(bitPattern: u32(p + 8 * $0)), Int32(bitPattern: u32(p + 8 * $0 + 4))).doubleValue
            }
        case .float: return (0..<e.count).map { Double(Float(bitPattern: u32(p + 4 * $0))) }
        case .double:
            return (0..<e.count).map {
                let hi = UInt64(u32(p + 8 * $0))
                let lo = UInt64(u32(p + 8 * $0 + 4))
                return Double(bitPattern: byteOrder == .bigEndian ? hi << 32 | lo : lo << 32 | hi)
            }
        case .ascii: throw .corruptData(format: format, detail: "tag \(e.tag) is text, not a number", path: nil)
        }
    }

    /// ASCII (or UNDEFINED/BYTE text) up to the first NUL, decoded as UTF-8 where valid.
    public func string(_ e: TIFFEntry) throws(DaguerreError) -> String {
        let raw = try rawBytes(e)
        let text = raw.prefix { $0 != 0 }
        return String(decoding: text, as: UTF8.self).trimmingTrailingSpaces()
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
