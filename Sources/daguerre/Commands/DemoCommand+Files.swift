// The files part of `daguerre demo`: a photograph written as a JPEG with EXIF and a
// thumbnail, as a DNG, as a Live Photo pair, and as a Motion Photo.
import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreMovie
import Foundation

extension DemoCommand {
    /// Writes the file formats from one developed photograph, through the same calls a camera
    /// app makes (seed 501's jpeg/dngPhotoDataRepresentation, a Live Photo movie recorder).
    func filesDemo(photo: Image, context: Context, directory: URL) throws {
        func out(_ name: String) -> URL { directory.appendingPathComponent(name) }
        let timed = Self.timed
        print("Files (JPEG with EXIF, DNG, Live Photo, Motion Photo):")
        var metadata = PhotoMetadata(make: "Daguerre", model: "Demo", software: "daguerre demo")
        metadata.dateTimeOriginal = Date()
        metadata.timeZoneOffset = TimeZone.current.secondsFromGMT()
        metadata.exposureTime = 1.0 / 120
        metadata.fNumber = 1.8
        metadata.iso = 100
        metadata.focalLength = 3.99
        metadata.focalLengthIn35mmFilm = 28

        let rgb = try context.createBuffer(photo, format: .rgb8, colorSpace: .displayP3)
        let preview = SampleBuffer(pixels: try PreviewScaler.fit(rgb, maxWidth: 320, maxHeight: 320))
        try timed("photo-exif-P3.jpg (EXIF, MakerNote, P3 profile, thumbnail)") {
            let jpeg = try PhotoDataRepresentation.jpegPhotoDataRepresentation(
                forJPEGSampleBuffer: SampleBuffer(pixels: rgb, photoMetadata: metadata), previewPhotoSampleBuffer: preview)
            try AtomicFile.write(jpeg, to: out("photo-exif-P3.jpg").path)
        }

        // A 14-bit RGGB mosaic of the photograph in linear sRGB, as if a camera whose native
        // space is linear sRGB had taken it, with the matrices that say so.
        try timed("photo.dng (RGGB 14-bit, lossless JPEG tiles, preview)") {
            let linear = try context.createBuffer(photo, format: .rgbaf, colorSpace: .extendedLinearSRGB)
            var raw = try BayerImage(width: linear.width & ~1, height: linear.height & ~1, pattern: .rggb, bitsPerSample: 14)
            let black = 528.0
            let range = 16383.0 - 528.0
            raw.blackLevel = [black, black, black, black]
            raw.whiteLevel = 16383
            for y in 0..<raw.height {
                let row = linear.rowAddress(y).assumingMemoryBound(to: Float.self)
                for x in 0..<raw.width {
                    let v = Double(row[x * 4 + raw.pattern.color(x: x, y: y)])
                    raw.samples[y * raw.width + x] = UInt16(max(0, min(16383, black + 0.8 * range * v)))
                }
            }
            var calibration = RawColorCalibration()
            calibration.colorMatrix1 = Primaries.srgb.rgbToXYZ.inverse!.m  // XYZ → camera (= linear sRGB)
            calibration.calibrationIlluminant1 = .d65
            calibration.asShotNeutral = [1, 1, 1]
            let dng = try PhotoDataRepresentation.dngPhotoDataRepresentation(
                forRawSampleBuffer: SampleBuffer(raw: raw, calibration: calibration, photoMetadata: metadata),
                previewPhotoSampleBuffer: preview)
            try AtomicFile.write(dng, to: out("photo.dng").path)
        }

        // A Live Photo: 45 frames of a slow push-in on the photograph, 640×480 at 15 fps, the still at 1.5 s.
        var pair: LivePhotoPair?
        try timed("IMG_0001.JPG + IMG_0001.MOV (Live Photo pair, 45 frames)") {
            let settings = MovieSettings(
                width: 640, height: 480, frameRate: 15, bitRate: 3_000_000, colorSpace: .sRGB,
                audio: .init(sampleRate: 44_100, channels: 1), stillImageTime: MediaTime(seconds: 1.5))
            // Frames come from the developed photograph rendered once, not from the filter chain.
            let still = Image(buffer: rgb, colorSpace: .displayP3)
            let e = still.extent
            pair = try LivePhotoPair.write(
                still: SampleBuffer(pixels: rgb, photoMetadata: metadata), preview: preview,
                stillPath: out("IMG_0001.JPG").path, moviePath: out("IMG_0001.MOV").path,
                movie: settings
            ) { (recorder) throws(DaguerreError) in
                for i in 0..<45 {
                    let zoom = 1 + 0.2 * Double(i) / 44
                    let scale = max(640 / e.width, 480 / e.height) * zoom
                    let scaled = still.transformed(by: AffineTransform2D(scaleX: scale, y: scale), interpolation: .bilinear)
                    let x = ((e.width * scale - 640) / 2).rounded(.down)
                    let y = ((e.height * scale - 480) / 2).rounded(.down)
                    let frame = try context.createBuffer(
                        scaled, bounds: Rect(x: x, y: y, width: 640, height: 480), format: .rgba8, colorSpace: .sRGB)
                    try recorder.append(frame: frame, at: MediaTime(value: Int64(i), timescale: 15))
                    let tone = (0..<2940).map { n in Int16(3000 * sin(2 * Double.pi * 440 * Double(i * 2940 + n) / 44_100)) }
                    try recorder.append(audio: tone)
                }
            }
        }
        if let pair {
            try timed("IMG_0001.MP.jpg (Motion Photo from the pair)") {
                try AtomicFile.write(try pair.motionPhoto(), to: out("IMG_0001.MP.jpg").path)
            }
            print("  pair content identifier \(pair.contentIdentifier), still at \(pair.stillImageTime?.seconds ?? 0) s")
        }
    }
}
