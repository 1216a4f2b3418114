// How a processed photo is made from the sensor's mosaic (SPEC P3, P12, V1–V4, W5): by the same
// RAWFilter pipeline that develops DNGs (noise reduction from the frame's noise profile,
// LMMSE-GW demosaic, highlight recovery), rendered colorimetrically into the session's colour
// space, then delivered as JPEG, BGRA or 4:2:0 Y'CbCr. Previews are the photo scaled into their
// box; a RAW-only request's preview is a draft develop at the preview's size.
//
// Noise reduction follows the frame's noise, as a camera's ISP does: it runs where the noise at
// mid grey is 0.75 % of white or more (about two 8-bit codes once encoded), and is left out in
// good light at base ISO, where it would take a third of the develop's time for noise below
// that (SPEC P13's stabilized photos carry the burst's lower noise profile, so the same rule
// applies to them).
import DaguerreCore
import DaguerreFormats
import DaguerreImage
import DaguerreMovie
import DaguerreRAW

struct PhotoDeveloper: Sendable {
    let context: Context

    init() throws(DaguerreError) {
        context = try Context()
    }

    /// The developed image of a RAW sample buffer (lazy: nothing renders yet), and its bounds;
    /// with `draftSize`, a draft develop scaled to that size.
    func image(_ raw: SampleBuffer, draftSize: CaptureDimensions? = nil) throws(DaguerreError) -> (Image, Rect) {
        guard case .bayer(let mosaic) = raw.content, let calibration = raw.rawCalibration else {
            throw .invalidArgument(what: "a photo's sensor still", problem: "it holds no Bayer mosaic with a colour calibration")
        }
        var filter = try RAWFilter(mosaic: mosaic, color: calibration, metadata: raw.photoMetadata)
        if Self.noiseAtMidGrey(calibration) < Self.noiseReductionFrom { filter.luminanceNoiseReductionAmount = 0 }
        if let draftSize, draftSize.width > 0, mosaic.width > 0 {
            filter.isDraftModeEnabled = true
            filter.scaleFactor = min(1, Double(draftSize.width) / Double(mosaic.width))
        }
        let image = try filter.outputImage()
        var bounds = image.extent
        if let draftSize, draftSize.width > 0 {
            bounds = Rect(x: bounds.minX, y: bounds.minY, width: Double(draftSize.width), height: Double(draftSize.height))
        }
        return (image, bounds)
    }

    /// The photo's RGB pixels (8-bit, in `colorSpace`) from a RAW sample buffer.
    func develop(_ raw: SampleBuffer, colorSpace: ColorSpace, draftSize: CaptureDimensions? = nil) throws(DaguerreError) -> PixelBuffer {
        let (image, bounds) = try image(raw, draftSize: draftSize)
        return try context.createBuffer(image, bounds: bounds, format: .rgb8, colorSpace: colorSpace)
    }

    /// A JPEG photo straight from the RAW sample buffer: the develop's rows stream into the
    /// encoder, so encoding overlaps rendering (used when no preview needs the whole image).
    func jpeg(_ raw: SampleBuffer, colorSpace: ColorSpace, metadata: PhotoMetadata) throws(DaguerreError) -> SampleBuffer {
        let (image, bounds) = try image(raw)
        var m = metadata
        m.pixelWidth = Int(bounds.width)
        m.pixelHeight = Int(bounds.height)
        m.colorSpace = colorSpace == .sRGB ? .sRGB : .uncalibrated
        let bytes = try context.jpegRepresentation(of: image, colorSpace: colorSpace, options: [.quality(Self.jpegQuality), .metadata(m)])
        var buffer = SampleBuffer(jpeg: bytes, photoMetadata: m, colorSpace: colorSpace, presentationTime: raw.metadata.timestamp)
        buffer.metadata = raw.metadata
        return buffer
    }

    /// The quality of captured JPEGs (Core Image's 0...1).
    static let jpegQuality = 0.9

    /// The noise (standard deviation, as a share of white) from which noise reduction runs.
    static let noiseReductionFrom = 0.0075

    /// The frame's noise at 18 % grey from its DNG NoiseProfile (the green pair when there is
    /// one per colour); infinite without a profile, so the develop keeps its default.
    static func noiseAtMidGrey(_ calibration: RawColorCalibration) -> Double {
        let pairs = calibration.noiseProfile
        guard let pair = pairs.count == 3 ? pairs[1] : pairs.first else { return .infinity }
        return max(pair.scale * 0.18 + pair.offset, 0).squareRoot()
    }

    /// `rgb` delivered as `format` (a codec or a pixel format), with `metadata` in a JPEG.
    func encode(_ rgb: PixelBuffer, as format: PhotoFormatValue, metadata: PhotoMetadata, frame: CaptureFrameMetadata)
        throws(DaguerreError) -> SampleBuffer
    {
        let space = rgb.colorSpace ?? .sRGB
        switch format {
        case .codec(.jpeg):
            var m = metadata
            m.pixelWidth = rgb.width
            m.pixelHeight = rgb.height
            m.colorSpace = space == .sRGB ? .sRGB : .uncalibrated
            let exif = JPEGSegment.exif(TIFFSerializer.file(EXIFCodec.directories(for: m, thumbnail: nil), byteOrder: .bigEndian))
            let bytes = try JPEGDataEncoder.encode(rgb, quality: Self.jpegQuality, segments: [exif], iccProfile: try space.iccProfileData())
            var buffer = SampleBuffer(jpeg: bytes, photoMetadata: m, colorSpace: space, presentationTime: frame.timestamp)
            buffer.metadata = frame
            return buffer
        case .pixelFormat(let pixel):
            var buffer = try SampleBuffer(content: try Self.pixels(rgb, as: pixel), colorSpace: space, metadata: frame)
            buffer.photoMetadata = metadata
            return buffer
        }
    }

    /// `rgb` in an uncompressed pixel format: BGRA8, or 4:2:0 Y'CbCr with the BT.709 matrix in
    /// full range (420f) or video range (420v).
    static func pixels(_ rgb: PixelBuffer, as pixel: PixelFormatType) throws(DaguerreError) -> SampleBuffer.Content {
        switch pixel {
        case .bgra: return .pixels(try bgra(rgb))
        case .yuv420FullRange: return .yCbCr420(try YCbCrConversion.makeYCbCr420(from: rgb, fullRange: true))
        case .yuv420VideoRange: return .yCbCr420(try YCbCrConversion.makeYCbCr420(from: rgb, fullRange: false))
        default: throw .unsupported(feature: "photos in \(pixel.fourCC)", hint: "Ask for BGRA, 420f, 420v or JPEG.")
        }
    }

    /// The preview: `rgb` fitted into `size`, in `pixel`.
    func preview(of rgb: PixelBuffer, size: CaptureDimensions, pixel: PixelFormatType, frame: CaptureFrameMetadata) throws(DaguerreError)
        -> SampleBuffer
    {
        var small = rgb
        if rgb.width != size.width || rgb.height != size.height {
            small = try PreviewScaler.fit(rgb, maxWidth: size.width, maxHeight: size.height)
            if small.width != size.width || small.height != size.height {
                small = try Self.cropped(small, to: size)
            }
        }
        return try SampleBuffer(content: try Self.pixels(small, as: pixel), colorSpace: rgb.colorSpace ?? .sRGB, metadata: frame)
    }

    /// An RGB8 buffer as BGRA8 (opaque).
    static func bgra(_ rgb: PixelBuffer) throws(DaguerreError) -> PixelBuffer {
        var out = try PixelBuffer(width: rgb.width, height: rgb.height, format: .bgra8, colorSpace: rgb.colorSpace)
        let w = rgb.width
        let h = rgb.height
        let srcRow = rgb.bytesPerRow
        let dstRow = out.bytesPerRow
        rgb.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                for y in 0..<h {
                    var s = y * srcRow
                    var d = y * dstRow
                    for _ in 0..<w {
                        dst[d] = src[s + 2]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s]
                        dst[d + 3] = 255
                        s += 3
                        d += 4
                    }
                }
            }
        }
        return out
    }

    /// The top-left `size` of an RGB8 buffer (drops a rounding pixel so 4:2:0 sizes are even).
    static func cropped(_ rgb: PixelBuffer, to size: CaptureDimensions) throws(DaguerreError) -> PixelBuffer {
        let w = min(size.width, rgb.width)
        let h = min(size.height, rgb.height)
        var out = try PixelBuffer(width: w, height: h, format: .rgb8, colorSpace: rgb.colorSpace)
        let srcRow = rgb.bytesPerRow
        let dstRow = out.bytesPerRow
        rgb.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                for y in 0..<h {
                    for i in 0..<(w * 3) { dst[y * dstRow + i] = src[y * srcRow + i] }
                }
            }
        }
        return out
    }
}
