// The QuickTime/MP4 part of `daguerre inspect`: what MovieReader finds.
import DaguerreFormats
import DaguerreMovie

enum QuickTimeInspection {
    /// nil when the file's first bytes are not a QuickTime/MP4 file's (no ftyp, moov, mdat, wide
    /// or free box first).
    static func report(header: [UInt8], path: String) throws -> [String: Any]? {
        guard header.count >= 8, ["ftyp", "moov", "mdat", "wide", "free"].contains(String(decoding: header[4..<8], as: UTF8.self)) else {
            return nil
        }
        let movie = try MovieReader(path: path)
        var out: [String: Any] = [
            "format": movie.fileType == .quickTimeMovie ? "QuickTime movie" : "MPEG-4",
            "majorBrand": movie.majorBrand.map { "\($0)" } ?? "none",
            "duration": movie.duration.seconds,
        ]
        out["tracks"] = movie.tracks.map { t -> [String: Any] in
            var d: [String: Any] = [
                "id": t.id, "kind": "\(t.mediaType)", "codec": "\(t.codec)", "samples": t.sampleCount,
                "duration": t.duration.seconds, "timescale": Int(t.timescale),
            ]
            if let w = t.width, let h = t.height {
                d["width"] = w
                d["height"] = h
            }
            if t.sampleCount > 1, t.duration.seconds > 0, t.mediaType == .video {
                d["frameRate"] = Double(t.sampleCount) / t.duration.seconds
            }
            if let r = t.sampleRate { d["sampleRate"] = r }
            if let c = t.channels { d["channels"] = c }
            if let c = t.colorProperties { d["colr"] = "\(c)" }
            if !t.timedMetadataKeys.isEmpty { d["timedMetadataKeys"] = t.timedMetadataKeys.map { $0.key.rawValue } }
            if !t.references.isEmpty { d["references"] = Dictionary(uniqueKeysWithValues: t.references.map { ("\($0.key)", $0.value) }) }
            return d
        }
        out["metadata"] = Dictionary(movie.metadata.map { ($0.key, $0.stringValue ?? "\($0.value)") }, uniquingKeysWith: { a, _ in a })
        if let still = try? movie.stillImageTime() { out["stillImageTime"] = still.seconds }
        if let id = movie.contentIdentifier { out["pairing"] = FileInspection.pairing(id: id, path: path, isStill: false) }
        return out
    }
}
