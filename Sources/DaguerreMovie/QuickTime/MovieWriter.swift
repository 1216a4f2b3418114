// QuickTime / MPEG-4 container writer. Written by hand because no library here does it: FFmpeg
// 5.1's libavformat cannot write Apple's 'mebx' timed-metadata track (TOOLCHAIN.md), which a
// Live Photo movie needs (SPEC L4). Byte layouts follow Apple's QuickTime File Format and
// ISO/IEC 14496-12/14/15.
import DaguerreCore
import DaguerreFormats
import Foundation

/// Writes a QuickTime movie or MPEG-4 file from already-encoded samples: the low-level layer
/// under ``MovieRecorder`` (AVAssetWriter's role without the encoding).
///
/// Layout: `ftyp` ('qt  ' or 'mp42'/'isom'), a `wide`/`free` placeholder, then `mdat` streamed as
/// samples arrive (rewritten with a 64-bit size at the end if it passes 4 GiB), then `moov`
/// built from the accumulated sample tables. Consecutive samples of one track form a chunk, so
/// tracks interleave in the order the caller appends. Files are written through
/// ``AtomicFile``: nothing appears at the destination until ``finish()`` succeeds, and
/// ``cancel()`` leaves nothing behind.
///
/// Tracks: H.264 video (``VideoTrackFormat``, with its display matrix), 16-bit PCM or AAC audio (``AudioTrackFormat``),
/// timed metadata (``TimedMetadataTrackFormat``, the Live Photo still-image-time track of L4,
/// with a 'cdsc' reference to the video it describes). Movie-level ``metadata`` goes into
/// `moov/meta` ('mdta' keys, L3 and L6). Each track can start later than the movie through an
/// empty edit (``setEdit(of:startTime:mediaStart:mediaDuration:)``).
///
/// Not thread-safe: one writer belongs to one recording.
///
/// ```swift
/// let writer = try MovieWriter(destination: "/tmp/live.mov")
/// let video = try writer.addVideoTrack(VideoTrackFormat(width: 1440, height: 1080, decoderConfiguration: .avc(avcC)))
/// for s in samples { try writer.append(sample: s.data, to: video, duration: 40, isSync: s.isKeyFrame) }
/// writer.metadata = [MetadataItem(key: .contentIdentifier, value: uuid)]
/// let info = try writer.finish()
/// ```
public final class MovieWriter {
    /// A track's ID in the file (1, 2, 3, … in the order tracks were added).
    public typealias TrackID = Int

    public let fileType: MovieFileType
    /// Ticks per second of the movie timeline (mvhd, tkhd, edit lists).
    public let movieTimescale: Int32
    /// Movie-level metadata items (QuickTime 'mdta' key space only), written by ``finish()``.
    public var metadata: [MetadataItem] = []
    /// The creation and modification time written in the headers.
    public var creationDate = Date()
    /// The whole file, for a writer created with ``init(fileType:movieTimescale:)``, once finished.
    public var data: [UInt8] { sink.data }

    private struct Track {
        var id: Int
        var mediaType: MediaType
        var codec: FourCC
        var timescale: Int32
        var sampleEntry: [UInt8]
        var table: SampleTableBuilder
        var references: [(type: FourCC, ids: [Int])] = []
        var width = 0.0, height = 0.0
        var transform = TrackTransform.identity
        var volume: UInt16 = 0
        var emptyEdit: Int64 = 0
        var mediaStart: Int64 = 0
        var mediaDuration: Int64?
    }

    private enum State { case writing, finished, cancelled }

    private let sink: MovieSink
    private var tracks: [Track] = []
    private var state = State.writing
    private let mdatHeaderOffset: UInt64
    private var lastTrackIndex: Int?
    private var currentChunkBytes = 0
    /// A chunk is closed after this many bytes, so a reader need not load huge chunks.
    private let maxChunkBytes = 1 << 20

    /// A writer whose file appears at `destination` when finished. Fails at once (`.io`) when
    /// the directory is not writable (SPEC L6: the movie URL must be writable).
    public convenience init(destination: String, fileType: MovieFileType = .quickTimeMovie, movieTimescale: Int32 = 600)
        throws(DaguerreError)
    {
        try self.init(sink: MovieSink(destination: destination), fileType: fileType, movieTimescale: movieTimescale)
    }

    /// A writer that builds the file in memory (``data`` after ``finish()``).
    public convenience init(fileType: MovieFileType = .mpeg4, movieTimescale: Int32 = 600) throws(DaguerreError) {
        try self.init(sink: MovieSink(), fileType: fileType, movieTimescale: movieTimescale)
    }

    private init(sink: MovieSink, fileType: MovieFileType, movieTimescale: Int32) throws(DaguerreError) {
        guard movieTimescale > 0 else {
            throw .invalidArgument(what: "Movie timescale \(movieTimescale)", problem: "must be positive")
        }
        self.sink = sink
        self.fileType = fileType
        self.movieTimescale = movieTimescale
        var w = ByteWriter()
        w.box("ftyp") { w in
            w.fourCC(fileType.majorBrand)
            w.u32(0)
            for brand in fileType.compatibleBrands { w.fourCC(brand) }
        }
        // An 8-byte placeholder before mdat: it becomes the 64-bit mdat header if needed.
        w.box(fileType == .quickTimeMovie ? "wide" : "free") { _ in }
        mdatHeaderOffset = UInt64(w.bytes.count)
        w.u32(8)
        w.fourCC("mdat")
        do {
            try sink.write(w.bytes)
        } catch {
            sink.abort()
            throw error
        }
    }

    deinit {
        if state == .writing { sink.abort() }
    }

    // MARK: - Tracks

    /// Adds an H.264 ('avc1') or HEVC ('hvc1') video track, as its configuration says.
    public func addVideoTrack(_ format: VideoTrackFormat) throws(DaguerreError) -> TrackID {
        try format.validate()
        var t = try newTrack(
            .video, codec: format.decoderConfiguration.codec.sampleEntryType, timescale: format.timescale,
            sampleEntry: format.sampleEntry(), fixedSize: nil)
        t.width = format.displayWidth
        t.height = Double(format.height)
        t.transform = format.transform
        return add(t)
    }

    /// Adds an audio track (16-bit PCM in QuickTime movies, AAC in MPEG-4).
    public func addAudioTrack(_ format: AudioTrackFormat) throws(DaguerreError) -> TrackID {
        try format.validate(for: fileType)
        let pcm = format.codec == .linearPCM16
        var t = try newTrack(
            .audio, codec: format.fourCC, timescale: format.timescale, sampleEntry: format.sampleEntry(),
            fixedSize: pcm ? UInt32(format.bytesPerFrame) : nil)
        t.volume = 0x0100
        return add(t)
    }

    /// Adds a timed metadata track ('mebx'), referring to the track it describes ('cdsc') if any.
    public func addTimedMetadataTrack(_ format: TimedMetadataTrackFormat, describing described: TrackID? = nil) throws(DaguerreError)
        -> TrackID
    {
        guard fileType == .quickTimeMovie else {
            throw .unsupported(
                feature: "Timed metadata ('mebx') tracks in MPEG-4 files", hint: "Write a QuickTime movie (.mov) for Live Photo metadata.")
        }
        try format.validate()
        var t = try newTrack(.metadata, codec: "mebx", timescale: format.timescale, sampleEntry: format.sampleEntry(), fixedSize: nil)
        if let described {
            _ = try index(of: described)
            t.references = [("cdsc", [described])]
        }
        return add(t)
    }

    /// Places a track's media on the movie timeline: an empty edit of `startTime` first (a video
    /// whose first frame comes late), then the media from `mediaStart` (media ticks; AAC priming
    /// frames are skipped so), for `mediaDuration` media ticks (default: all of it).
    public func setEdit(of track: TrackID, startTime: MediaTime = .zero, mediaStart: Int64 = 0, mediaDuration: Int64? = nil)
        throws(DaguerreError)
    {
        let i = try index(of: track)
        guard startTime.value >= 0, mediaStart >= 0, (mediaDuration ?? 0) >= 0 else {
            throw .invalidArgument(what: "Edit of track \(track)", problem: "times must not be negative")
        }
        tracks[i].emptyEdit = startTime.converted(to: movieTimescale).value
        tracks[i].mediaStart = mediaStart
        tracks[i].mediaDuration = mediaDuration
    }

    private func newTrack(_ type: MediaType, codec: FourCC, timescale: Int32, sampleEntry: [UInt8], fixedSize: UInt32?)
        throws(DaguerreError) -> Track
    {
        guard state == .writing else { throw finishedError() }
        guard tracks.count < 64 else { throw .tooLarge(what: "Tracks in one movie", value: tracks.count + 1, limit: 64) }
        guard timescale > 0 else { throw .invalidArgument(what: "Track timescale \(timescale)", problem: "must be positive") }
        return Track(
            id: tracks.count + 1, mediaType: type, codec: codec, timescale: timescale, sampleEntry: sampleEntry,
            table: SampleTableBuilder(fixedSampleSize: fixedSize))
    }

    private func add(_ t: Track) -> TrackID {
        tracks.append(t)
        return t.id
    }

    private func index(of track: TrackID) throws(DaguerreError) -> Int {
        guard track >= 1, track <= tracks.count else {
            throw .invalidArgument(what: "Track \(track)", problem: "this writer has tracks 1–\(tracks.count)")
        }
        return track - 1
    }

    private func finishedError() -> DaguerreError {
        .invalidArgument(what: "Movie writer", problem: state == .cancelled ? "it was cancelled" : "it is already finished")
    }

    // MARK: - Samples

    /// Appends one sample: `duration` in the track's media timescale, `compositionOffset` from
    /// decode to presentation time, `isSync` for samples decoding can start at.
    public func append(sample: [UInt8], to track: TrackID, duration: Int64, compositionOffset: Int32 = 0, isSync: Bool = true)
        throws(DaguerreError)
    {
        try sample.withTypedBytes { (raw) throws(DaguerreError) in
            try append(bytes: raw, count: 1, to: track, duration: duration, compositionOffset: compositionOffset, isSync: isSync)
        }
    }

    /// Appends every sample of `source`'s `track` to `id` as stored: bytes, durations,
    /// composition offsets and sync flags (a stream copy, as a remux does).
    ///
    /// ```swift
    /// try writer.appendSamples(of: video, from: reader, to: writerTrack)
    /// ```
    public func appendSamples(of track: MovieTrack, from source: MovieReader, to id: TrackID) throws(DaguerreError) {
        for i in 0..<track.sampleCount {
            guard let s = track.sample(at: i) else { break }
            try append(
                sample: try source.sampleData(track: track.id, index: i), to: id, duration: s.duration,
                compositionOffset: Int32(clamping: s.presentationTime - s.decodeTime), isSync: s.isSync)
        }
    }

    /// Appends interleaved 16-bit PCM frames to a PCM track (host order is converted to little-endian).
    public func append(pcm samples: [Int16], to track: TrackID) throws(DaguerreError) {
        let i = try index(of: track)
        // Only PCM tracks have a fixed sample size: one frame.
        guard let frameBytes = tracks[i].table.fixedSampleSize.map(Int.init) else {
            throw .invalidArgument(what: "Track \(track)", problem: "it is not a PCM audio track")
        }
        guard !samples.isEmpty else { return }
        guard (samples.count * 2) % frameBytes == 0 else {
            throw .invalidArgument(
                what: "\(samples.count) PCM samples", problem: "the count must be a multiple of the channel count (\(frameBytes / 2))")
        }
        #if _endian(big)
            let samples = samples.map { $0.littleEndian }
        #endif
        try samples.withTypedBytes { (raw) throws(DaguerreError) in
            try append(bytes: raw, count: samples.count * 2 / frameBytes, to: track, duration: 1, compositionOffset: 0, isSync: true)
        }
    }

    /// `count` samples of equal size stored back to back in `bytes`.
    private func append(
        bytes: UnsafeRawBufferPointer, count: Int, to track: TrackID, duration: Int64,
        compositionOffset: Int32, isSync: Bool
    ) throws(DaguerreError) {
        guard state == .writing else { throw finishedError() }
        let i = try index(of: track)
        guard duration >= 0, duration <= Int64(UInt32.max) else {
            throw .invalidArgument(what: "Sample duration \(duration)", problem: "must be 0…\(UInt32.max) ticks of the track's timescale")
        }
        guard count > 0, bytes.count % count == 0, bytes.count / count <= Int(UInt32.max) else {
            throw .invalidArgument(what: "Sample of \(bytes.count) bytes", problem: "too large for one sample")
        }
        let newChunk = lastTrackIndex != i || currentChunkBytes >= maxChunkBytes
        try tracks[i].table.append(
            count: count, size: UInt32(bytes.count / count), duration: UInt32(duration),
            compositionOffset: compositionOffset, isSync: isSync, offset: sink.position, newChunk: newChunk)
        do {
            try sink.write(bytes)
        } catch {
            cancel()
            throw error
        }
        currentChunkBytes = newChunk ? bytes.count : currentChunkBytes + bytes.count
        lastTrackIndex = i
    }

    // MARK: - Finishing

    /// Writes the movie atom and moves the file into place.
    @discardableResult
    public func finish() throws(DaguerreError) -> MovieFileInfo {
        guard state == .writing else { throw finishedError() }
        do {
            let info = try writeEnd()
            state = .finished
            return info
        } catch {
            cancel()
            throw error
        }
    }

    /// Stops writing; the destination is left untouched.
    public func cancel() {
        guard state == .writing else { return }
        state = .cancelled
        sink.abort()
    }

    private func writeEnd() throws(DaguerreError) -> MovieFileInfo {
        // mdat size.
        let mdatSize = sink.position - mdatHeaderOffset
        if mdatSize <= UInt64(UInt32.max) {
            var w = ByteWriter()
            w.u32(UInt32(mdatSize))
            w.fourCC("mdat")
            try sink.overwrite(at: mdatHeaderOffset, with: w.bytes)
        } else {
            // Take over the 8-byte placeholder before it: size 1, 'mdat', 64-bit size.
            var w = ByteWriter()
            w.u32(1)
            w.fourCC("mdat")
            w.u64(mdatSize + 8)
            try sink.overwrite(at: mdatHeaderOffset - 8, with: w.bytes)
        }
        let moov = try movieAtom()
        try sink.write(moov)
        let byteCount = sink.position
        try sink.finish()
        return info(byteCount: byteCount)
    }

    /// Presentation length of a track's media edit, in media ticks.
    private func editMediaDuration(_ t: Track) -> Int64 {
        max(0, t.mediaDuration ?? (t.table.mediaDuration - t.mediaStart))
    }

    private func trackDuration(_ t: Track) -> Int64 {
        let media = MediaTime(value: editMediaDuration(t), timescale: t.timescale).converted(to: movieTimescale).value
        return t.emptyEdit &+ (t.table.sampleCount > 0 ? media : 0)
    }

    private func info(byteCount: UInt64) -> MovieFileInfo {
        let duration = tracks.map(trackDuration).max() ?? 0
        let video = tracks.first { $0.mediaType == .video }
        let content = metadata.first { $0.key == MetadataKey.contentIdentifier.rawValue }?.stringValue
        return MovieFileInfo(
            path: sink.path, fileType: fileType, byteCount: byteCount,
            duration: MediaTime(value: duration, timescale: movieTimescale),
            tracks: tracks.map { t in
                MovieFileInfo.Track(
                    id: t.id, mediaType: t.mediaType, codec: t.codec, sampleCount: t.table.sampleCount,
                    startTime: MediaTime(value: t.emptyEdit, timescale: movieTimescale),
                    duration: MediaTime(value: editMediaDuration(t), timescale: t.timescale), dataBytes: t.table.dataBytes)
            },
            width: video.map { Int($0.width.rounded()) }, height: video.map { Int($0.height) },
            contentIdentifier: content, stillImageTime: nil)  // MovieRecorder, which lays the still out, fills it in
    }

    // MARK: - The movie atom

    /// Seconds since 1904-01-01 (QuickTime's epoch), clamped to 32 bits' range if needed.
    private var quickTimeDate: UInt64 {
        let s = creationDate.timeIntervalSince1970 + 2_082_844_800
        return s.isFinite && s > 0 && s < 9.0e18 ? UInt64(s) : 0
    }

    private func movieAtom() throws(DaguerreError) -> [UInt8] {
        for item in metadata where item.keySpace != .quickTimeMetadata {
            throw .unsupported(
                feature: "Writing \(item.keySpace) metadata items (\(item.key))",
                hint: "Use QuickTime metadata ('mdta') keys such as com.apple.quicktime.author.")
        }
        let date = quickTimeDate
        let duration = UInt64(max(0, tracks.map(trackDuration).max() ?? 0))
        var w = ByteWriter(capacity: 4096 + tracks.reduce(0) { $0 + $1.table.sampleCount * 8 })
        w.box("moov") { w in
            let v1 = duration > UInt64(UInt32.max) || date > UInt64(UInt32.max)
            w.fullBox("mvhd", version: v1 ? 1 : 0) { w in
                if v1 {
                    w.u64(date)
                    w.u64(date)
                    w.u32(UInt32(movieTimescale))
                    w.u64(duration)
                } else {
                    w.u32(UInt32(date))
                    w.u32(UInt32(date))
                    w.u32(UInt32(movieTimescale))
                    w.u32(UInt32(duration))
                }
                w.u32(0x0001_0000)  // rate 1.0
                w.u16(0x0100)  // volume 1.0
                w.zeros(10)
                w.matrix()
                w.zeros(24)  // preview, poster, selection, current time (QT) / pre_defined (ISO)
                w.u32(UInt32(tracks.count + 1))
            }
            for t in tracks { writeTrack(t, date: date, into: &w) }
            if !metadata.isEmpty { writeMetadata(into: &w) }
        }
        return w.bytes
    }

    private func writeTrack(_ t: Track, date: UInt64, into w: inout ByteWriter) {
        let qt = fileType == .quickTimeMovie
        let duration = UInt64(max(0, trackDuration(t)))
        let mediaDuration = UInt64(max(0, t.table.mediaDuration))
        w.box("trak") { w in
            let v1 = duration > UInt64(UInt32.max) || date > UInt64(UInt32.max)
            // Flags: enabled, in movie, in preview.
            w.fullBox("tkhd", version: v1 ? 1 : 0, flags: 0x7) { w in
                if v1 {
                    w.u64(date)
                    w.u64(date)
                    w.u32(UInt32(t.id))
                    w.u32(0)
                    w.u64(duration)
                } else {
                    w.u32(UInt32(date))
                    w.u32(UInt32(date))
                    w.u32(UInt32(t.id))
                    w.u32(0)
                    w.u32(UInt32(duration))
                }
                w.zeros(8)
                w.u16(0)
                w.u16(0)  // layer, alternate group
                w.u16(t.volume)
                w.u16(0)
                w.matrix(t.transform)
                w.u32(UInt32(clamping: Int64((t.width * 65536).rounded())))
                w.u32(UInt32(clamping: Int64((t.height * 65536).rounded())))
            }
            if t.table.sampleCount > 0 {
                w.box("edts") { w in
                    let media = MediaTime(value: editMediaDuration(t), timescale: t.timescale).converted(to: movieTimescale).value
                    let large = t.emptyEdit > Int64(UInt32.max) || media > Int64(UInt32.max) || t.mediaStart > Int64(Int32.max)
                    w.fullBox("elst", version: large ? 1 : 0) { w in
                        var entries: [(Int64, Int64)] = []
                        if t.emptyEdit > 0 { entries.append((t.emptyEdit, -1)) }
                        entries.append((media, t.mediaStart))
                        w.u32(UInt32(entries.count))
                        for (d, m) in entries {
                            if large {
                                w.u64(UInt64(d))
                                w.u64(UInt64(bitPattern: m))
                            } else {
                                w.u32(UInt32(d))
                                w.i32(Int32(m))
                            }
                            w.u32(0x0001_0000)  // rate 1.0
                        }
                    }
                }
            }
            if !t.references.isEmpty {
                w.box("tref") { w in
                    for r in t.references { w.box(r.type) { w in for id in r.ids { w.u32(UInt32(id)) } } }
                }
            }
            w.box("mdia") { w in
                let mv1 = mediaDuration > UInt64(UInt32.max) || date > UInt64(UInt32.max)
                w.fullBox("mdhd", version: mv1 ? 1 : 0) { w in
                    if mv1 {
                        w.u64(date)
                        w.u64(date)
                        w.u32(UInt32(t.timescale))
                        w.u64(mediaDuration)
                    } else {
                        w.u32(UInt32(date))
                        w.u32(UInt32(date))
                        w.u32(UInt32(t.timescale))
                        w.u32(UInt32(mediaDuration))
                    }
                    w.u16(0x55C4)  // 'und' as packed ISO 639-2
                    w.u16(0)
                }
                let name: String
                switch t.mediaType {
                case .video: name = "Daguerre Video"
                case .audio: name = "Daguerre Audio"
                default: name = "Daguerre Metadata"
                }
                writeHandler(componentType: "mhlr", subtype: t.mediaType.handler, name: name, into: &w)
                w.box("minf") { w in
                    switch t.mediaType {
                    case .video:
                        w.fullBox("vmhd", flags: 1) { w in
                            // QuickTime: graphics mode ditherCopy with grey opcolor; ISO: zeros.
                            w.u16(qt ? 0x40 : 0)
                            for _ in 0..<3 { w.u16(qt ? 0x8000 : 0) }
                        }
                    case .audio:
                        w.fullBox("smhd") { w in
                            w.u16(0)
                            w.u16(0)
                        }
                    default:
                        if qt {
                            w.box("gmhd") { w in
                                w.fullBox("gmin") { w in
                                    w.u16(0x40)
                                    for _ in 0..<3 { w.u16(0x8000) }
                                    w.u16(0)
                                    w.u16(0)
                                }
                            }
                        } else {
                            w.fullBox("nmhd") { _ in }
                        }
                    }
                    if qt { writeHandler(componentType: "dhlr", subtype: "url ", name: "Daguerre Data Handler", into: &w) }
                    w.box("dinf") { w in
                        w.fullBox("dref") { w in
                            w.u32(1)
                            w.fullBox("url ", flags: 1) { _ in }  // the data is in this file
                        }
                    }
                    w.box("stbl") { w in
                        w.fullBox("stsd") { w in
                            w.u32(1)
                            w.append(t.sampleEntry)
                        }
                        t.table.write(into: &w)
                    }
                }
            }
        }
    }

    /// `hdlr`: QuickTime has a component type and a counted name; ISO has zeros and a C string.
    private func writeHandler(componentType: FourCC, subtype: FourCC, name: String, into w: inout ByteWriter) {
        let qt = fileType == .quickTimeMovie
        w.fullBox("hdlr") { w in
            if qt { w.fourCC(componentType) } else { w.u32(0) }
            w.fourCC(subtype)
            w.u32(0)
            w.u32(0)
            w.u32(0)
            if qt {
                let text = Array(name.utf8.prefix(255))
                w.u8(UInt8(text.count))
                w.append(text)
            } else {
                w.utf8(name)
                w.u8(0)
            }
        }
    }

    /// moov/meta: hdlr 'mdta', keys, ilst (QuickTime File Format "Metadata atoms and types").
    /// QuickTime's `meta` is a plain atom; ISO's is a full box.
    private func writeMetadata(into w: inout ByteWriter) {
        var keys: [String] = []
        var values: [[MetadataItem]] = []
        for item in metadata {
            if let k = keys.firstIndex(of: item.key) {
                values[k].append(item)
            } else {
                keys.append(item.key)
                values.append([item])
            }
        }
        let body: (inout ByteWriter) -> Void = { w in
            w.fullBox("hdlr") { w in
                w.u32(0)
                w.fourCC("mdta")
                w.u32(0)
                w.u32(0)
                w.u32(0)
                w.u8(0)
            }
            w.fullBox("keys") { w in
                w.u32(UInt32(keys.count))
                for k in keys {
                    let bytes = Array(k.utf8)
                    w.u32(UInt32(8 + bytes.count))
                    w.fourCC("mdta")
                    w.append(bytes)
                }
            }
            w.box("ilst") { w in
                for (i, items) in values.enumerated() {
                    w.box(FourCC(UInt32(i + 1))) { w in
                        for item in items {
                            w.box("data") { w in
                                w.u32(item.dataType & 0x00FF_FFFF)  // type set 0: well-known types
                                w.u32(item.locale)
                                w.append(item.encodedValue)
                            }
                        }
                    }
                }
            }
        }
        if fileType == .quickTimeMovie { w.box("meta", body) } else { w.fullBox("meta", body) }
    }
}
