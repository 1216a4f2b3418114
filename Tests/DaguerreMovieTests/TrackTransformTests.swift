import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

@Suite("Track display matrix: read and written, judged by ffprobe and exiftool")
struct TrackTransformTests {
    /// Where EXIF puts the stored image's row 0 and column 0 on screen (EXIF 2.32, tag 0x0112):
    /// the definition itself, independent of the code under test.
    static let exifSides: [Int: (row0: String, column0: String)] = [
        1: ("top", "left"), 2: ("top", "right"), 3: ("bottom", "right"), 4: ("bottom", "left"),
        5: ("left", "top"), 6: ("right", "top"), 7: ("right", "bottom"), 8: ("left", "bottom"),
    ]

    /// The side of the displayed box that a stored point lands on, through matrix `m`.
    static func side(of point: (Double, Double), _ m: TrackTransform, width: Double, height: Double) -> String {
        let x = m.a * point.0 + m.c * point.1 + m.x
        let y = m.b * point.0 + m.d * point.1 + m.y
        // The displayed box: the transformed frame, which the translation puts at the origin.
        let turned = m.a == 0
        let (bw, bh) = turned ? (height, width) : (width, height)
        if abs(y) < 1e-9 { return "top" }
        if abs(y - bh) < 1e-9 { return "bottom" }
        if abs(x) < 1e-9 { return "left" }
        if abs(x - bw) < 1e-9 { return "right" }
        return "inside (\(x), \(y))"
    }

    @Test("Each EXIF orientation's matrix puts row 0 and column 0 where EXIF says, and reads back as that orientation")
    func exifGeometry() throws {
        let (w, h) = (320.0, 240.0)
        for o in 1...8 {
            let m = try TrackTransform(exifOrientation: o, width: Int(w), height: Int(h))
            let sides = try #require(Self.exifSides[o])
            // The middle of row 0 and of column 0 (the corners would sit on two sides at once).
            #expect(Self.side(of: (w / 2, 0), m, width: w, height: h) == sides.row0, "EXIF \(o) row 0")
            #expect(Self.side(of: (0, h / 2), m, width: w, height: h) == sides.column0, "EXIF \(o) column 0")
            // All four corners land inside the displayed box: the translation is right.
            for corner in [(0.0, 0.0), (w, 0), (0, h), (w, h)] {
                let x = m.a * corner.0 + m.c * corner.1 + m.x
                let y = m.b * corner.0 + m.d * corner.1 + m.y
                #expect(x >= 0 && y >= 0 && x <= max(w, h) && y <= max(w, h), "EXIF \(o) corner \(corner)")
            }
            #expect(m.exifOrientation == o)
            #expect(m.isMirrored == [2, 4, 5, 7].contains(o))
            #expect(m.rotation == [1: 0, 6: 90, 3: 180, 8: 270][o])
            #expect(m.u == 0 && m.v == 0 && m.w == 1)
            // Through the file's fixed point and back.
            #expect(TrackTransform(fixedPoint: m.fixedPoint) == m)
        }
        #expect(try TrackTransform(exifOrientation: 1, width: 320, height: 240) == .identity)
        // Portrait iPhone movies: [0 1 −1 0] with x = the height.
        #expect(try TrackTransform(rotation: 90, width: 1920, height: 1080) == TrackTransform(a: 0, b: 1, c: -1, d: 0, x: 1080, y: 0))
        #expect(try TrackTransform(rotation: -90, width: 8, height: 6).rotation == 270)
        #expect(try TrackTransform(rotation: 450, mirrored: true, width: 8, height: 6).exifOrientation == 7)
        expectDaguerreError("EXIF 9", { if case .invalidArgument = $0 { true } else { false } }) {
            _ = try TrackTransform(exifOrientation: 9, width: 8, height: 6)
        }
        expectDaguerreError("45°", { if case .invalidArgument = $0 { true } else { false } }) {
            _ = try TrackTransform(rotation: 45, width: 8, height: 6)
        }
    }

    @Test("Matrices that are no right-angle turn: rotation nil, EXIF orientation the nearest; scale ignored")
    func otherMatrices() {
        let s = 0.5.squareRoot()
        let tilt30 = TrackTransform(a: 0.866, b: 0.5, c: -0.5, d: 0.866)
        #expect(tilt30.rotation == nil && tilt30.exifOrientation == 1)
        let tilt60 = TrackTransform(a: 0.5, b: 0.866, c: -0.866, d: 0.5)
        #expect(tilt60.rotation == nil && tilt60.exifOrientation == 6)
        #expect(TrackTransform(a: s, b: s, c: -s, d: s).rotation == nil)
        #expect(TrackTransform(a: 0, b: 2, c: -2, d: 0).rotation == 90)
        #expect(TrackTransform(a: 0, b: 0, c: 0, d: 0).rotation == nil)
        #expect(TrackTransform(a: 0, b: 0, c: 0, d: 0).exifOrientation == 1)
        // One least-significant bit of 16.16 off the axis is not a tilt.
        #expect(TrackTransform(a: 1.0 / 65536, b: 1, c: -1, d: 0).rotation == 90)
        // Out-of-range values are clamped when written, not trapped.
        #expect(TrackTransform(a: 1e9, b: .nan, c: 0, d: 1).fixedPoint[0] == Int32.max)
        #expect(TrackTransform(a: 1e9, b: .nan, c: 0, d: 1).fixedPoint[1] == 0)
    }

    /// ffprobe's display-matrix rotation (counter-clockwise degrees) of the first video stream.
    static func ffprobeRotation(_ path: String) throws -> Int? {
        let video = try MovieProbe(path).video
        let side = video?["side_data_list"] as? [[String: Any]] ?? []
        return side.first { $0["side_data_type"] as? String == "Display Matrix" }?["rotation"] as? Int
    }

    /// exiftool's composite Rotation and the first track's MatrixStructure.
    static func exiftoolMatrix(_ path: String) throws -> (rotation: Int?, matrix: [Double]) {
        let lines = try MovieFixture.exiftool(path, ["-Rotation", "-MatrixStructure"])
        let rotation = MovieFixture.value(lines, group: "Composite", tag: "Rotation").flatMap { Int($0) }
        let matrix = (MovieFixture.value(lines, group: "Track1", tag: "MatrixStructure") ?? "").split(separator: " ").compactMap {
            Double($0)
        }
        return (rotation, matrix)
    }

    /// Our clockwise rotation as ffprobe's counter-clockwise one (−180…180; 180 printed as −180 by ffprobe 5.1).
    static func counterClockwise(_ clockwise: Int) -> Int {
        clockwise == 0 ? 0 : clockwise == 180 ? -180 : clockwise <= 180 ? -clockwise : 360 - clockwise
    }

    @Test("Movies recorded with each of the eight orientations read back with the same matrix; ffprobe and exiftool agree")
    func recorded() throws {
        let dir = try TemporaryDirectory()
        let (w, h) = (160, 120)
        let source = try MovieFixture.Source(width: w, height: h, frames: 3)
        var table: [String] = ["matrix | ours: rotation, EXIF, mirrored | ffprobe rotation | exiftool Rotation | exiftool MatrixStructure"]
        for (rotation, mirrored) in [(0, false), (90, false), (180, false), (270, false), (0, true), (90, true), (180, true), (270, true)] {
            let transform = try TrackTransform(rotation: rotation, mirrored: mirrored, width: w, height: h)
            let path = dir.path("r\(rotation)\(mirrored ? "m" : "").mov")
            var settings = MovieSettings(width: w, height: h, bitRate: 200_000)
            settings.transform = transform
            try MovieFixture.record(path, source: source, frames: 3, settings: settings)
            let video = try #require(try MovieReader(path: path).tracks.first { $0.mediaType == .video })
            #expect(video.transform == transform)
            #expect(video.transform.rotation == (mirrored ? nil : rotation))
            #expect(video.transform.isMirrored == mirrored)
            let probe = try Self.ffprobeRotation(path)
            let exif = try Self.exiftoolMatrix(path)
            table.append(
                "\(rotation)\(mirrored ? " mirrored" : "") | \(video.transform.rotation.map(String.init) ?? "nil"), \(video.transform.exifOrientation), \(video.transform.isMirrored) | \(probe.map(String.init) ?? "none") | \(exif.rotation.map(String.init) ?? "none") | \(exif.matrix.map { String(format: "%g", $0) }.joined(separator: " "))"
            )
            // exiftool's MatrixStructure is the nine values as numbers: exactly ours.
            let m = video.transform
            #expect(exif.matrix == [m.a, m.b, m.u, m.c, m.d, m.v, m.x, m.y, m.w], "\(path)")
            if !mirrored {
                #expect(exif.rotation == rotation, "exiftool \(path)")
                // ffprobe prints no side data for the identity matrix.
                #expect(probe == (rotation == 0 ? nil : Self.counterClockwise(rotation)), "ffprobe \(path)")
            }
            #expect(try Judge.ffmpegDecodeMessages(path).isEmpty)
        }
        print(table.joined(separator: "\n"))
    }

    @Test("HEVC movies rotated by ffmpeg read with the rotation ffprobe and exiftool give")
    func ffmpegHEVC() throws {
        let dir = try TemporaryDirectory()
        let plain = dir.path("plain.mov")
        // libx265 through ffmpeg (Debian's ffmpeg has it); ffmpeg 5.1 only applies the rotate tag when copying streams.
        try Judge.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=15", "-t", "1", "-c:v", "libx265",
                "-x265-params", "log-level=error", "-tag:v", "hvc1", plain,
            ])
        var table: [String] = ["ffmpeg rotate tag | ours: rotation, EXIF | ffprobe | exiftool"]
        for tag in [90, 180, 270] {
            let path = dir.path("hevc\(tag).mov")
            try Judge.run("ffmpeg", ["-v", "error", "-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(tag)", path])
            let video = try #require(try MovieReader(path: path).tracks.first { $0.mediaType == .video })
            #expect(video.codec == "hvc1" && video.width == 320 && video.height == 240)
            let ours = try #require(video.transform.rotation)
            let probe = try #require(try Self.ffprobeRotation(path))
            let exif = try Self.exiftoolMatrix(path)
            table.append("\(tag) | \(ours), \(video.transform.exifOrientation) | \(probe) | \(exif.rotation.map(String.init) ?? "none")")
            #expect(probe == Self.counterClockwise(ours))
            #expect(exif.rotation == ours)
            #expect(
                exif.matrix == [
                    video.transform.a, video.transform.b, 0, video.transform.c, video.transform.d, 0, video.transform.x, video.transform.y,
                    1,
                ])
        }
        print(table.joined(separator: "\n"))
    }

    @Test("Real iPhone movies: the 6s Live Photo is unrotated, the 14 Pro portrait HEVC movie turns 90° clockwise (EXIF 6)")
    func iPhones() throws {
        let six = Fixture.thirdParty.appendingPathComponent("lychee_iphone6s_live_train.mov").path
        let sixVideo = try #require(try MovieReader(path: six).tracks.first { $0.mediaType == .video })
        #expect(sixVideo.transform == .identity && sixVideo.transform.rotation == 0 && sixVideo.transform.exifOrientation == 1)
        #expect(try Self.ffprobeRotation(six) == nil)

        let fourteen = Fixture.thirdParty.appendingPathComponent("media3_iphone14pro_dolbyvision_hdr.mov").path
        let movie = try MovieReader(path: fourteen)
        let video = try #require(movie.tracks.first { $0.mediaType == .video })
        #expect(video.codec == "hvc1" && video.width == 1280 && video.height == 720)
        #expect(video.transform == TrackTransform(a: 0, b: 1, c: -1, d: 0, x: 720, y: 0))
        #expect(video.transform == (try TrackTransform(exifOrientation: 6, width: 1280, height: 720)))
        #expect(video.transform.rotation == 90 && video.transform.exifOrientation == 6 && !video.transform.isMirrored)
        #expect(try Self.ffprobeRotation(fourteen) == -90)
        #expect(try Self.exiftoolMatrix(fourteen).rotation == 90)
        // Its other tracks (audio, three mebx) carry the identity.
        #expect(movie.tracks.filter { $0.mediaType != .video }.allSatisfy { $0.transform == .identity })
    }
}
