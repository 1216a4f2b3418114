// Reads QuickTime and MPEG-4 files: Daguerre's own box parser (MovieAtomParser, SampleTable)
// for structure and metadata; libavcodec only to decode H.264 and HEVC frames (VideoDecoder).
import DaguerreCore
import DaguerreFormats
import Foundation

/// Opens a QuickTime movie or MPEG-4 file and lists what it holds (AVAsset / AVAssetReader):
/// tracks with their formats and sample tables, movie metadata, timed metadata such as a Live
/// Photo's still-image time (SPEC L3, L4), sample bytes, and decoded video frames.
///
/// Safety (SPEC conventions: no input may crash the process): the top-level walk checks each box
/// against the file size (64-bit sizes and size 0 = "to the end" allowed); the movie atom is
/// read whole only when it is smaller than ``Options/maxMovieAtomBytes``; inside it every size
/// and count is checked against its parent before anything is allocated, nesting is bounded by
/// ``Options/maxBoxDepth``; a sample that lies outside the file is `.truncated` when read, so a
/// file whose media data was cut off (like exiftool's QuickTime.mov test file) still lists its
/// tracks and metadata.
///
/// Immutable after opening, and file reads use `pread`, so a reader is Sendable and can be used
/// from several threads; decoding creates its own decoder per call.
///
/// ```swift
/// let movie = try MovieReader(path: "IMG_0001.mov")
/// print(movie.contentIdentifier ?? "-", try movie.stillImageTime()?.seconds ?? .nan)
/// let video = movie.tracks.first { $0.mediaType == .video }!
/// let frames = try movie.decodeFrames(track: video.id, range: 0..<3)
/// ```
public final class MovieReader: Sendable {
    /// Bounds the reader keeps to, so hostile files are refused before they cost memory or time.
    public struct Options: Sendable, Hashable {
        /// Largest movie atom read into memory (64 MiB; a one-hour iPhone movie's is a few MB).
        public var maxMovieAtomBytes: Int
        /// Deepest atom nesting accepted.
        public var maxBoxDepth: Int
        /// Most samples in one track (2²⁷: 50 minutes of 44.1 kHz PCM, whose samples are frames).
        public var maxSamplesPerTrack: Int
        public var maxTracks: Int
        /// Largest single sample read.
        public var maxSampleBytes: Int
        /// Frame size limits for decoding.
        public var limits: Limits

        public init(
            maxMovieAtomBytes: Int = 64 << 20, maxBoxDepth: Int = 16, maxSamplesPerTrack: Int = 1 << 27,
            maxTracks: Int = 256, maxSampleBytes: Int = 256 << 20, limits: Limits = .default
        ) {
            self.maxMovieAtomBytes = maxMovieAtomBytes
            self.maxBoxDepth = maxBoxDepth
            self.maxSamplesPerTrack = maxSamplesPerTrack
            self.maxTracks = maxTracks
            self.maxSampleBytes = maxSampleBytes
            self.limits = limits
        }
    }

    public let options: Options
    /// The file read; nil for a movie in memory.
    public var path: String? { source.path }
    public var byteCount: Int { source.size }
    /// The `ftyp` major brand ('qt  ', 'mp42', 'isom', …); nil for old movies without `ftyp`.
    public let majorBrand: FourCC?
    public let compatibleBrands: [FourCC]
    public let movieTimescale: Int32
    public let duration: MediaTime
    /// When the movie was made (mvhd), or nil when the file does not say.
    public let creationDate: Date?
    public let tracks: [MovieTrack]
    /// Movie metadata: 'mdta' items, then user-data ('©xxx') and iTunes-style items.
    public let metadata: [MetadataItem]
    private let source: MovieByteSource

    /// Top-level atom types a QuickTime or MPEG-4 file may begin with.
    private static let knownTopLevel: Set<FourCC> = [
        "ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "uuid", "meta", "pdin", "styp", "sidx", "moof", "junk", "PICT",
    ]

    public convenience init(path: String, options: Options = Options()) throws(DaguerreError) {
        try self.init(source: MovieByteSource(path: path), options: options)
    }

    public convenience init(data: [UInt8], options: Options = Options()) throws(DaguerreError) {
        try self.init(source: MovieByteSource(bytes: data), options: options)
    }

    private init(source: MovieByteSource, options: Options) throws(DaguerreError) {
        self.source = source
        self.options = options
        do throws(DaguerreError) {
            let size = UInt64(source.size)
            guard size >= 8 else { throw DaguerreError.truncated(format: "QuickTime", path: source.path) }
            var offset: UInt64 = 0
            var ftyp: [UInt8]?
            var moov: [UInt8]?
            var moovHeaderSize = 8
            var boxes = 0
            while offset < size {
                boxes += 1
                guard boxes <= 1 << 16 else { throw DaguerreError.tooLarge(what: "Top-level atoms", value: boxes, limit: 1 << 16) }
                guard size - offset >= 8 else {
                    if moov != nil { break }  // a few stray bytes after a complete movie
                    throw DaguerreError.truncated(format: "QuickTime", path: source.path)
                }
                let head = try source.read(at: offset, count: Int(min(16, size - offset)))
                let size32 = ByteReader.load32(head, 0)
                let type = FourCC(ByteReader.load32(head, 4))
                if offset == 0, !MovieReader.knownTopLevel.contains(type) {
                    throw DaguerreError.corruptData(
                        format: "QuickTime", detail: "this is not a QuickTime or MPEG-4 file (it starts with '\(type)')", path: source.path)
                }
                let large: UInt64? =
                    size32 == 1 && head.count >= 16 ? UInt64(ByteReader.load32(head, 8)) << 32 | UInt64(ByteReader.load32(head, 12)) : nil
                // The same size rules as every nested box (BoxScanner): 64-bit sizes, size 0 to the end
                // of the file, sizes smaller than their header or past the end.
                let box: BoxHeader
                do {
                    box = try BoxScanner.parseHeader(
                        size32: size32, type: type, large: large, at: Int(offset), limit: Int(size),
                        parent: "file", truncatedAtEnd: true)
                } catch {
                    if moov != nil, case .truncated = error { break }  // media data cut short after the movie atom: samples past the end read as .truncated
                    throw source.path.map { error.at(path: $0) } ?? error
                }
                let headerSize = UInt64(box.headerSize)
                let boxSize = UInt64(box.end - box.start)
                switch type {
                case "ftyp" where ftyp == nil:
                    ftyp = try source.read(at: offset + headerSize, count: Int(min(boxSize - headerSize, 4096)))
                case "moov" where moov == nil:
                    guard boxSize <= UInt64(options.maxMovieAtomBytes) else {
                        throw DaguerreError.tooLarge(
                            what: "Movie atom ('moov') in bytes", value: Int(clamping: boxSize), limit: options.maxMovieAtomBytes)
                    }
                    moov = try source.read(at: offset, count: Int(boxSize))
                    moovHeaderSize = box.headerSize
                default: break
                }
                offset += boxSize
            }
            guard let moov else {
                throw DaguerreError.corruptData(format: "QuickTime", detail: "the file has no movie atom ('moov')", path: source.path)
            }
            if let ftyp, ftyp.count >= 8 {
                majorBrand = FourCC(ByteReader.load32(ftyp, 0))
                compatibleBrands = stride(from: 8, to: ftyp.count - 3, by: 4).map { FourCC(ByteReader.load32(ftyp, $0)) }
            } else {
                majorBrand = nil
                compatibleBrands = []
            }
            let header = BoxHeader(type: "moov", start: 0, headerSize: moovHeaderSize, end: moov.count)
            let movie = try MovieAtomParser(bytes: moov, options: options).parse(moov: header)
            movieTimescale = movie.timescale
            duration = MediaTime(value: movie.duration, timescale: movie.timescale)
            // QuickTime counts from 1904; anything past year 9999 is damage, not a date.
            creationDate =
                movie.creationTime == 0 || movie.creationTime > 253_402_300_799 + 2_082_844_800
                ? nil
                : Date(timeIntervalSince1970: Double(movie.creationTime) - 2_082_844_800)
            tracks = movie.tracks
            metadata = movie.metadata
        } catch {
            throw MovieReader.attachPath(error, source.path)
        }
    }

    /// Adds the file's path to errors raised where it was not known.
    private static func attachPath(_ error: DaguerreError, _ path: String?) -> DaguerreError {
        switch error {
        case .corruptData(let format, let detail, nil): return .corruptData(format: format, detail: detail, path: path)
        case .truncated(let format, nil): return .truncated(format: format, path: path)
        default: return error
        }
    }

    /// QuickTime or MPEG-4, from the major brand.
    public var fileType: MovieFileType { majorBrand == nil || majorBrand == "qt  " ? .quickTimeMovie : .mpeg4 }

    /// The Live Photo content identifier (L3), if the movie has one.
    public var contentIdentifier: String? {
        metadata.first { $0.keySpace == .quickTimeMetadata && $0.key == MetadataKey.contentIdentifier.rawValue }?.stringValue
    }

    public func track(id: Int) -> MovieTrack? { tracks.first { $0.id == id } }

    private func requireTrack(_ id: Int) throws(DaguerreError) -> MovieTrack {
        guard let t = track(id: id) else {
            throw .invalidArgument(what: "Track \(id)", problem: "the movie has tracks \(tracks.map(\.id))")
        }
        return t
    }

    /// The bytes of sample `index` of a track.
    public func sampleData(track id: Int, index: Int) throws(DaguerreError) -> [UInt8] {
        let t = try requireTrack(id)
        guard let s = t.sample(at: index) else {
            throw .invalidArgument(what: "Sample \(index) of track \(id)", problem: "the track has \(t.sampleCount) samples")
        }
        guard s.size <= options.maxSampleBytes else {
            throw .tooLarge(what: "Sample size in bytes", value: s.size, limit: options.maxSampleBytes)
        }
        guard let offset = s.offset else { throw .truncated(format: "QuickTime", path: source.path) }
        do {
            return try source.read(at: offset, count: s.size)
        } catch {
            throw MovieReader.attachPath(error, source.path)
        }
    }

    /// The bytes of samples `range` of a track, concatenated; adjacent samples are read together
    /// (a PCM track's thousands of one-frame samples in a few reads). At most
    /// ``Options/maxSampleBytes`` in total.
    public func sampleData(track id: Int, range: Range<Int>) throws(DaguerreError) -> [UInt8] {
        let t = try requireTrack(id)
        guard range.lowerBound >= 0, range.upperBound <= t.sampleCount else {
            throw .invalidArgument(what: "Samples \(range) of track \(id)", problem: "the track has \(t.sampleCount) samples")
        }
        var out: [UInt8] = []
        var runStart: UInt64 = 0
        var runLength = 0
        func flush() throws(DaguerreError) {
            guard runLength > 0 else { return }
            do { out += try source.read(at: runStart, count: runLength) } catch { throw MovieReader.attachPath(error, source.path) }
            runLength = 0
        }
        for i in range {
            guard let s = t.sample(at: i) else { break }
            guard let offset = s.offset else { throw .truncated(format: "QuickTime", path: source.path) }
            guard out.count + runLength + s.size <= options.maxSampleBytes else {
                throw .tooLarge(what: "Sample bytes requested", value: out.count + runLength + s.size, limit: options.maxSampleBytes)
            }
            if runLength > 0, runStart &+ UInt64(runLength) == offset {
                runLength += s.size
            } else {
                try flush()
                runStart = offset
                runLength = s.size
            }
        }
        try flush()
        return out
    }

    /// The interleaved 16-bit samples of an audio track: 16-bit PCM as stored ('sowt'
    /// little-endian, 'twos' big-endian, or a version-2 'lpcm' description of 16-bit signed
    /// integers, as iPhones write), or AAC ('mp4a') decoded by ``AACDecoder``.
    ///
    /// With `applyingEdits` (the default) the samples are those a player plays: the edit list
    /// picks the media each edit shows, so an AAC encoder's priming frames (Apple's 2112,
    /// FFmpeg's 1024), which the first edit starts after, are dropped, and so is media past the
    /// last edit (an iPhone 6s Live Photo's PCM runs 0.8 s past its movie). An empty edit before
    /// the first media edit is not filled: the samples begin at ``MovieTrack/startTime``; an
    /// empty edit between media edits becomes silence. Without an edit list, or with
    /// `applyingEdits` false, every media frame is returned, priming included.
    ///
    /// Refused with typed errors: other codecs, more than 8 channels, edits at rates other
    /// than 1, and more than ``Options/maxSamplesPerTrack`` frames in all.
    public func pcm16Samples(track id: Int, applyingEdits: Bool = true) throws(DaguerreError) -> [Int16] {
        let t = try requireTrack(id)
        guard t.mediaType == .audio else {
            throw .invalidArgument(what: "Track \(id) ('\(t.codec)')", problem: "it is not an audio track")
        }
        let media: [Int16]
        let channels: Int
        let rate: Int
        switch t.codec {
        case "mp4a":
            (media, channels, rate) = try aacSamples(t)
        case "sowt", "twos", "lpcm":
            channels = t.channels ?? 0
            let declared = t.sampleRate ?? 0
            rate = declared.isFinite && declared >= 1 && declared <= 1e6 ? Int(declared.rounded()) : 0
            guard (1...AACDecoder.maxChannels).contains(channels) else {
                throw .unsupported(feature: "Audio with \(channels) channels", hint: "1–\(AACDecoder.maxChannels) channels are read.")
            }
            // Core Audio format flags of 'lpcm': 1 float, 2 big-endian, 4 signed integer.
            let flags = t.audioFormatFlags ?? 0
            guard t.bitsPerSample == 16, t.codec != "lpcm" || (flags & 1 == 0 && flags & 4 != 0) else {
                throw .unsupported(
                    feature: "Reading '\(t.codec)' audio of \(t.bitsPerSample ?? 0) bits (flags \(flags)) as 16-bit PCM",
                    hint: "16-bit integer PCM ('sowt', 'twos', 'lpcm') and AAC ('mp4a') tracks are read.")
            }
            let bytes = try sampleData(track: id, range: 0..<t.sampleCount)
            let little = t.codec == "sowt" || (t.codec == "lpcm" && flags & 2 == 0)
            var out = [Int16](repeating: 0, count: bytes.count / 2)
            for i in 0..<out.count {
                let a = UInt16(bytes[2 * i])
                let b = UInt16(bytes[2 * i + 1])
                out[i] = Int16(bitPattern: little ? a | b << 8 : a << 8 | b)
            }
            media = out
        default:
            throw .unsupported(
                feature: "Reading '\(t.codec)' audio as 16-bit PCM",
                hint: "16-bit integer PCM ('sowt', 'twos', 'lpcm') and AAC ('mp4a') tracks are read.")
        }
        guard applyingEdits, !t.edits.isEmpty else { return media }
        guard rate > 0 else {
            throw .corruptData(format: "QuickTime", detail: "audio track \(t.id) declares no sample rate", path: source.path)
        }
        return try applyEdits(of: t, to: media, channels: channels, rate: rate)
    }

    /// Decodes every access unit of an AAC track, in order: (interleaved samples, channels, rate).
    private func aacSamples(_ t: MovieTrack) throws(DaguerreError) -> ([Int16], Int, Int) {
        guard let config = t.audioSpecificConfig else {
            throw .corruptData(
                format: "QuickTime", detail: "AAC track \(t.id) has no decoder configuration ('esds' AudioSpecificConfig)",
                path: source.path)
        }
        let decoder = try AACDecoder(audioSpecificConfig: config)
        let limit = options.maxSamplesPerTrack * decoder.channels
        var out: [Int16] = []
        for i in 0..<t.sampleCount {
            out += try decoder.decode(try sampleData(track: t.id, index: i))
            guard out.count <= limit else {
                throw .tooLarge(
                    what: "Decoded audio frames in track \(t.id)", value: out.count / decoder.channels, limit: options.maxSamplesPerTrack)
            }
        }
        out += try decoder.flush()
        return (out, decoder.channels, decoder.sampleRate)
    }

    /// The frames the edit list shows, in order (see ``pcm16Samples(track:applyingEdits:)``);
    /// `rate` is the media's frames per second, so edits in the movie and media timescales
    /// become frame counts.
    private func applyEdits(of t: MovieTrack, to media: [Int16], channels: Int, rate: Int) throws(DaguerreError) -> [Int16] {
        let mediaFrames = media.count / channels
        let frameScale = Int32(clamping: rate)
        var out: [Int16] = []
        var started = false
        func room(for frames: Int) throws(DaguerreError) {
            guard out.count / channels + frames <= options.maxSamplesPerTrack else {
                throw .tooLarge(
                    what: "Audio frames in track \(t.id)'s edits", value: out.count / channels + frames, limit: options.maxSamplesPerTrack)
            }
        }
        for e in t.edits {
            let frames = Int(clamping: MediaTime(value: max(0, e.duration), timescale: t.movieTimescale).converted(to: frameScale).value)
            guard e.mediaTime >= 0 else {
                // An empty edit after the sound has begun is silence; before, it is the track's start time.
                if started {
                    try room(for: frames)
                    out.append(contentsOf: repeatElement(0, count: frames * channels))
                }
                continue
            }
            guard e.rate == 1 else {
                throw .unsupported(
                    feature: "Audio edits played at rate \(e.rate) (track \(t.id))",
                    hint: "Only edits at the normal rate are applied; pass applyingEdits: false for the media as stored.")
            }
            started = true
            let first = Int(clamping: MediaTime(value: e.mediaTime, timescale: t.timescale).converted(to: frameScale).value)
            guard first < mediaFrames else { continue }
            let last = first + min(mediaFrames - first, frames)
            try room(for: last - first)
            out += media[(first * channels)..<(last * channels)]
        }
        return out
    }

    /// The decoded samples of a timed metadata ('mebx') track, at their movie times.
    public func timedMetadata(track id: Int) throws(DaguerreError) -> [TimedMetadataGroup] {
        let t = try requireTrack(id)
        guard t.codec == "mebx" else {
            throw .invalidArgument(what: "Track \(id) ('\(t.codec)')", problem: "it is not a timed metadata ('mebx') track")
        }
        let keys = Dictionary(t.timedMetadataKeys.map { ($0.localID, $0) }, uniquingKeysWith: { a, _ in a })
        var groups: [TimedMetadataGroup] = []
        var total = 0
        for i in 0..<min(t.sampleCount, 1 << 16) {
            guard let s = t.sample(at: i) else { break }
            // Bounded work: all samples together at most maxSampleBytes (hostile tables can point
            // thousands of samples at the same bytes).
            total += s.size
            guard total <= options.maxSampleBytes else {
                throw .tooLarge(what: "Timed metadata bytes in track \(id)", value: total, limit: options.maxSampleBytes)
            }
            let bytes = try sampleData(track: id, index: i)
            var items: [MetadataItem] = []
            for box in try BoxScanner.boxes(in: bytes, range: 0..<bytes.count, parent: "mebx sample") {
                guard let key = keys[box.type.rawValue] else { continue }
                let value = Array(bytes[box.bodyStart..<box.end])
                items.append(
                    MetadataItem(
                        keySpace: .quickTimeMetadata, key: key.key.rawValue,
                        value: MetadataItem.decodeValue(value, type: key.dataType), dataType: key.dataType))
            }
            guard let time = t.presentationTime(ofMediaTime: s.presentationTime) else { continue }
            groups.append(TimedMetadataGroup(time: time, duration: MediaTime(value: s.duration, timescale: t.timescale), items: items))
        }
        return groups
    }

    /// The Live Photo still's time (L4): when the still-image-time item of a timed metadata track
    /// plays on the movie timeline (its edit list applied); nil when the movie has none.
    public func stillImageTime() throws(DaguerreError) -> MediaTime? {
        for t in tracks where t.codec == "mebx" && t.timedMetadataKeys.contains(where: { $0.key == .stillImageTime }) {
            for group in try timedMetadata(track: t.id) where group.items.contains(where: { $0.key == MetadataKey.stillImageTime.rawValue })
            {
                return group.time
            }
        }
        return nil
    }

    /// Decodes the video frames whose presentation order falls in `range` and calls `body` with
    /// each (index, frame), in order. Decoding starts at the sync sample before the range. With
    /// `scale` below 1 the frames are shrunk as they are converted to RGB (``VideoDecoder``).
    public func decodeFrames(
        track id: Int, range: Range<Int>, scale: Double = 1, _ body: (Int, PixelBuffer) throws(DaguerreError) -> Void
    ) throws(DaguerreError) {
        let t = try requireTrack(id)
        guard t.mediaType == .video, let config = t.decoderConfiguration else {
            throw .unsupported(
                feature: "Decoding '\(t.codec)' video",
                hint: "Only H.264 ('avc1' with avcC) and HEVC ('hvc1'/'hev1' with hvcC) tracks are decoded.")
        }
        guard range.lowerBound >= 0, range.upperBound <= t.sampleCount else {
            throw .invalidArgument(what: "Frames \(range) of track \(id)", problem: "the track has \(t.sampleCount) frames")
        }
        guard !range.isEmpty else { return }
        // Presentation order: decode order unless composition offsets reorder the samples.
        let wanted: [MovieSample]
        if t.sampleTable.cttsOffset.contains(where: { $0 != 0 }) {
            guard t.sampleCount <= 1 << 22 else {
                throw .tooLarge(what: "Frames in a reordered video track", value: t.sampleCount, limit: 1 << 22)
            }
            let order = (0..<t.sampleCount).compactMap { t.sample(at: $0) }
                .sorted { ($0.presentationTime, $0.index) < ($1.presentationTime, $1.index) }
            guard order.count == t.sampleCount else {
                throw .corruptData(format: "QuickTime", detail: "track \(id)'s sample table is inconsistent", path: source.path)
            }
            wanted = Array(order[range])
        } else {
            wanted = range.compactMap { t.sample(at: $0) }
        }
        var rankOfTime: [Int64: Int] = [:]
        for (k, s) in zip(range, wanted) { rankOfTime[s.presentationTime] = k }
        let firstDecode = wanted.map(\.index).min() ?? 0
        let lastDecode = wanted.map(\.index).max() ?? 0
        let decoder = try VideoDecoder(configuration: config, colorProperties: t.colorProperties, limits: options.limits, scale: scale)
        var pendingOut: [(Int, PixelBuffer)] = []
        func deliver(_ frames: [(time: Int64, frame: PixelBuffer)]) {
            for f in frames { if let k = rankOfTime[f.time] { pendingOut.append((k, f.frame)) } }
        }
        for i in t.sampleTable.syncSample(atOrBefore: firstDecode)...lastDecode {
            guard let s = t.sample(at: i) else { break }
            deliver(try decoder.decode(try sampleData(track: id, index: i), presentationTime: s.presentationTime))
            // Hand frames over as soon as they are out, so a long range does not pile up in memory.
            pendingOut.sort { $0.0 < $1.0 }
            for (k, f) in pendingOut { try body(k, f) }
            pendingOut.removeAll()
        }
        deliver(try decoder.flush())
        pendingOut.sort { $0.0 < $1.0 }
        for (k, f) in pendingOut { try body(k, f) }
    }

    /// The decoded frames whose presentation order falls in `range` (RGBA8, or RGBA16 for 10-
    /// and 12-bit HEVC; see ``VideoDecoder``), tagged with the
    /// track's colour space). Each 1440×1080 frame takes 6 MB; use the callback form for long ranges.
    public func decodeFrames(track id: Int, range: Range<Int>) throws(DaguerreError) -> [PixelBuffer] {
        var frames: [(Int, PixelBuffer)] = []
        try decodeFrames(track: id, range: range) { (k, f) throws(DaguerreError) in frames.append((k, f)) }
        return frames.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
