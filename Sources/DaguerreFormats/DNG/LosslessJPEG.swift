// Lossless JPEG (ITU-T T.81 process 14: SOF3, Huffman coding, predictors 1–7) for DNG tiles with
// Compression = 7, written by hand because libjpeg-turbo 2.1 has no lossless mode (TOOLCHAIN.md).
// SPEC R1 (14-bit Bayer RAW) and R5 (a lossless-compressed DNG); DNG 1.4.0.0 specification,
// "Compression" tag, value 7: lossless JPEG, where Bayer tiles are usually stored with the
// "two-component trick" (a TW×TH tile as a frame TW/2 wide with 2 interleaved components).
import DaguerreCore

/// Lossless JPEG (ITU-T T.81 process 14, the SOF3 frame) encoding and decoding of 16-bit samples,
/// the codec of DNG's Compression = 7 tiles and strips.
///
/// The encoder writes one frame and one interleaved scan with an optimal Huffman table built
/// from the tile's own differences (T.81 Annex K.2), so each tile costs two passes over its
/// samples and no tuning. The decoder reads what third-party DNG writers produce: 1–4
/// components, precision 2–16, predictors 1–7, a point transform, up to four Huffman tables,
/// restart intervals, fill bytes and APPn/COM segments. Hostile input throws a
/// ``DaguerreError``; it never traps and never writes outside the buffer it was given.
///
/// Both directions work straight on the caller's memory (`rowStride` is in samples), so a DNG
/// writer encodes tiles of a Bayer image without copying them, on as many threads as it likes:
/// the functions keep no state.
///
/// ```swift
/// // A 256×256 tile of a 14-bit Bayer image `image` (imageWidth samples per row), at (x, y):
/// let tile = try LosslessJPEG.encode(samples: image + y * imageWidth + x, rowStride: imageWidth,
///                                    width: 128, height: 256, components: 2, precision: 14)
/// // ... and back, into the same place of another image:
/// let header = try tile.withUnsafeBytes { bytes in
///     try LosslessJPEG.decode(bytes, into: other + y * imageWidth + x, rowStride: imageWidth,
///                             capacity: imageWidth * (imageHeight - y) - x)
/// }
/// ```
public enum LosslessJPEG {
    /// Encodes `height` rows of a frame `width` pixels wide with `components` interleaved
    /// components per pixel: row `r` is the `width * components` samples at `samples + r * rowStride`.
    ///
    /// `precision` is 2...16 bits (every sample must fit it); `predictor` is 1...7 (T.81 Table
    /// H.1; 1, the left neighbour, is DNG's usual choice). One Huffman table, optimal for this
    /// frame's differences (T.81 Annex K.2, code lengths limited to 16), serves all components:
    /// per-component tables would cost a DHT each and gain little on Bayer data.
    /// For a Bayer tile use the two-component trick: `width` = tile width / 2, `components` = 2,
    /// so predictor 1 predicts each sample from the same-colour sample two to its left.
    public static func encode(
        samples: UnsafePointer<UInt16>, rowStride: Int, width: Int, height: Int,
        components: Int, precision: Int, predictor: Int = 1
    ) throws(DaguerreError) -> [UInt8] {
        try LosslessJPEGEncoder.encode(
            samples: samples, rowStride: rowStride, width: width, height: height,
            components: components, precision: precision, predictor: predictor)
    }

    /// Parses the markers up to the scan header and returns the frame's description, without
    /// decoding any samples (to size a buffer, or to check a tile against its DNG tags).
    public static func readHeader(_ bytes: UnsafeRawBufferPointer) throws(DaguerreError) -> LosslessJPEGHeader {
        try LosslessJPEGStream(bytes).header
    }

    /// Decodes a frame into a caller buffer: frame row `r` (`width * components` samples,
    /// components interleaved) goes to `destination + r * rowStride`.
    ///
    /// `capacity` is the number of samples writable from `destination`; a frame that needs more
    /// (`(height - 1) * rowStride + width * components`) throws `.tooLarge` before anything is
    /// written, so hostile dimensions cannot reach past the buffer. A truncated entropy-coded
    /// segment throws `.truncated`; rows before the damage may already have been written.
    ///
    /// `legacyDifference16`: DNG files older than DNG 1.1 (DNGVersion < 1.1.0.0) were written by
    /// encoders that put 16 extra bits after the difference category 16, which T.81 says has
    /// none. Adobe's DNG SDK and LibRaw read such files that way; pass `true` for them.
    @discardableResult
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, into destination: UnsafeMutablePointer<UInt16>,
        rowStride: Int, capacity: Int, legacyDifference16: Bool = false
    ) throws(DaguerreError) -> LosslessJPEGHeader {
        let stream = try LosslessJPEGStream(bytes)
        try LosslessJPEGDecoder.decode(
            stream, bytes, into: destination, rowStride: rowStride, capacity: capacity,
            legacyDifference16: legacyDifference16)
        return stream.header
    }
}

/// What a lossless JPEG frame holds, as its SOF3, SOS and DRI segments say.
///
/// ```swift
/// let header = try bytes.withUnsafeBytes { try LosslessJPEG.readHeader($0) }
/// var samples = [UInt16](repeating: 0, count: header.samplesPerRow * header.height)
/// ```
public struct LosslessJPEGHeader: Sendable, Equatable {
    /// Pixels per row (samples per row are `width * components`).
    public var width: Int
    /// Rows.
    public var height: Int
    /// Interleaved components per pixel, 1...4 (2 for DNG's two-component Bayer tiles).
    public var components: Int
    /// Bits per sample, 2...16.
    public var precision: Int
    /// The T.81 predictor selection value, 1...7.
    public var predictor: Int
    /// Bits the samples were shifted right before coding (T.81 H.1.2.1; decoded samples are shifted back).
    public var pointTransform: Int
    /// Pixels (MCUs) per restart interval, 0 for none; always a whole number of rows here.
    public var restartInterval: Int

    public init(
        width: Int, height: Int, components: Int, precision: Int, predictor: Int,
        pointTransform: Int = 0, restartInterval: Int = 0
    ) {
        self.width = width
        self.height = height
        self.components = components
        self.precision = precision
        self.predictor = predictor
        self.pointTransform = pointTransform
        self.restartInterval = restartInterval
    }

    /// Samples in one decoded row.
    public var samplesPerRow: Int { width * components }
}
