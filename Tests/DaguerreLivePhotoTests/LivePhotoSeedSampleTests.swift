import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreMovie
import DaguerreSamples
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreLivePhoto

/// The seed's Live Photo edits (SPEC E4, E5; DaguerreSamples' LivePhotoEditingSamples) saved and
/// measured from the saved files' pixels. The pair's picture says where each pixel came from:
/// red rises with x and green and blue with y (sRGB codes 30 to 220), the same scene in the
/// still and in every frame, so a crop's window in the scene is read back from its colours.
@Suite("The seed's Live Photo edits")
struct LivePhotoSeedSampleTests {
    static let low = 30.0
    static let span = 190.0

    /// A pair whose picture codes each pixel's position: a `width`×`height` still and a movie of
    /// `frames` frames at 15 fps, half the still's size; the still at frame `frames / 2`.
    static func makeCoordinatePair(in dir: TemporaryDirectory, width: Int = 640, height: Int = 480, frames: Int = 15) throws
        -> LivePhotoPair
    {
        func picture(_ w: Int, _ h: Int) throws(DaguerreError) -> PixelBuffer {
            var buffer = try PixelBuffer(width: w, height: h, format: .rgba8, colorSpace: .sRGB)
            let rb = buffer.bytesPerRow
            buffer.withUnsafeMutableBytes { raw in
                for y in 0..<h {
                    let g = UInt8((low + span * (Double(y) + 0.5) / Double(h)).rounded())
                    for x in 0..<w {
                        let i = y * rb + 4 * x
                        raw[i] = UInt8((low + span * (Double(x) + 0.5) / Double(w)).rounded())
                        raw[i + 1] = g
                        raw[i + 2] = g
                        raw[i + 3] = 255
                    }
                }
            }
            return buffer
        }
        var settings = MovieSettings(width: width / 2, height: height / 2, frameRate: 15, bitRate: 3_000_000)
        settings.stillImageTime = MediaTime(value: Int64(frames / 2) * 40, timescale: 600)
        let frame = try picture(width / 2, height / 2)
        return try LivePhotoPair.write(
            still: SampleBuffer(pixels: try picture(width, height)), preview: nil, stillPath: dir.path("IMG.JPG"),
            moviePath: dir.path("IMG.MOV"), movie: settings
        ) { (recorder) throws(DaguerreError) in
            for i in 0..<frames { try recorder.append(frame: frame, at: MediaTime(value: Int64(i) * 40, timescale: 600)) }
        }
    }

    /// Where a decoded edit's pixels came from in the scene, as fractions of the frame they were
    /// cut from: the window's left and top edges (the mean over the columns, and over the rows,
    /// of the position the colour codes minus the pixel's place in the window) and its size.
    struct Window: CustomStringConvertible {
        var x: Double, y: Double, width: Double, height: Double

        init(_ b: PixelBuffer, sourceWidth: Int, sourceHeight: Int) {
            let n = b.format.channels
            // Columns and rows a few pixels in from the edges, where the codecs ring least.
            let rows = 2..<(b.height - 2)
            let cols = 2..<(b.width - 2)
            let (xs, ys) = b.withUnsafeBytes { raw in
                var xs = 0.0
                var ys = 0.0
                for c in cols {
                    var red = 0.0
                    for r in rows { red += Double(raw[r * b.bytesPerRow + n * c]) }
                    let u = (red / Double(rows.count) - low) / span
                    xs += u - (Double(c) + 0.5) / Double(sourceWidth)
                }
                for r in rows {
                    var green = 0.0
                    for c in cols { green += Double(raw[r * b.bytesPerRow + n * c + 1]) }
                    let v = (green / Double(cols.count) - low) / span
                    ys += v - (Double(r) + 0.5) / Double(sourceHeight)
                }
                return (xs, ys)
            }
            x = xs / Double(cols.count)
            y = ys / Double(rows.count)
            width = Double(b.width) / Double(sourceWidth)
            height = Double(b.height) / Double(sourceHeight)
        }

        var description: String { String(format: "x %.4f y %.4f, %.4f × %.4f", x, y, width, height) }
    }

    /// A save of the pair at `dir` with `edit` applied, into `dir/<name>/`; the still and every
    /// movie frame decoded.
    static func save(
        _ pair: LivePhotoPair, in dir: TemporaryDirectory, name: String, _ edit: (LivePhotoEditingContext) throws -> Void
    ) async throws -> (context: LivePhotoEditingContext, still: PixelBuffer, frames: [PixelBuffer], movie: MovieReader) {
        let input = ContentEditingInput(still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: pair.moviePath))
        let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
        try edit(context)
        try FileManager.default.createDirectory(atPath: dir.path(name), withIntermediateDirectories: true)
        let output = ContentEditingOutput(
            contentEditingInput: input, still: URL(fileURLWithPath: dir.path("\(name)/IMG.JPG")),
            movie: URL(fileURLWithPath: dir.path("\(name)/IMG.MOV")))
        try await context.saveLivePhoto(to: output)
        _ = try LivePhotoPair.read(still: dir.path("\(name)/IMG.JPG"), movie: dir.path("\(name)/IMG.MOV"))
        let movie = try MovieReader(path: dir.path("\(name)/IMG.MOV"))
        let track = try #require(movie.tracks.first { $0.mediaType == .video })
        let frames = try movie.decodeFrames(track: track.id, range: 0..<track.sampleCount)
        return (context, try ImageReader.readAll(path: dir.path("\(name)/IMG.JPG")), frames, movie)
    }

    @Test("A square crop: the still and the movie are squares of the same region of the scene (E4)")
    func squareCrop() async throws {
        let dir = try TemporaryDirectory()
        let pair = try Self.makeCoordinatePair(in: dir)
        let saved = try await Self.save(pair, in: dir, name: "square") { LivePhotoEditingSamples.applySquareCrop(to: $0) }
        #expect(saved.still.width == 480 && saved.still.height == 480)
        #expect(saved.frames.count == 15)
        let still = Window(saved.still, sourceWidth: 640, sourceHeight: 480)
        print("square crop: still 480×480 shows \(still)")
        // 640×480 → the centred 480×480: x from 80/640, the whole height.
        #expect(abs(still.x - 0.125) < 0.01 && abs(still.y) < 0.01 && still.width == 0.75 && still.height == 1)
        for (k, frame) in saved.frames.enumerated() {
            #expect(frame.width == 240 && frame.height == 240, "frame \(k) is \(frame.width)×\(frame.height)")
            let w = Window(frame, sourceWidth: 320, sourceHeight: 240)
            if k == 0 { print("square crop: movie frame 240×240 shows \(w)") }
            #expect(abs(w.x - still.x) < 0.015 && abs(w.y - still.y) < 0.015, "frame \(k): \(w), the still \(still)")
            #expect(w.width == still.width && w.height == still.height)
        }
    }

    @Test("A crop that moves with time: at the bottom at the start, centred at the photo, at the top at the end (E5)")
    func movingCrop() async throws {
        let dir = try TemporaryDirectory()
        let pair = try Self.makeCoordinatePair(in: dir)
        let saved = try await Self.save(pair, in: dir, name: "moving") { LivePhotoEditingSamples.applyMovingCrop(to: $0) }
        let photoTime = saved.context.photoTime.seconds
        let duration = saved.context.duration.seconds
        // The still: a 360×360 square (¾ of 480), centred, as at the photo's time.
        #expect(saved.still.width == 360 && saved.still.height == 360)
        let still = Window(saved.still, sourceWidth: 640, sourceHeight: 480)
        print("moving crop: still (photo at \(photoTime) s of \(duration) s) shows \(still)")
        #expect(abs(still.y - 60.0 / 480) < 0.01 && abs(still.x - 140.0 / 640) < 0.01)
        // The movie: 180×180 squares whose top edge rises from 60/240 (touching the bottom) to
        // near 0, measured from each decoded frame against the sample's own function of time.
        let track = try #require(saved.movie.tracks.first { $0.mediaType == .video })
        let first = try #require(track.sample(at: 0)).presentationTime
        var tops: [Double] = []
        for (k, frame) in saved.frames.enumerated() {
            #expect(frame.width == 180 && frame.height == 180)
            let pts = try #require(track.sample(at: k)).presentationTime
            let time = MediaTime(value: pts - first, timescale: track.timescale).seconds
            let expected = LivePhotoEditingSamples.movingCropRect(
                extent: Rect(x: 0, y: 0, width: 320, height: 240), time: time, photoTime: photoTime, duration: duration)
            let w = Window(frame, sourceWidth: 320, sourceHeight: 240)
            tops.append(w.y)
            #expect(abs(w.y - expected.minY / 240) < 0.015, "frame \(k) at \(time) s: \(w), expected top \(expected.minY / 240)")
            #expect(abs(w.x - 70.0 / 320) < 0.015)
        }
        print(
            "moving crop: window top at the first frame \(tops.first ?? -1), at the last \(tops.last ?? -1) (of \(track.sampleCount) frames)"
        )
        #expect(abs((tops.first ?? 0) - 0.25) < 0.015, "the first frame's window touches the bottom")
        #expect((tops.last ?? 1) < 0.04, "the last frame's window is at the top")
        #expect(zip(tops, tops.dropFirst()).allSatisfy { $1 <= $0 + 0.01 }, "the window only rises: \(tops)")
    }

    @Test("An effect scaled by renderScale: the sample's blur and vignette pass the renderScale consistency check (E5)")
    func scaledEffect() throws {
        // The check itself is LivePhotoEditingTests.renderScaleConsistency's: the still edited at
        // full size then shrunk to the movie's scale, against shrunk first and edited at that
        // renderScale; here with the sample's processor.
        let dir = try TemporaryDirectory()
        let pair = try LivePhotoFixtures.makePair(in: dir, stillWidth: 960, stillHeight: 720, frames: 4)
        let input = ContentEditingInput(still: URL(fileURLWithPath: pair.stillPath), movie: URL(fileURLWithPath: pair.moviePath))
        let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
        LivePhotoEditingSamples.applyScaledEffect(to: context, radius: 24)
        let processor = try #require(context.frameProcessor)
        let (a, b, scale) = try LivePhotoEditingTests.blurredBothWays(input, processor)
        let psnr = LivePhotoEditingTests.psnr(a, b)
        print("scaled effect: full size then shrunk vs shrunk then edited at renderScale \(scale): PSNR \(psnr) dB")
        #expect(psnr >= 40)
    }

    /// Pixels clearly green (the logo's disc), which the scene (green equals blue) never has.
    static func greenPixels(_ b: PixelBuffer) -> [(Int, Int)] {
        let n = b.format.channels
        var found: [(Int, Int)] = []
        b.withUnsafeBytes { raw in
            for y in 0..<b.height {
                for x in 0..<b.width {
                    let i = y * b.bytesPerRow + n * x
                    let (r, g, bl) = (Int(raw[i]), Int(raw[i + 1]), Int(raw[i + 2]))
                    if g - max(r, bl) > 60 { found.append((x, y)) }
                }
            }
        }
        return found
    }

    @Test("A logo on the photo only: in the still's corner, in no frame of the movie (E5)")
    func logoOnPhotoOnly() async throws {
        let dir = try TemporaryDirectory()
        let pair = try Self.makeCoordinatePair(in: dir)
        let logo = try LivePhotoEditingSamples.makeLogo(diameter: 80)
        let saved = try await Self.save(pair, in: dir, name: "logo") { LivePhotoEditingSamples.applyLogo(logo, to: $0, margin: 16) }
        #expect(saved.still.width == 640 && saved.still.height == 480)
        // The disc: centre (584, 424), radius 40, a white centre of radius 14.
        let green = Self.greenPixels(saved.still)
        let ring = Double.pi * (40 * 40 - 14 * 14)
        let inside = green.filter { p in
            let (dx, dy) = (Double(p.0) + 0.5 - 584, Double(p.1) + 0.5 - 424)
            return dx * dx + dy * dy <= 41 * 41
        }
        print("logo: \(green.count) green pixels in the still (the ring is \(Int(ring))), \(inside.count) of them in the disc")
        #expect(Double(green.count) > 0.85 * ring && Double(green.count) < 1.1 * ring)
        #expect(inside.count == green.count, "green only where the logo is")
        let n = saved.still.format.channels
        let centre = saved.still.withUnsafeBytes { raw in (0..<3).map { Int(raw[424 * saved.still.bytesPerRow + n * 584 + $0]) } }
        #expect(centre.allSatisfy { $0 > 230 }, "the logo's white centre: \(centre)")
        #expect(saved.frames.count == 15)
        for (k, frame) in saved.frames.enumerated() {
            #expect(frame.width == 320 && frame.height == 240)
            let g = Self.greenPixels(frame)
            #expect(g.isEmpty, "movie frame \(k) has \(g.count) green pixels")
        }
    }
}
