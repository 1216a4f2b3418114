import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import DaguerreTestSupport
import Foundation
import Testing

/// Live Photos for the editing tests: the real iPhone 6s pair, and small pairs made here with a
/// known picture (a grey ramp with a red disc) and a 440 Hz tone.
enum LivePhotoFixtures {
    static var iPhoneStill: URL { Fixture.thirdParty.appendingPathComponent("lychee_iphone6s_live_train.jpg") }
    static var iPhoneMovie: URL { Fixture.thirdParty.appendingPathComponent("lychee_iphone6s_live_train.mov") }

    /// An RGBA picture: a horizontal ramp with a red disc at (`cx`, `cy`) of radius `r`, as a
    /// viewer shows it; stored turned so that EXIF `orientation` (1–8) shows it upright (a
    /// quarter turn stores it `height`×`width`).
    static func picture(width: Int, height: Int, disc: (Double, Double, Double), orientation: Int = 1) throws -> PixelBuffer {
        let quarter = orientation >= 5
        let (sw, sh) = quarter ? (height, width) : (width, height)
        var buffer = try PixelBuffer(width: sw, height: sh, format: .rgba8, colorSpace: .sRGB)
        buffer.withUnsafeMutableBytes { raw in
            for sy in 0..<sh {
                for sx in 0..<sw {
                    let (x, y) = displayed(sx, sy, width: sw, height: sh, orientation: orientation)
                    let dx = Double(x) + 0.5 - disc.0
                    let dy = Double(y) + 0.5 - disc.1
                    let inside = dx * dx + dy * dy < disc.2 * disc.2
                    let ramp = UInt8(40 + 160 * x / max(1, width - 1))
                    let i = (sy * sw + sx) * 4
                    raw[i] = inside ? 220 : ramp
                    raw[i + 1] = inside ? 20 : ramp
                    raw[i + 2] = inside ? 20 : ramp
                    raw[i + 3] = 255
                }
            }
        }
        return buffer
    }

    /// Where stored pixel (`sx`, `sy`) of a `width`×`height` image appears when EXIF
    /// `orientation` turns it upright.
    static func displayed(_ sx: Int, _ sy: Int, width w: Int, height h: Int, orientation: Int) -> (Int, Int) {
        switch orientation {
        case 2: (w - 1 - sx, sy)
        case 3: (w - 1 - sx, h - 1 - sy)
        case 4: (sx, h - 1 - sy)
        case 5: (sy, sx)
        case 6: (h - 1 - sy, sx)
        case 7: (h - 1 - sy, w - 1 - sx)
        case 8: (sy, w - 1 - sx)
        default: (sx, sy)
        }
    }

    /// A pair: a `stillWidth`×`stillHeight` JPEG and a movie of `frames` frames at 15 fps, half
    /// the still's size, with a tone; the still at frame `frames / 2`. With an `orientation`
    /// other than 1, both are stored turned: the JPEG with that EXIF orientation, the movie
    /// with the display matrix that turns it the same way (as iPhones since iOS 11 record).
    static func makePair(
        in dir: TemporaryDirectory, name: String = "IMG", stillWidth: Int = 640, stillHeight: Int = 480, frames: Int = 12,
        orientation: Int = 1, codec: VideoCodec = .h264
    ) throws -> LivePhotoPair {
        let still = SampleBuffer(
            pixels: try picture(
                width: stillWidth, height: stillHeight,
                disc: (0.3 * Double(stillWidth), 0.4 * Double(stillHeight), 0.1 * Double(stillWidth)), orientation: orientation),
            photoMetadata: {
                var m = PhotoMetadata()
                m.make = "Daguerre"
                m.model = "fixture"
                m.orientation = orientation
                return m
            }())
        let (w, h) = (stillWidth / 2, stillHeight / 2)
        let (sw, sh) = orientation >= 5 ? (h, w) : (w, h)
        var settings = MovieSettings(
            width: sw, height: sh, frameRate: 15, bitRate: 2_000_000, audio: .init(sampleRate: 44_100, channels: 1))
        settings.transform = try TrackTransform(exifOrientation: orientation, width: sw, height: sh)
        settings.videoCodec = codec
        settings.stillImageTime = MediaTime(value: Int64(frames / 2) * 40, timescale: 600)
        settings.creationDate = Date(timeIntervalSince1970: 1_700_000_000)
        let tone = (0..<(frames * 2940)).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) }
        return try LivePhotoPair.write(
            still: still, preview: nil, stillPath: dir.path("\(name).JPG"), moviePath: dir.path("\(name).MOV"), movie: settings
        ) { (recorder) throws(DaguerreError) in
            for i in 0..<frames {
                let x = (0.2 + 0.02 * Double(i)) * Double(w)
                let frame: PixelBuffer
                do {
                    frame = try picture(width: w, height: h, disc: (x, 0.4 * Double(h), 0.1 * Double(w)), orientation: orientation)
                } catch let e as DaguerreError {
                    throw e
                } catch { throw .processorFailed(name: "test frames", reason: "\(error)") }
                try recorder.append(frame: frame, at: MediaTime(value: Int64(i) * 40, timescale: 600))
            }
            try recorder.append(audio: tone)
        }
    }

    /// The layouts phones write a Motion Photo in.
    enum MotionPhotoLayout: String, CaseIterable, Sendable {
        /// Google's Motion Photo 1.0 with `Container:` names (Pixel 6 and later).
        case container
        /// The same directory under the older `GContainer:` / `GContainerItem:` names (Pixel 3–5).
        case gContainer
        /// Samsung's MicroVideo: GCamera:MicroVideoOffset from the end of the file, and no directory.
        case microVideo
        /// Samsung's JPEG: a `MotionPhoto_Data` marker before the MP4, a `SEFH`…`SEFT` trailer
        /// after it, and a directory length that counts neither (so it is wrong).
        case samsungTrailer
    }

    /// A Motion Photo in `layout`, made from a pair written here; the still at frame 6 of 12.
    static func makeMotionPhoto(in dir: TemporaryDirectory, layout: MotionPhotoLayout) throws -> URL {
        let pair = try makePair(in: dir, name: "SRC-\(layout.rawValue)")
        let video = try MotionPhotoVideo.mp4(fromLivePhotoMovie: pair.moviePath)
        let still = try ImageSource.readFile(pair.stillPath)
        let time = Int64(((pair.stillImageTime?.seconds ?? 0) * 1_000_000).rounded())
        let container = try MotionPhoto.make(primary: still, video: video, presentationTimestampUs: time)
        let file: [UInt8]
        switch layout {
        case .container:
            file = container
        case .gContainer:
            let primary = Array(container[0..<(container.count - video.count)])
            var xmp = try #require(try JPEGFileMetadata(bytes: primary).xmp).serialized()
            xmp = xmp.replacingOccurrences(of: "xmlns:Container=", with: "xmlns:GContainer=")
                .replacingOccurrences(of: "xmlns:Item=", with: "xmlns:GContainerItem=")
                .replacingOccurrences(of: "Container:", with: "GContainer:")
                .replacingOccurrences(of: "Item:", with: "GContainerItem:")
                .replacingOccurrences(of: "GGContainer", with: "GContainer")
            #expect(xmp.contains("GContainer:Directory") && xmp.contains("GContainerItem:Length"))
            file = try replacingXMP(in: still, with: xmp) + video
        case .microVideo:
            var packet = XMPPacket()
            packet.set("MicroVideo", "1", in: .googleCamera)
            packet.set("MicroVideoVersion", "1", in: .googleCamera)
            packet.set("MicroVideoOffset", String(video.count), in: .googleCamera)
            packet.set("MicroVideoPresentationTimestampUs", String(time), in: .googleCamera)
            file = try replacingXMP(in: still, with: packet.serialized()) + video
        case .samsungTrailer:
            let marker = Array("MotionPhoto_Data".utf8)
            let trailer = Array("SEFH".utf8) + [UInt8](repeating: 0, count: 40) + Array("SEFT".utf8)
            file = container[0..<(container.count - video.count)] + marker + video + trailer
        }
        let url = dir.url.appendingPathComponent("\(layout.rawValue).MP.jpg")
        try AtomicFile.write(file, to: url.path)
        return url
    }

    /// `jpeg` with its XMP replaced by `packet` (the EXIF kept).
    static func replacingXMP(in jpeg: [UInt8], with packet: String) throws -> [UInt8] {
        let scan = try JPEGMarkerScanner(jpeg)
        var segments: [JPEGSegment] = []
        for s in scan.segments where s.marker == 0xE1 && jpeg[s.payload].starts(with: JPEGSegment.exifIdentifier) {
            segments.append(JPEGSegment(marker: 0xE1, payload: Array(jpeg[s.payload])))
        }
        segments.append(.xmp(packet))
        return try JPEGFileMetadata.replacingMetadata(in: jpeg, with: segments, scan: scan)
    }
}
