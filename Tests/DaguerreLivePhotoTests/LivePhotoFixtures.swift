import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import DaguerreTestSupport
import Foundation

/// Live Photos for the editing tests: the real iPhone 6s pair, and small pairs made here with a
/// known picture (a grey ramp with a red disc) and a 440 Hz tone.
enum LivePhotoFixtures {
    static var iPhoneStill: URL { Fixture.thirdParty.appendingPathComponent("lychee_iphone6s_live_train.jpg") }
    static var iPhoneMovie: URL { Fixture.thirdParty.appendingPathComponent("lychee_iphone6s_live_train.mov") }

    /// An RGBA picture: a horizontal ramp with a red disc at (`cx`, `cy`) of radius `r`.
    static func picture(width: Int, height: Int, disc: (Double, Double, Double)) throws -> PixelBuffer {
        var buffer = try PixelBuffer(width: width, height: height, format: .rgba8, colorSpace: .sRGB)
        buffer.withUnsafeMutableBytes { raw in
            for y in 0..<height {
                for x in 0..<width {
                    let dx = Double(x) + 0.5 - disc.0
                    let dy = Double(y) + 0.5 - disc.1
                    let inside = dx * dx + dy * dy < disc.2 * disc.2
                    let ramp = UInt8(40 + 160 * x / max(1, width - 1))
                    let i = (y * width + x) * 4
                    raw[i] = inside ? 220 : ramp
                    raw[i + 1] = inside ? 20 : ramp
                    raw[i + 2] = inside ? 20 : ramp
                    raw[i + 3] = 255
                }
            }
        }
        return buffer
    }

    /// A pair: a `stillWidth`×`stillHeight` JPEG and a movie of `frames` frames at 15 fps, half
    /// the still's size, with a tone; the still at frame `frames / 2`.
    static func makePair(in dir: TemporaryDirectory, name: String = "IMG", stillWidth: Int = 640, stillHeight: Int = 480, frames: Int = 12)
        throws -> LivePhotoPair
    {
        let still = SampleBuffer(
            pixels: try picture(
                width: stillWidth, height: stillHeight,
                disc: (0.3 * Double(stillWidth), 0.5 * Double(stillHeight), 0.1 * Double(stillWidth))),
            photoMetadata: {
                var m = PhotoMetadata()
                m.make = "Daguerre"
                m.model = "fixture"
                return m
            }())
        let (w, h) = (stillWidth / 2, stillHeight / 2)
        var settings = MovieSettings(width: w, height: h, frameRate: 15, bitRate: 2_000_000, audio: .init(sampleRate: 44_100, channels: 1))
        settings.stillImageTime = MediaTime(value: Int64(frames / 2) * 40, timescale: 600)
        settings.creationDate = Date(timeIntervalSince1970: 1_700_000_000)
        let tone = (0..<(frames * 2940)).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / 44_100)) }
        return try LivePhotoPair.write(
            still: still, preview: nil, stillPath: dir.path("\(name).JPG"), moviePath: dir.path("\(name).MOV"), movie: settings
        ) { (recorder) throws(DaguerreError) in
            for i in 0..<frames {
                let x = (0.2 + 0.02 * Double(i)) * Double(w)
                let frame: PixelBuffer
                do { frame = try picture(width: w, height: h, disc: (x, 0.5 * Double(h), 0.1 * Double(w))) } catch let e as DaguerreError {
                    throw e
                } catch { throw .processorFailed(name: "test frames", reason: "\(error)") }
                try recorder.append(frame: frame, at: MediaTime(value: Int64(i) * 40, timescale: 600))
            }
            try recorder.append(audio: tone)
        }
    }
}
