import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

/// Hostile and damaged movies: the reader must end in a DaguerreError, never a trap.
@Suite("QuickTime reader against hostile input")
struct QuickTimeRobustnessTests {
    /// A small Live Photo movie (64×48, 10 frames, stereo audio, still time, metadata) in memory.
    static func smallMovie() throws -> [UInt8] {
        let dir = try TemporaryDirectory()
        let path = dir.path("small.mov")
        let source = try MovieFixture.Source(width: 64, height: 48, frames: 10)
        var settings = QuickTimeWriterTests.liveSettings(channels: 2)
        settings.width = 64
        settings.height = 48
        settings.stillImageTime = MediaTime(seconds: 0.3)
        try MovieFixture.record(path, source: source, frames: 10, settings: settings)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Everything a caller may do with a reader: structure, metadata, timed metadata, samples.
    /// Returns how far it got.
    @discardableResult
    static func exercise(_ bytes: [UInt8], decode: Bool = false) -> String {
        do {
            let movie = try MovieReader(data: bytes)
            _ = movie.contentIdentifier
            _ = try movie.stillImageTime()
            for t in movie.tracks {
                for i in stride(from: 0, to: t.sampleCount, by: max(1, t.sampleCount / 16)) {
                    _ = t.sample(at: i)
                    _ = try? movie.sampleData(track: t.id, index: i)
                }
                if t.codec == "mebx" { _ = try movie.timedMetadata(track: t.id) }
                if t.mediaType == .audio { _ = try? movie.pcm16Samples(track: t.id) }
                if decode, t.mediaType == .video, t.sampleCount > 0 {
                    _ = try? movie.decodeFrames(track: t.id, range: 0..<min(2, t.sampleCount))
                }
            }
            return "read"
        } catch {
            return String(describing: error).prefix(24).description
        }
    }

    @Test("Tiny seeds for the fuzzer (fuzz/corpus-quicktime): a 16×16 Live Photo movie with 8 kHz audio, and its MP4")
    func fuzzSeeds() throws {
        let dir = try TemporaryDirectory()
        let mov = dir.path("seed-tiny.mov")
        let mp4 = dir.path("seed-tiny.mp4")
        let source = try MovieFixture.Source(width: 16, height: 16, frames: 3)
        var settings = QuickTimeWriterTests.liveSettings()
        settings.width = 16
        settings.height = 16
        settings.audio = .init(sampleRate: 8000, channels: 1)
        settings.stillImageTime = MediaTime(value: 40, timescale: 600)
        settings.metadata = Array(settings.metadata.prefix(2))
        try MovieFixture.record(mov, source: source, frames: 3, settings: settings)
        try MotionPhotoVideo.writeMP4(fromLivePhotoMovie: mov, to: mp4)
        for path in [mov, mp4] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes.count < 8192)
            #expect(Self.exercise(bytes, decode: true) == "read")
        }
        SampleFiles.keep(mov, as: "seed-tiny.mov")
        SampleFiles.keep(mp4, as: "seed-tiny.mp4")
    }

    @Test("The untouched small movie reads completely")
    func baseline() throws {
        let bytes = try Self.smallMovie()
        #expect(Self.exercise(bytes, decode: true) == "read")
        let movie = try MovieReader(data: bytes)
        #expect(try movie.stillImageTime() == MediaTime(seconds: 0.3))
    }

    @Test("Truncated at many lengths: the movie atom is at the end, so every cut is a typed error")
    func truncated() throws {
        let bytes = try Self.smallMovie()
        var lengths = Set(0..<256)
        for k in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) { lengths.insert(k) }
        for k in (bytes.count - 2048)..<bytes.count { lengths.insert(k) }  // every cut inside moov
        var outcomes: [String: Int] = [:]
        for n in lengths.sorted() where n < bytes.count {
            do {
                _ = try MovieReader(data: Array(bytes.prefix(n)))
                outcomes["opened", default: 0] += 1
            } catch {
                outcomes[error.isTruncated ? "truncated" : "other: \(error)".prefix(60).description, default: 0] += 1
            }
        }
        print("truncation outcomes over \(lengths.count) lengths:", outcomes)
        #expect(outcomes["opened"] == nil, "a cut movie atom must not open")
        #expect(outcomes.keys.allSatisfy { $0 == "truncated" || $0.hasPrefix("other: The QuickTime data") })
    }

    @Test("Seeded random byte flips (mostly in the movie atom) never crash")
    func byteFlips() throws {
        let original = try Self.smallMovie()
        let moovStart = original.count - moovSize(original)
        var rng = SeededRandom(seed: 0xDA6_0AA7)
        var outcomes: [String: Int] = [:]
        for _ in 0..<400 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let i =
                    Bool.random(using: &rng) || Bool.random(using: &rng)
                    ? Int.random(in: moovStart..<bytes.count, using: &rng) : Int.random(in: 0..<bytes.count, using: &rng)
                bytes[i] ^= UInt8.random(in: 1...255, using: &rng)
            }
            outcomes[Self.exercise(bytes, decode: outcomes.values.reduce(0, +) % 20 == 0), default: 0] += 1
        }
        print("byte-flip outcomes:", outcomes.sorted { $0.value > $1.value }.prefix(8))
        #expect(outcomes.values.reduce(0, +) == 400)
    }

    /// The size of the last top-level box (the movie atom our writer puts at the end).
    func moovSize(_ b: [UInt8]) -> Int {
        var offset = 0
        var last = 0
        while offset + 8 <= b.count {
            let size = Int(ByteReader.load32(b, offset))
            guard size >= 8, offset + size <= b.count else { break }
            last = size
            offset += size
        }
        return last
    }

    /// Offset of the last occurrence of a four-character code.
    func findLast(_ code: String, in b: [UInt8]) -> Int? {
        var found: Int?
        var start = 0
        while let i = find(code, in: b, after: start) {
            found = i
            start = i + 1
        }
        return found
    }

    /// Offset of the first occurrence of a four-character code.
    func find(_ code: String, in b: [UInt8], after start: Int = 0) -> Int? {
        let c = Array(code.utf8)
        guard b.count >= 4 else { return nil }
        for i in start..<(b.count - 3) where b[i] == c[0] && b[i + 1] == c[1] && b[i + 2] == c[2] && b[i + 3] == c[3] { return i }
        return nil
    }

    func put32(_ b: inout [UInt8], _ at: Int, _ v: UInt32) {
        for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32(k))) }
    }

    @Test("Box size loops, size 0 inside a parent, 64-bit sizes past the end, deep nesting: typed errors")
    func sizeTricks() throws {
        let original = try Self.smallMovie()
        func refused(_ what: String, _ bytes: [UInt8]) {
            expectDaguerreError(what, { $0.isCorrupt || $0.isTruncated || $0.isTooLarge }) {
                let m = try MovieReader(data: bytes)
                _ = try m.stillImageTime()
                for t in m.tracks { _ = try m.sampleData(track: t.id, range: 0..<t.sampleCount) }
            }
        }
        // A child box whose size is smaller than its header (the classic zero-progress loop).
        for size: UInt32 in [0, 1, 4, 7] where size != 0 && size != 1 {
            var b = original
            let stbl = try #require(find("stbl", in: b))
            put32(&b, stbl - 4, size)
            refused("stbl of size \(size)", b)
        }
        // Size 1 with a 64-bit size pointing far past the parent.
        do {
            var b = original
            let trak = try #require(find("trak", in: b))
            put32(&b, trak - 4, 1)
            refused("trak with a 64-bit size", b)
        }
        // A top-level box larger than the file, and one with size 1 but a huge 64-bit size.
        do {
            var b = original
            put32(&b, 0, 0xFFFF_FFF0)
            refused("ftyp past the end", b)
            var c = original
            let moov = original.count - moovSize(original)
            put32(&c, moov, 1)
            refused("moov with a 64-bit size", c)
        }
        // Size 0 ("to the end of the parent") on a box that is not last: it swallows its siblings.
        do {
            var b = original
            let tkhd = try #require(find("tkhd", in: b))
            put32(&b, tkhd - 4, 0)
            refused("tkhd of size 0", b)
        }
        // Nesting 200 levels deep inside the item list: read without recursion (the parser walks
        // a fixed structure, so unknown nesting costs nothing).
        do {
            var w = ByteWriter()
            w.box("ftyp") { w in
                w.fourCC("qt  ")
                w.u32(0)
                w.fourCC("qt  ")
            }
            func nest(_ w: inout ByteWriter, _ depth: Int) {
                if depth == 0 { return }
                w.box("udta") { w in nest(&w, depth - 1) }
            }
            w.box("moov") { w in
                w.fullBox("mvhd") { w in
                    w.zeros(8)
                    w.u32(600)
                    w.u32(0)
                    w.zeros(80)
                }
                w.box("meta") { w in
                    w.fullBox("hdlr") { w in
                        w.u32(0)
                        w.fourCC("mdta")
                        w.zeros(13)
                    }
                    w.box("ilst") { w in nest(&w, 200) }
                }
                w.box("udta") { w in nest(&w, 200) }
            }
            let movie = try MovieReader(data: w.bytes)
            #expect(movie.tracks.isEmpty && movie.metadata.isEmpty)
        }
        // The depth bound itself: a normal movie nests 8 levels (moov/trak/mdia/minf/stbl/stsd/mebx/keys/…).
        var shallow = MovieReader.Options()
        shallow.maxBoxDepth = 3
        expectDaguerreError(
            "depth limit 3", { if case .corruptData(_, let detail, _) = $0 { detail.contains("nested deeper") } else { false } }
        ) {
            _ = try MovieReader(data: original, options: shallow)
        }
    }

    @Test("Huge sample and entry counts are refused before anything is allocated")
    func hugeCounts() throws {
        let original = try Self.smallMovie()
        // stsz: fixed size 1, count 0xFFFFFFFF (a fixed-size table allocates nothing; the limit refuses it).
        do {
            var b = original
            let stsz = try #require(find("stsz", in: b))
            put32(&b, stsz + 8, 1)
            put32(&b, stsz + 12, 0xFFFF_FFFF)
            expectDaguerreError("4 billion fixed-size samples", { $0.isTooLarge || $0.isCorrupt }) { _ = try MovieReader(data: b) }
        }
        // stsz: variable sizes, count 0x7FFFFFFF in a few bytes.
        do {
            var b = original
            let stsz = try #require(find("stsz", in: b))
            put32(&b, stsz + 8, 0)
            put32(&b, stsz + 12, 0x7FFF_FFFF)
            expectDaguerreError("2 billion sizes in a small box", { $0.isCorrupt || $0.isTooLarge }) { _ = try MovieReader(data: b) }
        }
        // stts, stsc, stco, elst and keys entry counts far beyond their boxes.
        for code in ["stts", "stsc", "stco", "elst", "keys", "stsd"] {
            var b = original
            // The movie-level 'keys' (a full box with a count) is the last one; the mebx key table comes first.
            let at = try #require(code == "keys" ? findLast(code, in: b) : find(code, in: b))
            put32(&b, at + 8, 0xFFFF_FFF0)
            let outcome = Self.exercise(b)
            #expect(outcome != "read" || code == "stsd", "\(code) with 4 billion entries: \(outcome)")
        }
        // stts that gives durations to fewer samples than exist.
        do {
            var b = original
            let stts = try #require(find("stts", in: b))
            put32(&b, stts + 12, 1)  // first run: 1 sample
            put32(&b, stts + 8, 1)  // one run
            expectDaguerreError("stts covering one sample", { $0.isCorrupt }) { _ = try MovieReader(data: b) }
        }
        // The limit itself is configurable and checked.
        var options = MovieReader.Options()
        options.maxSamplesPerTrack = 100
        expectDaguerreError("more audio samples than the limit", { $0.isTooLarge }) {
            _ = try MovieReader(data: original, options: options)
        }
        options = MovieReader.Options()
        options.maxMovieAtomBytes = 256
        expectDaguerreError("movie atom over the limit", { $0.isTooLarge }) { _ = try MovieReader(data: original, options: options) }
    }

    @Test("Not a movie at all: empty, JPEG, random bytes")
    func notMovies() throws {
        expectDaguerreError("empty", { $0.isTruncated }) { _ = try MovieReader(data: []) }
        expectDaguerreError("JPEG", { $0.isCorrupt }) {
            _ = try MovieReader(path: Fixture.thirdParty.appendingPathComponent("exiftool_t_Apple.jpg").path)
        }
        var rng = SeededRandom(seed: 7)
        for n in [8, 16, 100, 4096] {
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            expectDaguerreError("\(n) random bytes", { $0.isCorrupt || $0.isTruncated || $0.isTooLarge }) {
                _ = try MovieReader(data: bytes)
            }
        }
        expectDaguerreError("missing file", { $0.isIO }) { _ = try MovieReader(path: "/nonexistent/x.mov") }
        expectDaguerreError("a directory", { $0.isIO }) { _ = try MovieReader(path: "/tmp") }
    }
}
