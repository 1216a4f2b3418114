// Small photographs and metadata made from formulas, for the tests of photo files.
import DaguerreCore
import Foundation

/// A photo's metadata with every field set, and gradient images to carry it.
///
/// ```swift
/// let photo = SampleBuffer(pixels: try TestPhotos.gradient(width: 64, height: 48), photoMetadata: TestPhotos.metadata())
/// ```
public enum TestPhotos {
    public static let uuid = "F1A8E2C4-3B6D-4E1F-9A7C-2D5B8E0F1A3C"

    public static func metadata() -> PhotoMetadata {
        var m = PhotoMetadata(make: "Daguerre", model: "Virtual Back Camera", software: "Daguerre 0.1")
        m.dateTimeOriginal = Date(timeIntervalSince1970: 1_763_700_000.25)
        m.timeZoneOffset = -5 * 3600
        m.exposureTime = 1.0 / 120
        m.fNumber = 1.8
        m.iso = 200
        m.focalLength = 3.99
        m.focalLengthIn35mmFilm = 28
        m.flash = PhotoMetadata.FlashValue.autoFired
        m.orientation = 6
        m.lensModel = "Daguerre back camera 3.99mm f/1.8"
        m.gps = GPSLocation(latitude: 48.858370, longitude: -2.294481, altitude: 35.5)
        m.livePhotoContentIdentifier = uuid
        return m
    }

    public static func gradient(width: Int, height: Int, format: PixelFormat = .rgb8, space: ColorSpace = .displayP3) throws -> PixelBuffer
    {
        var p = try PixelBuffer(width: width, height: height, format: format, colorSpace: space, alpha: .straight)
        let bpp = format.bytesPerPixel
        let stride = p.bytesPerRow
        p.withUnsafeMutableBytes { b in
            for y in 0..<height {
                for x in 0..<width {
                    b[y * stride + x * bpp] = UInt8(x * 255 / max(1, width - 1))
                    b[y * stride + x * bpp + 1] = UInt8(y * 255 / max(1, height - 1))
                    b[y * stride + x * bpp + 2] = 128
                    if bpp == 4 { b[y * stride + x * bpp + 3] = 255 }
                }
            }
        }
        return p
    }
}
