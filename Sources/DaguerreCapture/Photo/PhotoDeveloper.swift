// How a processed photo is made from the sensor's mosaic (SPEC P3, P12, V1–V4, W5): by the same
// RAWFilter pipeline that develops DNGs (noise reduction from the frame's noise profile,
// LMMSE-GW demosaic, highlight recovery), rendered colorimetrically into the session's colour
// space, then delivered as JPEG (streamed into the encoder), BGRA or 4:2:0 Y'CbCr. A preview is a
// draft develop at the preview's own size, in the preview's format.
//
// Noise reduction follows the frame's noise, as a camera's ISP does: it runs where the noise at
// mid grey is 0.75 % of white or more (about two 8-bit codes once encoded), and is left out in
// good light at base ISO, where it would take a third of the develop's time for noise below
// that (SPEC P13's stabilized photos carry the burst's lower noise profile, so the same rule
// applies to them).
import DaguerreCore
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
            // Scaled to cover the box, so its last row and column are picture, not edge.
            filter.scaleFactor = min(
                1, max(Double(draftSize.width) / Double(mosaic.width), Double(draftSize.height) / Double(mosaic.height)))
        }
        let image = try filter.outputImage()
        var bounds = image.extent
        if let draftSize, draftSize.width > 0 {
            bounds = Rect(x: bounds.minX, y: bounds.minY, width: Double(draftSize.width), height: Double(draftSize.height))
        }
        return (image, bounds)
    }

    /// An uncompressed photo (or, with `draftSize`, a preview) from a RAW sample buffer, rendered
    /// once in `pixel`'s layout: BGRA8 straight from the engine, or 4:2:0 Y'CbCr with the BT.709
    /// matrix in full range (420f) or video range (420v), from RGB8.
    func pixels(
        _ raw: SampleBuffer, as pixel: PixelFormatType, colorSpace: ColorSpace, metadata: PhotoMetadata = PhotoMetadata(),
        draftSize: CaptureDimensions? = nil
    ) throws(DaguerreError) -> SampleBuffer {
        let (image, bounds) = try image(raw, draftSize: draftSize)
        let content: SampleBuffer.Content
        switch pixel {
        case .bgra:
            content = .pixels(try context.createBuffer(image, bounds: bounds, format: .bgra8, colorSpace: colorSpace))
        case .yuv420FullRange, .yuv420VideoRange:
            let rgb = try context.createBuffer(image, bounds: bounds, format: .rgb8, colorSpace: colorSpace)
            content = .yCbCr420(try YCbCrConversion.makeYCbCr420(from: rgb, fullRange: pixel == .yuv420FullRange))
        default:
            throw .unsupported(feature: "photos in \(pixel.fourCC)", hint: "Ask for BGRA, 420f, 420v or JPEG.")
        }
        var buffer = try SampleBuffer(content: content, colorSpace: colorSpace, metadata: raw.metadata)
        buffer.photoMetadata = metadata
        return buffer
    }

    /// A JPEG photo straight from the RAW sample buffer: the develop's rows stream into the
    /// encoder, so encoding overlaps rendering and no whole RGB buffer is made.
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
}
