// What each libFuzzer harness does with its input (fuzz/Sources), in one place, so the harnesses
// and the replays of their crashes (Tests/…/FuzzRegressionTests) run exactly the same calls.
// Bad input must end in a DaguerreError: any trap, crash or sanitizer report is a bug.
import Daguerre
@_spi(Fuzzing) import DaguerreFormats
import Foundation

/// One function per harness; each takes the fuzzer's bytes.
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
///     _ = FuzzTargets.dng([UInt8](UnsafeBufferPointer(start: data, count: size))); return 0
/// }
/// ```
public enum FuzzTargets {
    /// Small limits, so each run stays fast.
    static var limits: Limits {
        var limits = Limits.default
        limits.maxPixels = 1 << 22
        limits.maxBufferBytes = 1 << 26
        return limits
    }

    /// The image readers, then a small crop rendered through the engine.
    public static func decode(_ bytes: [UInt8]) {
        let limits = Self.limits
        do {
            let decoder = try ImageReader.open(data: bytes, limits: limits)
            let info = decoder.info
            let rows = min(info.height, 64)
            var buffer = [UInt8](repeating: 0, count: max(1, info.width * info.pixelFormat.bytesPerPixel * rows))
            try buffer.withUnsafeMutableBytes { raw in
                try decoder.readRows(y: 0, count: rows, into: raw.baseAddress!, bytesPerRow: info.width * info.pixelFormat.bytesPerPixel)
            }
            let image = try Image(data: bytes, limits: limits)
            let crop = image.cropped(to: Rect(x: 0, y: 0, width: min(image.extent.width, 32), height: min(image.extent.height, 32)))
            _ = try Context(options: .init(limits: limits)).createBuffer(
                try crop.applying(GaussianBlur(radius: 1)), format: .rgba8, colorSpace: .sRGB)
        } catch {
            // Typed errors are the expected outcome for damaged input.
        }
    }

    /// The TIFF structure reader, EXIF, the sparse read's plan, the DNG reader (IFD trees, tiles, lossless and lossy
    /// JPEG, bit-packed strips, opcode lists, previews), and every applicable opcode on a small
    /// plane, which is returned (nil when the bytes are not a readable DNG).
    public static func dng(_ bytes: [UInt8]) -> [Float]? {
        let limits = Self.limits
        if let reader = try? TIFFStructureReader(bytes: bytes), let tree = try? reader.tree(), let ifd0 = tree.first {
            _ = EXIFCodec.metadata(ifd0: ifd0, reader: reader)
        }
        // The sparse read's plan: the chunk run found from the head, checked against the tree.
        _ = DNGReader.skippableRun(in: bytes)
        guard let dng = try? DNGReader.read(bytes: bytes, limits: limits) else { return nil }
        var plane = [Float](repeating: 0.5, count: 16 * 16)
        for list in dng.opcodeLists {
            for op in list.opcodes { op.apply(to: &plane, width: 16, height: 16, channels: 1) }
        }
        return plane
    }

    /// The RAW develop (SPEC X1–X7) on whatever DNG the bytes hold: the default pipeline (noise
    /// reduction with the file's NoiseProfile or an estimate, highlights, gain maps and warps
    /// from its opcode lists), draft mode, the half-size path, versions 1, 2 and 3, and the
    /// look, each rendered into a small buffer, and the default pipeline once more on the
    /// streamed mosaic (``RAWFilter/init(data:identifierHint:limits:)``: the tiles decoded band by
    /// band as the develop reaches them). Hostile levels, profiles, opcode areas and sizes must
    /// end in a DaguerreError. Returns how many of the eight renders succeeded (nil when the
    /// bytes are not a readable DNG).
    @discardableResult
    public static func rawDevelop(_ bytes: [UInt8]) -> Int? {
        var limits = Self.limits
        limits.maxPixels = 1 << 18
        guard let dng = try? DNGReader.read(bytes: bytes, limits: limits) else { return nil }
        func render(streamed: Bool = false, _ configure: (inout RAWFilter) -> Void) -> Int {
            do {
                var raw =
                    streamed
                    ? try RAWFilter(data: Data(bytes), identifierHint: "public.dng", limits: limits)
                    : try RAWFilter(dng: dng, limits: limits)
                configure(&raw)
                let image = try raw.outputImage()
                let crop = image.cropped(
                    to: Rect(
                        x: image.extent.minX, y: image.extent.minY,
                        width: min(image.extent.width, 48), height: min(image.extent.height, 48)))
                _ = try Context(options: .init(limits: limits)).createBuffer(crop, format: .rgba8, colorSpace: .sRGB)
                return 1
            } catch {
                return 0  // typed errors are the expected outcome for damaged input
            }
        }
        return render { _ in }
            + render {
                $0.isDraftModeEnabled = true
                $0.exposure = 1
            }
            + render {
                $0.isDraftModeEnabled = true
                $0.scaleFactor = 0.3
                $0.neutralTemperature = 3500
            }
            + render {
                $0.scaleFactor = 0.5
                $0.noiseReductionDetailAmount = 1
                $0.noiseReductionSharpnessAmount = 1
            }
            + render { $0.decoderVersion = "1" }
            + render {
                $0.decoderVersion = "2"
                $0.boostAmount = 1
                $0.localToneMapAmount = 1
                $0.colorNoiseReductionAmount = 1
            }
            + render { $0.decoderVersion = "3" }
            + render(streamed: true) { _ in }
    }

    /// The JPEG metadata reader (markers, EXIF IFDs, Apple MakerNote, XMP, ICC chunks,
    /// thumbnail, Motion Photo trailer) and the metadata splicer.
    public static func jpegMetadata(_ bytes: [UInt8]) {
        if let info = try? JPEGFileMetadata(bytes: bytes) {
            _ = info.metadata.map { EXIFCodec.directories(for: $0) }
            _ = info.xmp?.serialized()
        }
        _ = try? JPEGFileMetadata.replacingMetadata(in: bytes, with: [.exif(TIFFSerializer.file([TIFFDirectory()], byteOrder: .bigEndian))])
        _ = AppleMakerNote(parsing: bytes)
    }

    /// The QuickTime/MP4 reader: box parsing, sample tables, movie and timed metadata, sample
    /// reads (not H.264 decoding, which is libavcodec's, fuzzed upstream). Returns whether the
    /// bytes opened as a movie.
    @discardableResult
    public static func quickTime(_ bytes: [UInt8]) -> Bool {
        var options = MovieReader.Options()
        options.maxMovieAtomBytes = 1 << 20  // keep each run small and fast
        options.maxSamplesPerTrack = 1 << 20
        options.maxSampleBytes = 1 << 20
        do {
            let movie = try MovieReader(data: bytes, options: options)
            _ = movie.contentIdentifier
            _ = movie.fileType
            _ = try? movie.stillImageTime()
            for item in movie.metadata { _ = item.description }
            for track in movie.tracks {
                _ = track.startTime
                let n = track.sampleCount
                // Random access across the table, both ends and a stride through the middle.
                for i in [0, 1, n / 2, n - 2, n - 1] + Array(stride(from: 0, to: n, by: max(1, n / 32))) {
                    if let s = track.sample(at: i) {
                        _ = track.presentationTime(ofMediaTime: s.presentationTime)
                        _ = try? movie.sampleData(track: track.id, index: i)
                    }
                }
                _ = track.sampleTable.syncSample(atOrBefore: n - 1)
                _ = try? movie.sampleData(track: track.id, range: 0..<min(n, 64))
                if track.codec == "mebx" { _ = try? movie.timedMetadata(track: track.id) }
                if track.mediaType == .audio { _ = try? movie.pcm16Samples(track: track.id) }
            }
            return true
        } catch {
            return false  // typed errors are the expected outcome for damaged input
        }
    }

    /// The HEIF boundary (libheif through ``HEIFFile``), from memory: the brands, the primary
    /// image's facts, EXIF (with the Apple MakerNote) and XMP, the colour profile, thumbnails,
    /// auxiliary and depth images, a motion photo's video (read by `MovieReader`), and the
    /// primary image decoded under small limits: libheif refuses sides over 2048 while it
    /// parses, ``HEIFFile/decodePrimaryImage()`` sizes over 2¹⁸ pixels before decoding.
    /// Returns the decoded pixel count (nil when the bytes do not open or do not decode).
    @discardableResult
    public static func heif(_ bytes: [UInt8]) -> Int? {
        var limits = Self.limits
        limits.maxDimension = 2048
        limits.maxPixels = 1 << 18
        _ = HEIFFile.isHEIF(head: Array(bytes.prefix(64)))
        guard let file = try? HEIFFile(bytes: bytes, limits: limits) else { return nil }
        _ = (file.formatName, file.isQuarterTurned, file.colorSpace, file.colorProfile.summary)
        if let metadata = file.metadata {
            _ = EXIFCodec.directories(for: metadata)
            _ = metadata.livePhotoContentIdentifier
        }
        _ = file.exifThumbnail.map { try? JPEGFileMetadata(bytes: $0) }
        _ = file.xmp?.serialized()
        _ = file.xmp?.containerDirectory
        _ = file.auxiliaryImages.map(\.kind)
        _ = file.depthImages.map { ($0.representation, $0.zNear, $0.zFar) }
        _ = file.thumbnails.map { $0.width * $0.height }
        if let video = file.motionPhotoVideo {
            quickTime(Array(bytes[video.range]))
        }
        guard let pixels = try? file.decodePrimaryImage() else { return nil }
        return pixels.width * pixels.height
    }

    /// The Motion Photo readers: a JPEG Motion Photo's split (the XMP's Container directory
    /// or MicroVideoOffset), its still's metadata and the MP4 after it through `MovieReader`;
    /// a HEIC motion photo's video found by the top-level box walk; and, when the split gives
    /// a movie, the Live Photo editor opening the bytes as a Motion Photo file (a temporary
    /// file, as ``ContentEditingInput`` takes URLs). Returns how far it got: 0 nothing, 1 a
    /// split, 2 a readable movie in it, 3 an editing context opened.
    @discardableResult
    public static func motionPhoto(_ bytes: [UInt8]) -> Int {
        if let video = HEIFMotionPhotoVideo(locatingIn: bytes) {
            quickTime(Array(bytes[video.range]))
        }
        guard let parts = try? MotionPhoto.split(bytes) else { return 0 }
        _ = try? JPEGFileMetadata(bytes: Array(bytes[parts.primary]))
        guard quickTime(Array(bytes[parts.video])) else { return 1 }
        let url = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("daguerre-fuzz-\(UUID().uuidString)\(MotionPhoto.fileSuffix)")  // tests replay in parallel
        defer { try? FileManager.default.removeItem(at: url) }
        guard (try? Data(bytes).write(to: url)) != nil,
            let context = try? LivePhotoEditingContext(livePhotoEditingInput: ContentEditingInput(motionPhoto: url))
        else { return 2 }
        _ = (context.fullSizeImage.extent, context.duration, context.photoTime, context.orientation, context.movieSize)
        return 3
    }
}
