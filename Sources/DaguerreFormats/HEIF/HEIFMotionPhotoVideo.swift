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
        let (boxes, end) = TopLevelBoxes.walk(bytes)
        if let box = boxes.last(where: { $0.type == "mpvd" && $0.range.upperBound > $0.bodyStart }) {
            self.init(range: box.bodyStart..<box.range.upperBound, inBox: true)
        } else if end > 0, end < bytes.count, bytes.count - end >= 8 {
            self.init(range: end..<bytes.count, inBox: false)
        } else {
            return nil
        }
    }
}
