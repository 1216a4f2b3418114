// Where a HEIC motion photo keeps its video: Samsung's `mpvd` box, or bytes after the last box.

/// The video of a HEIC motion photo, located by walking the file's top-level boxes (libheif
/// reads only the image items). Samsung writes the MP4 in an `mpvd` box after the HEIF boxes
/// (and Google's Motion Photo 1.0 HEICs likewise); older files append it after the last box.
/// The XMP's stated lengths are not always right, so the boxes decide.
///
/// ```swift
/// let file = try HEIFFile(path: "motion.heic")
/// if let video = file.motionPhotoVideo { print(video.range.count, video.inBox) }
/// ```
public struct HEIFMotionPhotoVideo: Sendable, Equatable {
    /// The video's bytes in the file.
    public var range: Range<Int>
    /// True for an `mpvd` box's payload, false for bytes after the last box.
    public var inBox: Bool

    public init(range: Range<Int>, inBox: Bool) {
        self.range = range
        self.inBox = inBox
    }

    /// The video in `bytes` (a whole HEIF file), or nil when there is none.
    public init?(locatingIn bytes: [UInt8]) {
        var at = 0
        var found: HEIFMotionPhotoVideo?
        while at + 8 <= bytes.count {
            let size32 = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let type = bytes[(at + 4)..<(at + 8)]
            guard type.allSatisfy({ (0x20...0x7E).contains($0) }) else { break }
            var header = 8
            var size = size32
            if size32 == 1 {
                guard at + 16 <= bytes.count else { break }
                size = bytes[(at + 8)..<(at + 16)].reduce(0) { $0 << 8 | Int($1) }
                header = 16
                guard size >= 0 else { break }
            } else if size32 == 0 {
                size = bytes.count - at
            }
            guard size >= header, size <= bytes.count - at else { break }
            if type.elementsEqual("mpvd".utf8), size > header {
                found = HEIFMotionPhotoVideo(range: (at + header)..<(at + size), inBox: true)
            }
            at += size
        }
        if found == nil, at > 0, at < bytes.count, bytes.count - at >= 8 {
            found = HEIFMotionPhotoVideo(range: at..<bytes.count, inBox: false)
        }
        guard let found else { return nil }
        self = found
    }
}
