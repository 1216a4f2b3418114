// Parses a movie atom ('moov') into tracks and metadata items. Daguerre's own box layer (no
// library parses here): every size and count is checked against the bytes that hold it.
import DaguerreCore
import DaguerreFormats

/// Reads `moov` and everything in it that Daguerre uses: `mvhd`; each `trak` (`tkhd`, `edts`,
/// `tref`, `mdia`/`mdhd`/`hdlr`, `minf`/`stbl`: `stsd` with the first sample description and its
/// `avcC`/`colr`/`pasp` or sound fields or `mebx` key table, and the sample tables); movie
/// metadata in `meta` (QuickTime 'mdta' keys + `ilst`) and `udta` (old '©xxx' text atoms and the
/// iTunes-style `meta`/`ilst`).
///
/// Nesting deeper than ``MovieReader/Options/maxBoxDepth`` and more tracks than
/// ``MovieReader/Options/maxTracks`` are refused; unknown atoms are skipped.
///
/// ```swift
/// let movie = try MovieAtomParser(bytes: moovBytes, options: .init()).parse(moov: header)
/// ```
struct MovieAtomParser {
    let bytes: [UInt8]
    let options: MovieReader.Options

    struct Movie {
        var timescale: Int32
        var duration: Int64
        /// Seconds since 1904-01-01 (QuickTime's epoch); 0 when unknown.
        var creationTime: UInt64 = 0
        var tracks: [MovieTrack]
        var metadata: [MetadataItem]
    }

    private func corrupt(_ detail: String) -> DaguerreError {
        .corruptData(format: "QuickTime", detail: detail, path: nil)
    }

    private func children(_ box: BoxHeader, skip: Int = 0, depth: Int) throws(DaguerreError) -> [BoxHeader] {
        guard depth <= options.maxBoxDepth else {
            throw corrupt("atoms are nested deeper than \(options.maxBoxDepth) levels at '\(box.type)'")
        }
        let start = box.bodyStart + skip
        guard start <= box.end else { throw corrupt("the '\(box.type)' atom is too short") }
        return try BoxScanner.boxes(in: bytes, range: start..<box.end, parent: box.type.description)
    }

    private func reader(_ box: BoxHeader, skip: Int = 0) -> ByteReader {
        ByteReader(bytes, range: (box.bodyStart + skip)..<box.end, context: box.type.description)
    }

    func parse(moov: BoxHeader) throws(DaguerreError) -> Movie {
        let kids = try children(moov, depth: 1)
        guard let mvhd = kids.first(where: { $0.type == "mvhd" }) else { throw corrupt("the movie atom has no 'mvhd' header") }
        var r = reader(mvhd)
        let version = try r.u8()
        try r.skip(3)
        let timescale: UInt32
        let duration: Int64
        let created: UInt64
        if version == 1 {
            created = try r.u64()
            try r.skip(8)
            timescale = try r.u32()
            duration = Int64(bitPattern: try r.u64())
        } else {
            created = UInt64(try r.u32())
            try r.skip(4)
            timescale = try r.u32()
            duration = Int64(try r.u32())
        }
        guard timescale > 0, timescale <= UInt32(Int32.max) else { throw corrupt("the movie timescale is \(timescale)") }
        var movie = Movie(timescale: Int32(timescale), duration: duration, creationTime: created, tracks: [], metadata: [])
        for box in kids {
            switch box.type {
            case "trak":
                guard movie.tracks.count < options.maxTracks else {
                    throw .tooLarge(what: "Tracks in the movie", value: movie.tracks.count + 1, limit: options.maxTracks)
                }
                if let t = try parseTrack(box, movieTimescale: Int32(timescale), depth: 2) { movie.tracks.append(t) }
            case "meta":
                movie.metadata += try parseMeta(box, depth: 2)
            case "udta":
                movie.metadata += try parseUserData(box, depth: 2)
            default: break
            }
        }
        return movie
    }

    // MARK: - Tracks

    private func parseTrack(_ trak: BoxHeader, movieTimescale: Int32, depth: Int) throws(DaguerreError) -> MovieTrack? {
        let kids = try children(trak, depth: depth)
        guard let tkhd = kids.first(where: { $0.type == "tkhd" }), let mdia = kids.first(where: { $0.type == "mdia" }) else {
            return nil  // a track without header or media describes nothing to read
        }
        var r = reader(tkhd)
        let version = try r.u8()
        let flags = try r.u24()
        let id: UInt32
        let duration: Int64
        if version == 1 {
            try r.skip(16)
            id = try r.u32()
            try r.skip(4)
            duration = Int64(bitPattern: try r.u64())
        } else {
            try r.skip(8)
            id = try r.u32()
            try r.skip(4)
            duration = Int64(try r.u32())
        }
        try r.skip(8 + 8)  // reserved; layer, alternate group, volume, reserved
        var matrix: [Int32] = []
        for _ in 0..<9 { matrix.append(try r.i32("track matrix")) }
        let dw = Double(try r.u32()) / 65536
        let dh = Double(try r.u32()) / 65536

        var edits: [MovieTrack.Edit] = []
        if let edts = kids.first(where: { $0.type == "edts" }),
            let elst = try children(edts, depth: depth + 1).first(where: { $0.type == "elst" })
        {
            var e = reader(elst)
            let v = try e.u8()
            try e.skip(3)
            let n = Int(try e.u32())
            guard n <= e.remaining / (v == 1 ? 20 : 12) else { throw corrupt("'elst' lists \(n) edits in \(e.remaining) bytes") }
            for _ in 0..<n {
                let d: Int64
                let m: Int64
                if v == 1 {
                    d = Int64(bitPattern: try e.u64())
                    m = Int64(bitPattern: try e.u64())
                } else {
                    d = Int64(try e.u32())
                    m = Int64(try e.i32())
                }
                let rate = Double(try e.i16()) + Double(try e.u16()) / 65536
                edits.append(MovieTrack.Edit(duration: d, mediaTime: m, rate: rate))
            }
        }
        var references: [FourCC: [Int]] = [:]
        if let tref = kids.first(where: { $0.type == "tref" }) {
            for ref in try children(tref, depth: depth + 1) {
                var rr = reader(ref)
                var ids: [Int] = []
                while rr.remaining >= 4 { ids.append(Int(try rr.u32())) }
                references[ref.type, default: []] += ids
            }
        }

        let mkids = try children(mdia, depth: depth + 1)
        guard let mdhd = mkids.first(where: { $0.type == "mdhd" }) else { throw corrupt("track \(id) has no media header 'mdhd'") }
        var m = reader(mdhd)
        let mv = try m.u8()
        try m.skip(3)
        let mts: UInt32
        let mdur: Int64
        if mv == 1 {
            try m.skip(16)
            mts = try m.u32()
            mdur = Int64(bitPattern: try m.u64())
        } else {
            try m.skip(8)
            mts = try m.u32()
            mdur = Int64(try m.u32())
        }
        let lang = try m.u16()
        guard mts > 0, mts <= UInt32(Int32.max) else { throw corrupt("track \(id) has media timescale \(mts)") }
        var handler: FourCC = "    "
        if let hdlr = mkids.first(where: { $0.type == "hdlr" }) {
            var h = reader(hdlr)
            try h.skip(8)
            handler = try h.fourCC("handler type")
        }
        var track = MovieTrack(
            id: Int(id), mediaType: MediaType(handler: handler), handler: handler, codec: "    ",
            width: nil, height: nil, displayWidth: dw, displayHeight: dh, transform: TrackTransform(fixedPoint: matrix),
            enabled: flags & 1 != 0,
            timescale: Int32(mts), mediaDuration: MediaTime(value: mdur, timescale: Int32(mts)),
            duration: MediaTime(value: duration, timescale: movieTimescale), language: Self.language(lang),
            edits: edits, references: references, colorProperties: nil, decoderConfiguration: nil,
            sampleRate: nil, channels: nil, bitsPerSample: nil, audioSpecificConfig: nil, audioFormatFlags: nil, timedMetadataKeys: [],
            sampleTable: .empty, movieTimescale: movieTimescale)
        if let minf = mkids.first(where: { $0.type == "minf" }),
            let stbl = try children(minf, depth: depth + 2).first(where: { $0.type == "stbl" })
        {
            let skids = try children(stbl, depth: depth + 3)
            if let stsd = skids.first(where: { $0.type == "stsd" }) {
                try parseSampleDescription(stsd, into: &track, depth: depth + 4)
            }
            track.sampleTable = try SampleTable(children: skids, in: bytes, maxSamples: options.maxSamplesPerTrack)
        }
        return track
    }

    /// ISO 639-2/T packed in 15 bits (≥ 0x400), or nil for Macintosh codes.
    static func language(_ code: UInt16) -> String? {
        guard code >= 0x400, code != 0x7FFF else { return nil }
        let chars = [(code >> 10) & 31, (code >> 5) & 31, code & 31].map { Character(Unicode.Scalar(UInt8($0 + 0x60))) }
        return String(chars)
    }

    private func parseSampleDescription(_ stsd: BoxHeader, into track: inout MovieTrack, depth: Int) throws(DaguerreError) {
        var r = reader(stsd)
        try r.skip(4)
        let count = try r.u32()
        guard count > 0 else { return }
        let entries = try children(stsd, skip: 8, depth: depth)
        guard let entry = entries.first else { return }
        track.codec = entry.type
        let body = entry.bodyStart
        switch track.mediaType {
        case .video:
            var e = reader(entry)
            try e.skip(24)
            track.width = Int(try e.u16())
            track.height = Int(try e.u16())
            guard entry.end - body >= 78 else { return }
            for child in try BoxScanner.boxes(in: bytes, range: (body + 78)..<entry.end, parent: entry.type.description) {
                switch child.type {
                case "avcC", "hvcC":
                    if let config = try VideoDecoderConfiguration.parse(
                        box: child.type, in: entry.type, body: Array(bytes[child.bodyStart..<child.end]))
                    {
                        track.decoderConfiguration = config
                    }
                case "colr":
                    var c = reader(child)
                    let kind = try c.fourCC()
                    if kind == "nclx" || kind == "nclc" {
                        let p = try c.u16()
                        let t = try c.u16()
                        let mx = try c.u16()
                        let full = kind == "nclx" && c.remaining >= 1 ? (try c.u8()) & 0x80 != 0 : false
                        track.colorProperties = VideoColorProperties(primaries: p, transfer: t, matrix: mx, fullRange: full)
                    }
                default: break
                }
            }
        case .audio:
            var e = reader(entry)
            try e.skip(8)
            let version = try e.u16()
            try e.skip(6)
            track.channels = Int(try e.u16())
            track.bitsPerSample = Int(try e.u16())
            try e.skip(4)
            track.sampleRate = Double(try e.u32()) / 65536
            if version == 2 {
                try e.skip(4)
                let rate = Double(bitPattern: try e.u64())
                track.sampleRate = rate.isFinite ? rate : nil
                track.channels = Int(try e.u32())
                try e.skip(4)
                track.bitsPerSample = Int(try e.u32())
                let formatFlags = try e.u32()
                if entry.type == "lpcm" { track.audioFormatFlags = formatFlags }
            }
            // Extension atoms follow the version's fixed fields (QuickTime File Format, "Sound
            // sample description" versions 0, 1 and 2): 'esds' directly (MPEG-4 files) or in a
            // 'wave' atom (QuickTime movies, as iPhones write them).
            let fixed = version == 2 ? 64 : version == 1 ? 44 : 28
            if entry.type == "mp4a", entry.end - body > fixed {
                track.audioSpecificConfig = try audioSpecificConfig(in: (body + fixed)..<entry.end, depth: depth + 1)
            }
        case .metadata:
            guard entry.type == "mebx", entry.end - body >= 8 else { return }
            for child in try BoxScanner.boxes(in: bytes, range: (body + 8)..<entry.end, parent: "mebx") where child.type == "keys" {
                for keyBox in try children(child, depth: depth + 2) {
                    var key: String?
                    var namespace: FourCC = "mdta"
                    var dataType: UInt32 = 0
                    for part in try children(keyBox, depth: depth + 3) {
                        var p = reader(part)
                        if part.type == "keyd" {
                            namespace = try p.fourCC()
                            key = String(decoding: p.rest(), as: UTF8.self)
                        } else if part.type == "dtyp" {
                            if try p.u32() == 0, p.remaining >= 4 { dataType = try p.u32() }
                        }
                    }
                    if let key {
                        track.timedMetadataKeys.append(
                            TimedMetadataKey(
                                localID: keyBox.type.rawValue, key: MetadataKey(rawValue: key),
                                namespace: namespace, dataType: dataType))
                    }
                }
            }
        default: break
        }
    }

    /// The DecoderSpecificInfo of the first `esds` atom in `range` or in a `wave` atom there;
    /// nil when there is none. Atoms that do not parse leave it nil rather than failing the
    /// movie: the audio is then reported undecodable when it is decoded.
    private func audioSpecificConfig(in range: Range<Int>, depth: Int) throws(DaguerreError) -> [UInt8]? {
        guard depth <= options.maxBoxDepth, let atoms = try? BoxScanner.boxes(in: bytes, range: range, parent: "mp4a") else { return nil }
        for atom in atoms {
            if atom.type == "esds" {
                var r = reader(atom)
                guard (try? r.skip(4)) != nil else { return nil }  // version, flags
                return Self.decoderSpecificInfo(&r)
            }
            if atom.type == "wave", let inner = try audioSpecificConfig(in: atom.bodyStart..<atom.end, depth: depth + 1) {
                return inner
            }
        }
        return nil
    }

    /// Walks an ES_Descriptor (ISO 14496-1 §7.2.6.5: tag 3, then flags and optional fields) to
    /// its DecoderConfigDescriptor (tag 4, 13 bytes of fields) and returns the body of the
    /// DecoderSpecificInfo (tag 5) in it.
    static func decoderSpecificInfo(_ r: inout ByteReader) -> [UInt8]? {
        /// A descriptor header: tag, then a size of up to four 7-bit groups.
        func header(_ r: inout ByteReader) -> (tag: UInt8, size: Int)? {
            guard let tag = try? r.u8() else { return nil }
            var size = 0
            for _ in 0..<4 {
                guard let byte = try? r.u8() else { return nil }
                size = size << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { return size <= r.remaining ? (tag, size) : nil }
            }
            return nil
        }
        guard var top = header(&r) else { return nil }
        if top.tag == 0x03 {
            guard (try? r.skip(2)) != nil, let flags = try? r.u8() else { return nil }  // ES_ID, flags
            if flags & 0x80 != 0 { guard (try? r.skip(2)) != nil else { return nil } }  // dependsOn_ES_ID
            if flags & 0x40 != 0 {  // URL
                guard let n = try? r.u8(), (try? r.skip(Int(n))) != nil else { return nil }
            }
            if flags & 0x20 != 0 { guard (try? r.skip(2)) != nil else { return nil } }  // OCR_ES_Id
            guard let next = header(&r) else { return nil }
            top = next
        }
        guard top.tag == 0x04, top.size >= 13, (try? r.skip(13)) != nil else { return nil }
        let end = r.position + top.size - 13
        while r.position < end, let inner = header(&r) {
            if inner.tag == 0x05 { return try? r.read(inner.size, "DecoderSpecificInfo") }
            guard (try? r.skip(inner.size)) != nil else { return nil }
        }
        return nil
    }

    // MARK: - Metadata

    /// A `meta` atom: QuickTime's is a plain atom starting with `hdlr`, ISO's a full box.
    private func parseMeta(_ meta: BoxHeader, depth: Int) throws(DaguerreError) -> [MetadataItem] {
        let body = meta.bodyStart
        var skip = 0
        if meta.end - body >= 12, ByteReader.load32(bytes, body + 4) != FourCC("hdlr").rawValue,
            ByteReader.load32(bytes, body + 8) == FourCC("hdlr").rawValue || ByteReader.load32(bytes, body) == 0
        {
            skip = 4
        }
        let kids = try children(meta, skip: skip, depth: depth)
        var handler: FourCC = "    "
        if let hdlr = kids.first(where: { $0.type == "hdlr" }) {
            var h = reader(hdlr)
            try h.skip(8)
            handler = try h.fourCC()
        }
        var keys: [String] = []
        if handler == "mdta", let kb = kids.first(where: { $0.type == "keys" }) {
            var k = reader(kb)
            try k.skip(4)
            let n = Int(try k.u32())
            guard n <= k.remaining / 8 else { throw corrupt("'keys' lists \(n) keys in \(k.remaining) bytes") }
            for _ in 0..<n {
                let size = Int(try k.u32())
                guard size >= 8 else { throw corrupt("a metadata key declares \(size) bytes") }
                try k.skip(4)  // namespace
                keys.append(String(decoding: try k.read(size - 8, "key"), as: UTF8.self))
            }
        }
        guard let ilst = kids.first(where: { $0.type == "ilst" }) else { return [] }
        var items: [MetadataItem] = []
        for item in try children(ilst, depth: depth + 1) {
            let parts = try children(item, depth: depth + 2)
            let key: String
            let space: MetadataItem.KeySpace
            if handler == "mdta" {
                let index = Int(item.type.rawValue)
                guard index >= 1, index <= keys.count else { continue }  // an item for no key: skipped
                key = keys[index - 1]
                space = .quickTimeMetadata
            } else if item.type == "----", let name = parts.first(where: { $0.type == "name" }) {
                var n = reader(name)
                try n.skip(4)
                key = String(decoding: n.rest(), as: UTF8.self)
                space = .iTunes
            } else {
                key = item.type.description
                space = .iTunes
            }
            for data in parts where data.type == "data" {
                var d = reader(data)
                let type = try d.u32() & 0x00FF_FFFF
                let locale = try d.u32()
                items.append(
                    MetadataItem(
                        keySpace: space, key: key, value: MetadataItem.decodeValue(d.rest(), type: type),
                        dataType: type, locale: locale))
            }
        }
        return items
    }

    /// `udta`: '©xxx' text atoms (a list of size, language, text) and a nested `meta`.
    private func parseUserData(_ udta: BoxHeader, depth: Int) throws(DaguerreError) -> [MetadataItem] {
        var items: [MetadataItem] = []
        for child in try children(udta, depth: depth) {
            if child.type == "meta" {
                items += try parseMeta(child, depth: depth + 1)
                continue
            }
            guard child.type.rawValue >> 24 == 0xA9 else { continue }
            let body = child.bodyStart
            if child.end - body >= 8, ByteReader.load32(bytes, body + 4) == FourCC("data").rawValue {
                // iTunes-style: the value in a 'data' atom.
                guard let data = try? BoxScanner.boxes(in: bytes, range: body..<child.end, parent: child.type.description).first else {
                    continue
                }
                var d = reader(data)
                let type = try d.u32() & 0x00FF_FFFF
                try d.skip(4)
                items.append(
                    MetadataItem(
                        keySpace: .quickTimeUserData, key: child.type.description,
                        value: MetadataItem.decodeValue(d.rest(), type: type), dataType: type))
                continue
            }
            var r = reader(child)
            guard r.remaining >= 4 else { continue }
            let size = Int(try r.u16())
            let language = try r.u16()
            guard size <= r.remaining else { continue }  // not a text list: skipped
            let text = try r.read(size)
            // Language codes below 0x400 are Macintosh codes, whose text is Mac Roman.
            let value =
                language < 0x400 && !text.allSatisfy({ $0 < 0x80 })
                ? MacRoman.decode(text)
                : String(decoding: text, as: UTF8.self)
            items.append(MetadataItem(keySpace: .quickTimeUserData, key: child.type.description, value: .string(value)))
        }
        return items
    }
}
