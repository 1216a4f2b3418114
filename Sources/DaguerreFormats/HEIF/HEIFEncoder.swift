// HEIC writing through libheif: the image coded as HEVC by the encoder libheif has (x265), with
// its ICC profile, alpha, a thumbnail, EXIF and XMP as items; libheif's writer callback hands the
// finished file to an EncoderDestination (an AtomicFile), so it appears only when complete.
import CHeif
import DaguerreCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a HEIC still (ISO/IEC 23008-12, HEVC image items): an iPhone's kind of file.
///
/// Rows are RGB(A) with 8 or 16 bits per sample; 16-bit rows are coded as 10-bit HEVC (Main 10)
/// when libheif's encoder can (``codedBitDepth`` says what was written), else as 8-bit. Chroma
/// is 4:2:0 unless `chromaSubsampling` is false (4:4:4); quality is `options.quality` (0...1, as
/// for JPEG) on libheif's 0...100 scale, never lossless; x265's preset is ``preset``. Colour is the ICC profile of
/// `options.iccProfile` in a `colr` `prof` box, as iPhones write it: any colour space Daguerre
/// writes has a profile, while nclx code points name only a few, and readers that know ICC
/// (exiftool, libheif, Apple's) show the profile's name. Alpha is written as an auxiliary image
/// when a row format with alpha has a sample below opaque; otherwise none. The EXIF, XMP,
/// thumbnail come from `options.heif` (``HEIFWriteOptions``). The picture is written upright:
/// no `irot`/`imir`, and the EXIF Orientation set to 1.
///
/// libheif codes the image whole, so rows are kept in libheif's image until ``finish()``; the
/// size is checked against `options.limits` before that image is allocated. The file goes
/// through ``AtomicFile``: it appears only when ``finish()`` succeeds.
///
/// ```swift
/// var options = EncoderOptions(format: .heic, width: 4032, height: 3024, rowFormat: .rgba8,
///                              iccProfile: try ColorSpace.displayP3.iccProfileData(), quality: 0.9)
/// options.heif.exif = TIFFSerializer.file(EXIFCodec.directories(for: metadata), byteOrder: .bigEndian)
/// let heic = try HEIFEncoder(path: "IMG_0001.HEIC", options: options)
/// try heic.writeRows(pixels, bytesPerRow: 4032 * 4, count: 3024)
/// try heic.finish()
/// ```
public final class HEIFEncoder: ImageEncoder {
    public let rowFormat: PixelFormat
    public let options: EncoderOptions
    /// Bits per sample of the coded image: 8, or 10 for 16-bit rows when the encoder has a
    /// 10-bit mode (it falls back to 8 when it has none). Final once ``finish()`` has run.
    public private(set) var codedBitDepth: Int
    /// The name libheif gives its HEVC encoder (e.g. "x265 HEVC encoder (3.5+1-f0c1022b6)").
    public let encoderName: String

    private let file: any EncoderDestination
    private var image: OpaquePointer?
    private var plane: UnsafeMutablePointer<UInt8>
    private var stride: Int
    private var ledger: RowLedger
    private let exif: [UInt8]?
    private let quality: Int32
    /// No alpha sample below opaque so far (then no alpha image is written).
    private var opaque = true

    /// The row formats a HEIC is written from.
    public static let rowFormats: [PixelFormat] = [.rgb8, .rgba8, .rgb16, .rgba16]

    public convenience init(path: String, options: EncoderOptions) throws(DaguerreError) {
        try Self.check(options)
        try self.init(destination: try AtomicFile(destination: path), options: options)
    }

    /// An encoder writing into `destination` (a ``MemoryDestination`` keeps the bytes).
    public init(destination: any EncoderDestination, options: EncoderOptions) throws(DaguerreError) {
        do {
            try Self.check(options)
            if let block = options.heif.exif {
                exif = try Self.uprightEXIF(block)
            } else {
                exif = nil
            }
            encoderName = try Self.encoderName()
        } catch {
            destination.abort()
            throw error
        }
        rowFormat = options.rowFormat
        self.options = options
        quality = Int32((options.quality * 100).rounded())
        file = destination
        codedBitDepth = options.rowFormat.component == .uint16 ? 10 : 8
        ledger = RowLedger(format: "HEIC", height: options.height, rowBytes: options.width * options.rowFormat.bytesPerPixel)
        let made: (OpaquePointer, UnsafeMutablePointer<UInt8>, Int)
        do {
            made = try Self.makeImage(
                width: options.width, height: options.height, format: options.rowFormat, bitDepth: codedBitDepth,
                icc: options.iccProfile)
        } catch {
            destination.abort()
            throw error
        }
        (image, plane, stride) = made
    }

    deinit {
        if let image { heif_image_release(image) }
    }

    // MARK: Checks before anything is allocated

    /// Throws unless `options` can be written: the row format, quality, thumbnail
    /// and metadata sizes, and the image size against the limits.
    static func check(_ options: EncoderOptions) throws(DaguerreError) {
        guard rowFormats.contains(options.rowFormat) else {
            throw .unsupported(
                feature: "HEIC rows in \(options.rowFormat)", hint: "Give HEIC rows as RGB8, RGBA8, RGB16 or RGBA16.")
        }
        guard options.quality.isFinite, (0...1).contains(options.quality) else {
            throw .invalidArgument(what: "HEIC quality \(options.quality)", problem: "must be between 0 and 1")
        }
        if let t = options.heif.thumbnailSize, t < 1 {
            throw .invalidArgument(what: "HEIC thumbnail size \(t)", problem: "must be at least 1 pixel, or nil for no thumbnail")
        }
        let limit = HEIFWriteOptions.maxMetadataBytes
        if let n = options.heif.exif?.count, n > limit { throw .tooLarge(what: "HEIC EXIF block (bytes)", value: n, limit: limit) }
        if let x = options.heif.xmp, case let n = x.serialized().utf8.count, n > limit {
            throw .tooLarge(what: "HEIC XMP packet (bytes)", value: n, limit: limit)
        }
        if let icc = options.iccProfile, icc.count > limit {
            throw .tooLarge(what: "HEIC ICC profile (bytes)", value: icc.count, limit: limit)
        }
        try options.limits.check(
            width: options.width, height: options.height, bytesPerPixel: options.rowFormat.bytesPerPixel, what: "HEIC image")
        // HEVC's largest level (6.2) allows 8 × 35,651,584 luma samples on a side's square;
        // libheif 1.15 codes a still as one picture, so larger sides are refused here.
        if options.width > maxSide || options.height > maxSide {
            throw .tooLarge(
                what: "HEIC side (HEVC level 6.2; libheif 1.15 writes no grids)", value: max(options.width, options.height), limit: maxSide)
        }
    }

    /// The x265 preset the picture is coded with.
    public static let preset = "medium"

    /// The longest side one HEVC picture may have (H.265 Table A.8, level 6.2: √(8 × MaxLumaPs)).
    public static let maxSide = 16_888

    /// The name of libheif's HEVC encoder; a typed error naming the package when it has none.
    static func encoderName() throws(DaguerreError) -> String {
        _ = HEIFContext.initialized
        guard heif_have_encoder_for_format(heif_compression_HEVC) != 0, let ctx = heif_context_alloc() else {
            throw missingEncoder
        }
        defer { heif_context_free(ctx) }
        var encoder: OpaquePointer?
        guard heif_context_get_encoder_for_format(ctx, heif_compression_HEVC, &encoder).code == heif_error_Ok, let encoder else {
            throw missingEncoder
        }
        defer { heif_encoder_release(encoder) }
        return heif_encoder_get_name(encoder).map { String(cString: $0) } ?? "HEVC encoder"
    }

    static let missingEncoder = DaguerreError.unsupported(
        feature: "Writing HEIC: libheif has no HEVC encoder",
        hint:
            "Install a libheif built with x265: Debian 12's libheif1 links it (package libx265-199); from Debian 13 on, install libheif-plugin-x265."
    )

    /// The EXIF block from its TIFF header, with IFD0's Orientation set to 1 (in place: a
    /// SHORT's value sits in its entry) and JPEG's `Exif\0\0` header before it.
    static func uprightEXIF(_ given: [UInt8]) throws(DaguerreError) -> [UInt8] {
        var block = given.starts(with: JPEGSegment.exifIdentifier) ? Array(given.dropFirst(JPEGSegment.exifIdentifier.count)) : given
        let reader = try TIFFStructureReader(bytes: block, format: "EXIF")
        let (ifd0, _) = try reader.directory(at: reader.firstIFD)
        if let entry = ifd0.entries[.orientation], entry.type == .short, entry.count == 1 {
            (block[entry.position], block[entry.position + 1]) = reader.byteOrder == .bigEndian ? (0, 1) : (1, 0)
        }
        return JPEGSegment.exifIdentifier + block
    }

    /// libheif's image for the rows: interleaved RGB(A), 8 bits or `bitDepth` in 16-bit words.
    private static func makeImage(
        width: Int, height: Int, format: PixelFormat, bitDepth: Int, icc: [UInt8]?
    ) throws(DaguerreError) -> (OpaquePointer, UnsafeMutablePointer<UInt8>, Int) {
        _ = HEIFContext.initialized
        let chroma: heif_chroma
        switch (format.hasAlpha, bitDepth > 8) {
        case (true, true): chroma = heif_chroma_interleaved_RRGGBBAA_LE
        case (false, true): chroma = heif_chroma_interleaved_RRGGBB_LE
        case (true, false): chroma = heif_chroma_interleaved_RGBA
        case (false, false): chroma = heif_chroma_interleaved_RGB
        }
        var made: OpaquePointer?
        if let e = DaguerreError.heifWrite(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, chroma, &made), path: nil) {
            throw e
        }
        guard let image = made else { throw .tooLarge(what: "HEIC image memory (libheif could not allocate it)", value: 0, limit: 0) }
        if let e = DaguerreError.heifWrite(
            heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), Int32(bitDepth)), path: nil)
        {
            heif_image_release(image)
            throw e
        }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
            heif_image_release(image)
            throw .tooLarge(what: "HEIC image memory (libheif could not allocate its plane)", value: 0, limit: 0)
        }
        if let icc, !icc.isEmpty,
            let e = DaguerreError.heifWrite(
                icc.withUnsafeBytes { heif_image_set_raw_color_profile(image, "prof", $0.baseAddress, $0.count) }, path: nil)
        {
            heif_image_release(image)
            throw e
        }
        return (image, plane, Int(stride))
    }

    // MARK: Rows

    public func writeRows(_ source: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(DaguerreError) {
        try ledger.checkWrite(count: count, bytesPerRow: bytesPerRow, open: image != nil)
        let channels = rowFormat.channels
        let samples = options.width * channels
        let alpha = rowFormat.hasAlpha
        for r in 0..<count {
            let src = source + r * bytesPerRow
            let dst = plane + (ledger.written + r) * stride
            if codedBitDepth == 8 {
                let s = src.assumingMemoryBound(to: UInt8.self)
                dst.update(from: s, count: samples)
                if alpha, opaque {
                    for x in Swift.stride(from: 3, to: samples, by: 4) where s[x] != 255 {
                        opaque = false
                        break
                    }
                }
            } else {
                // 16-bit samples to 10 bits, rounded, little-endian as libheif's *_LE chromas hold them.
                let s = src.assumingMemoryBound(to: UInt16.self)
                let d = UnsafeMutableRawPointer(dst).assumingMemoryBound(to: UInt16.self)
                for i in 0..<samples {
                    let v = UInt32(s[i])
                    d[i] = UInt16((v * 1023 + 32767) / 65535).littleEndian
                    if alpha, i % 4 == 3, v != 65535 { opaque = false }
                }
            }
        }
        ledger.advance(count)
    }

    // MARK: Finishing

    public func finish() throws(DaguerreError) {
        do { try ledger.checkComplete(open: image != nil, destination: file.destination) } catch {
            if image != nil { abort() }
            throw error
        }
        do throws(DaguerreError) {
            try encodeAndWrite()
        } catch {
            abort()
            throw error
        }
        if let image { heif_image_release(image) }
        image = nil
        try file.finish()
    }

    public func abort() {
        if let image { heif_image_release(image) }
        image = nil
        file.abort()
    }

    /// Codes the image (falling back to 8 bits when the encoder has no 10-bit mode), adds the
    /// thumbnail and metadata, and hands libheif's file to the destination's stream.
    private func encodeAndWrite() throws(DaguerreError) {
        guard let ctx = heif_context_alloc() else {
            throw .tooLarge(what: "HEIC context (libheif could not allocate it)", value: 0, limit: 0)
        }
        defer { heif_context_free(ctx) }
        var encoder: OpaquePointer?
        guard heif_context_get_encoder_for_format(ctx, heif_compression_HEVC, &encoder).code == heif_error_Ok, let encoder else {
            throw Self.missingEncoder
        }
        defer { heif_encoder_release(encoder) }
        let path = file.destination
        try check(heif_encoder_set_lossy_quality(encoder, quality))
        try check(heif_encoder_set_lossless(encoder, 0))
        try check(heif_encoder_set_parameter_string(encoder, "chroma", options.chromaSubsampling ? "420" : "444"))
        // x265's own default preset: libheif chooses "slow", which took 77 s for a 12 MP picture
        // on two busy cores where "medium" took 33 s.
        try check(heif_encoder_set_parameter_string(encoder, "preset", Self.preset))
        guard let settings = heif_encoding_options_alloc() else {
            throw .tooLarge(what: "HEIC encoding options (libheif could not allocate them)", value: 0, limit: 0)
        }
        defer { heif_encoding_options_free(settings) }
        settings.pointee.save_alpha_channel = rowFormat.hasAlpha && !opaque ? 1 : 0

        var handle: OpaquePointer?
        var result = try withImage { heif_context_encode_image(ctx, $0, encoder, settings, &handle) }
        if result.code == heif_error_Encoder_plugin_error, result.subcode == heif_suberror_Unsupported_bit_depth, codedBitDepth > 8 {
            try reduceTo8Bits()
            result = try withImage { heif_context_encode_image(ctx, $0, encoder, settings, &handle) }
        }
        if let e = DaguerreError.heifWrite(result, path: path) { throw e }
        guard let handle else { throw .corruptData(format: "HEIC", detail: "libheif coded no image", path: path) }
        defer { heif_image_handle_release(handle) }

        if let size = options.heif.thumbnailSize {
            var thumbnail: OpaquePointer?
            try check(
                try withImage { heif_context_encode_thumbnail(ctx, $0, handle, encoder, settings, Int32(clamping: size), &thumbnail) })
            if let thumbnail { heif_image_handle_release(thumbnail) }
        }
        if let exif {
            try check(exif.withUnsafeBytes { heif_context_add_exif_metadata(ctx, handle, $0.baseAddress, Int32($0.count)) })
        }
        if let xmp = options.heif.xmp {
            let text = Array(xmp.serialized().utf8)
            try check(text.withUnsafeBytes { heif_context_add_XMP_metadata(ctx, handle, $0.baseAddress, Int32($0.count)) })
        }

        var writer = heif_writer(writer_api_version: 1, write: HEIFEncoder.writeToStream)
        let stream = try file.stream()
        let written = heif_context_write(ctx, &writer, stream)
        if written.code != heif_error_Ok {
            let cause = file.failureCause ?? String(cString: strerror(errno))
            throw .io(operation: "write", path: path, reason: "libheif could not hand over the file (\(cause))")
        }
    }

    /// libheif's writer callback: the whole file, once, into the `FILE*` in `userdata`.
    private static let writeToStream: @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int, UnsafeMutableRawPointer?) -> heif_error = {
        _, data, size, userdata in
        let failed = heif_error(
            code: heif_error_Encoding_error, subcode: heif_suberror_Cannot_write_output_data,
            message: UnsafeRawPointer(("the file could not be written" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self))
        guard let userdata, size == 0 || data != nil else { return failed }
        let stream = userdata.assumingMemoryBound(to: FILE.self)
        guard size == 0 || fwrite(data, 1, size, stream) == size else { return failed }
        return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
    }

    /// `body` on libheif's image of the rows.
    private func withImage(_ body: (OpaquePointer) -> heif_error) throws(DaguerreError) -> heif_error {
        guard let image else { throw .invalidArgument(what: "HEIFEncoder.finish", problem: "the encoder was already finished or aborted") }
        return body(image)
    }

    /// Replaces the 10-bit image by an 8-bit one (for an encoder without a 10-bit mode).
    private func reduceTo8Bits() throws(DaguerreError) {
        guard let old = image else { return }
        let (w, h) = (options.width, options.height)
        let (made, newPlane, newStride) = try Self.makeImage(
            width: w, height: h, format: rowFormat, bitDepth: 8, icc: options.iccProfile)
        let samples = w * rowFormat.channels
        for y in 0..<h {
            let s = UnsafeRawPointer(plane + y * stride).assumingMemoryBound(to: UInt16.self)
            let d = newPlane + y * newStride
            for i in 0..<samples { d[i] = UInt8((UInt32(UInt16(littleEndian: s[i])) * 255 + 511) / 1023) }
        }
        heif_image_release(old)
        (image, plane, stride) = (made, newPlane, newStride)
        codedBitDepth = 8
    }

    private func check(_ e: heif_error) throws(DaguerreError) {
        if let error = DaguerreError.heifWrite(e, path: file.destination) { throw error }
    }
}

extension DaguerreError {
    /// The typed error for a libheif call made while writing, or nil when it succeeded: an
    /// encoder's missing mode is `.unsupported`, libheif's memory failure `.tooLarge`, an
    /// argument it refused `.invalidArgument`, the rest `.io` naming the file, each with
    /// libheif's message.
    static func heifWrite(_ e: heif_error, path: String?) -> DaguerreError? {
        guard e.code != heif_error_Ok else { return nil }
        let message = e.message.map { String(cString: $0) } ?? "no message"
        switch e.code {
        case heif_error_Unsupported_feature, heif_error_Unsupported_filetype:
            return .unsupported(feature: "Writing HEIC: \(message)", hint: "Write the image as JPEG, PNG or TIFF instead.")
        case heif_error_Encoder_plugin_error where e.subcode == heif_suberror_Unsupported_bit_depth:
            return .unsupported(feature: "Writing HEIC: the HEVC encoder (\(message))", hint: "Write 8-bit rows.")
        case heif_error_Memory_allocation_error:
            return .tooLarge(what: "HEIC image memory (libheif: \(message))", value: 0, limit: 0)
        case heif_error_Usage_error:
            return .invalidArgument(what: "a HEIC write\(path.map { " to \($0)" } ?? "")", problem: "libheif refused it: \(message)")
        default:
            return .io(operation: "encode HEIC", path: path ?? "(memory)", reason: "libheif: \(message)")
        }
    }
}
