// Apple's MakerNote layout (as exiftool's Apple module documents it): "Apple iOS\0", a version
// word, "MM", then a big-endian IFD whose offsets count from the MakerNote's first byte.
// No library writes it, so it is ours (SPEC L3).

/// The Apple MakerNote, carrying the Live Photo content identifier at tag 0x0011.
///
/// iOS pairs a Live Photo's still and movie by this identifier: the JPEG's MakerNote tag 0x0011
/// (exiftool: Apple:MediaGroupUUID) equals the movie's com.apple.quicktime.content.identifier
/// (SPEC L3).
///
/// ```swift
/// let note = AppleMakerNote(contentIdentifier: id).encoded()   // EXIF MakerNote bytes
/// let back = AppleMakerNote(parsing: note)?.contentIdentifier
/// ```
public struct AppleMakerNote: Sendable, Equatable {
    public static let header: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1] + Array("MM".utf8)
    /// Tag 0x0001, MakerNoteVersion.
    public var version: Int32 = 11
    /// Tag 0x0011: the Live Photo pairing identifier.
    public var contentIdentifier: String?

    public init(contentIdentifier: String?) { self.contentIdentifier = contentIdentifier }

    public func encoded() -> [UInt8] {
        var d = TIFFDirectory()
        d[TIFFTagID(0x0001)] = .slongs([version])
        if let id = contentIdentifier { d[TIFFTagID(0x0011)] = .ascii(id) }
        return Self.header + TIFFSerializer.directories([d], byteOrder: .bigEndian, startOffset: Self.header.count)
    }

    /// Parses an Apple MakerNote; nil when the bytes are not one (another maker's note).
    public init?(parsing bytes: [UInt8]) {
        guard bytes.count > Self.header.count + 2, Array(bytes.prefix(9)) == Array(Self.header.prefix(9)) else { return nil }
        let order: TIFFByteOrder = bytes[12] == 0x49 ? .littleEndian : .bigEndian
        let reader = TIFFStructureReader(bytes: bytes, origin: 0, start: Self.header.count, byteOrder: order, format: "Apple MakerNote")
        guard let (node, _) = try? reader.directory(at: Self.header.count) else { return nil }
        contentIdentifier = node.string(TIFFTagID(0x0011), in: reader)
        if let v = node.doubles(TIFFTagID(0x0001), in: reader)?.first, v.isFinite, abs(v) < 1e9 { version = Int32(v) }
    }
}
