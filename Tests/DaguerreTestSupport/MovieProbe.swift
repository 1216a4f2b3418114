import Foundation

/// ffprobe's view of a movie: the independent judge of what MovieRecorder, MovieFileOutput and
/// the Motion Photo writer produce (SPEC L2, L6, C2). One helper for every test target.
///
/// ```swift
/// let probe = try MovieProbe(path)
/// #expect(probe.video?["codec_name"] as? String == "h264")
/// #expect(probe.stream(ofType: "data")?["codec_tag_string"] as? String == "mebx")
/// ```
public struct MovieProbe {
    /// `-show_streams`, in file order.
    public let streams: [[String: Any]]
    /// `-show_format`.
    public let format: [String: Any]

    public init(_ path: String) throws {
        let out = try Judge.run("ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", path])
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
        streams = json["streams"] as? [[String: Any]] ?? []
        format = json["format"] as? [String: Any] ?? [:]
    }

    /// The first video stream, if any.
    public var video: [String: Any]? { stream(ofType: "video") }
    /// The first audio stream, if any.
    public var audio: [String: Any]? { stream(ofType: "audio") }

    /// The first stream whose codec_type is `type`: for the types without their own accessor
    /// ("data", a QuickTime metadata track).
    public func stream(ofType type: String) -> [String: Any]? {
        streams.first { $0["codec_type"] as? String == type }
    }
}
