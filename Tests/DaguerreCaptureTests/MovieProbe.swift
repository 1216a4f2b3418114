import DaguerreTestSupport
import Foundation

/// ffprobe's view of a movie (the independent judge of what MovieFileOutput writes).
struct MovieProbe {
    let streams: [[String: Any]]
    let format: [String: Any]

    init(_ path: String) throws {
        let out = try Judge.run("ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", path])
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
        streams = json["streams"] as? [[String: Any]] ?? []
        format = json["format"] as? [String: Any] ?? [:]
    }

    var video: [String: Any] { streams.first { $0["codec_type"] as? String == "video" } ?? [:] }
    var audio: [String: Any]? { streams.first { $0["codec_type"] as? String == "audio" } }
}
