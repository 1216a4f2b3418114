import DaguerreCore
import DaguerreFormats
import Foundation

/// Options for the file-writing calls (Core Image's options dictionary, typed).
///
/// ```swift
/// try context.writeJPEGRepresentation(of: image, to: url, colorSpace: .displayP3, options: [.quality(0.8)])
/// ```
public enum ImageWriteOption: Sendable, Equatable {
    /// JPEG and HEIC quality, 0...1 (kCGImageDestinationLossyCompressionQuality). Default 0.9.
    case quality(Double)
    /// JPEG and HEIC 4:2:0 chroma subsampling (true, the default) or 4:4:4.
    case chromaSubsampling(Bool)
    /// TIFF compression: LZW with a predictor by default (TIFF 6.0, accepted by every reader and
    /// by `exiftool -validate`); Adobe Deflate is smaller but outside baseline TIFF 6.0.
    case tiffCompression(EncoderOptions.TIFFCompression)
    /// Capture metadata written as EXIF (JPEG APP1, the HEIC Exif item; other formats ignore
    /// it): a developed RAW keeps its camera, exposure and date (SPEC X1 "metadata carried over").
    case metadata(PhotoMetadata)
    /// An XMP packet (JPEG APP1, the HEIC XMP item; other formats ignore it).
    case xmp(XMPPacket)
    /// HEIC only: a thumbnail item whose long side is at most this many pixels.
    case thumbnailSize(Int)
}

extension Context {
    /// Renders `image` to a JPEG tagged with `colorSpace`'s ICC profile (I7, W6): a Display P3
    /// JPEG carries a Display P3 profile. Rows stream to the encoder band by band, and the file
    /// appears only when complete.
    public func writeJPEGRepresentation(
        of image: Image, to url: URL, colorSpace: ColorSpace,
        options: [ImageWriteOption] = []
    ) throws(DaguerreError) {
        let gray: Bool
        if case .gray = colorSpace.model { gray = true } else { gray = false }
        try write(image, to: url, fileFormat: .jpeg, rowFormat: gray ? .l8 : .rgb8, colorSpace: colorSpace, options: options)
    }

    /// Renders `image` to a PNG: `format` RGBA8 (default), RGB8, RGBA16, RGB16, L8 or L16; alpha is
    /// written straight (PNG's convention); an sRGB chunk or an iCCP profile tags the colour.
    public func writePNGRepresentation(
        of image: Image, to url: URL, format: PixelFormat = .rgba8, colorSpace: ColorSpace,
        options: [ImageWriteOption] = []
    ) throws(DaguerreError) {
        let ok: [PixelFormat] = [.rgba8, .rgb8, .rgba16, .rgb16, .l8, .l16, .la8, .la16]
        guard ok.contains(format) else {
            throw .invalidArgument(what: "PNG format \(format)", problem: "PNG stores \(ok.map(\.description).joined(separator: ", "))")
        }
        try write(image, to: url, fileFormat: .png, rowFormat: format, colorSpace: colorSpace, options: options)
    }

    /// Renders `image` to a TIFF: 8- or 16-bit integer or half/float samples, with or without alpha.
    public func writeTIFFRepresentation(
        of image: Image, to url: URL, format: PixelFormat = .rgba8, colorSpace: ColorSpace,
        options: [ImageWriteOption] = []
    ) throws(DaguerreError) {
        let ok: [PixelFormat] = [.rgba8, .rgb8, .rgba16, .rgb16, .rgbah, .rgbh, .rgbaf, .rgbf, .l8, .l16]
        guard ok.contains(format) else {
            throw .invalidArgument(
                what: "TIFF format \(format)", problem: "TIFF output supports \(ok.map(\.description).joined(separator: ", "))")
        }
        try write(image, to: url, fileFormat: .tiff, rowFormat: format, colorSpace: colorSpace, options: options)
    }

    /// Renders `image` to a HEIC (HEVC through libheif, ``HEIFEncoder``): `format` RGB8 (default),
    /// RGBA8, RGB16 or RGBA16 (coded with 10 bits); tagged with `colorSpace`'s ICC profile; EXIF,
    /// XMP and a thumbnail from `options`. The image is written upright.
    ///
    /// ```swift
    /// try context.writeHEIFRepresentation(of: image, to: url, colorSpace: .displayP3,
    ///                                     options: [.quality(0.8), .metadata(meta), .xmp(packet)])
    /// ```
    public func writeHEIFRepresentation(
        of image: Image, to url: URL, format: PixelFormat = .rgb8, colorSpace: ColorSpace,
        options: [ImageWriteOption] = []
    ) throws(DaguerreError) {
        guard HEIFEncoder.rowFormats.contains(format) else {
            throw .invalidArgument(
                what: "HEIC format \(format)",
                problem: "HEIC is written from \(HEIFEncoder.rowFormats.map(\.description).joined(separator: ", "))")
        }
        try write(image, to: url, fileFormat: .heic, rowFormat: format, colorSpace: colorSpace, options: options)
    }

    /// The HEIC bytes of `image` (as ``writeHEIFRepresentation(of:to:format:colorSpace:options:)``
    /// writes them), for a file that holds more than the picture (a Live Photo's still beside
    /// its movie).
    ///
    /// ```swift
    /// let heic = try context.heifRepresentation(of: image, colorSpace: .displayP3, options: [.quality(0.8)])
    /// ```
    public func heifRepresentation(
        of image: Image, format: PixelFormat = .rgb8, colorSpace: ColorSpace, options: [ImageWriteOption] = []
    ) throws(DaguerreError) -> [UInt8] {
        guard HEIFEncoder.rowFormats.contains(format) else {
            throw .invalidArgument(
                what: "HEIC format \(format)",
                problem: "HEIC is written from \(HEIFEncoder.rowFormats.map(\.description).joined(separator: ", "))")
        }
        let memory = try MemoryDestination(describing: "HEIC data")
        try write(image, fileFormat: .heic, rowFormat: format, colorSpace: colorSpace, options: options) {
            (opts) throws(DaguerreError) in try HEIFEncoder(destination: memory, options: opts)
        }
        return memory.bytes
    }

    /// The JPEG bytes of `image`, tagged with `colorSpace`'s ICC profile (Core Image's
    /// `jpegRepresentation(of:colorSpace:options:)`): rows stream to the encoder band by band, as
    /// ``writeJPEGRepresentation(of:to:colorSpace:options:)`` does, so encoding overlaps
    /// rendering and no whole RGB buffer is made.
    ///
    /// ```swift
    /// let jpeg = try context.jpegRepresentation(of: image, colorSpace: .displayP3, options: [.quality(0.9)])
    /// ```
    public func jpegRepresentation(of image: Image, colorSpace: ColorSpace, options: [ImageWriteOption] = []) throws(DaguerreError)
        -> [UInt8]
    {
        let gray: Bool
        if case .gray = colorSpace.model { gray = true } else { gray = false }
        let memory = try MemoryDestination(describing: "JPEG data")
        try write(image, fileFormat: .jpeg, rowFormat: gray ? .l8 : .rgb8, colorSpace: colorSpace, options: options) {
            (opts) throws(DaguerreError) in try JPEGEncoder(destination: memory, options: opts)
        }
        return memory.bytes
    }

    private func write(
        _ image: Image, to url: URL, fileFormat: ImageFileFormat, rowFormat: PixelFormat,
        colorSpace: ColorSpace, options: [ImageWriteOption]
    ) throws(DaguerreError) {
        try write(image, fileFormat: fileFormat, rowFormat: rowFormat, colorSpace: colorSpace, options: options) {
            (opts) throws(DaguerreError) in try ImageWriter.create(path: url.path, options: opts)
        }
    }

    private func write(
        _ image: Image, fileFormat: ImageFileFormat, rowFormat: PixelFormat, colorSpace: ColorSpace, options: [ImageWriteOption],
        encoder makeEncoder: (EncoderOptions) throws(DaguerreError) -> any ImageEncoder
    ) throws(DaguerreError) {
        let rect = try checkedRect(image, nil)
        var opts = EncoderOptions(
            format: fileFormat, width: rect.width, height: rect.height, rowFormat: rowFormat, limits: self.options.limits)
        for o in options {
            switch o {
            case .quality(let q):
                guard q.isFinite, (0...1).contains(q) else {
                    throw .invalidArgument(
                        what: "\(fileFormat == .heic ? "HEIC" : "JPEG") quality \(q)", problem: "it must be between 0 and 1")
                }
                opts.quality = q
            case .chromaSubsampling(let s): opts.chromaSubsampling = s
            case .tiffCompression(let c): opts.tiffCompression = c
            case .metadata(var m):
                guard fileFormat == .jpeg || fileFormat == .heic else { continue }
                m.pixelWidth = rect.width
                m.pixelHeight = rect.height
                m.colorSpace = colorSpace == .sRGB ? .sRGB : .uncalibrated
                let exif = TIFFSerializer.file(EXIFCodec.directories(for: m), byteOrder: .bigEndian)
                if fileFormat == .jpeg { opts.jpegSegments.append(.exif(exif)) } else { opts.heif.exif = exif }
            case .xmp(let packet):
                if fileFormat == .jpeg { opts.jpegSegments.append(.xmp(packet.serialized())) }
                if fileFormat == .heic { opts.heif.xmp = packet }
            case .thumbnailSize(let size): opts.heif.thumbnailSize = size
            }
        }
        let isSRGB = colorSpace == .sRGB && colorSpace.sourceProfile == nil
        opts.isSRGB = isSRGB && fileFormat == .png
        opts.iccProfile = opts.isSRGB ? nil : try colorSpace.iccProfileData()
        let working = self.options.workingColorSpace
        let converter = try OutputConverter(
            format: rowFormat, alpha: rowFormat.hasAlpha ? .straight : .none,
            destination: working == nil ? nil : colorSpace, working: working,
            workingFormat: self.options.workingFormat)
        // Created before rendering: an unwritable destination fails here, before any work.
        let encoder = try makeEncoder(opts)
        let sink = EncoderSink(
            encoder: encoder, converter: converter, width: rect.width, originX: rect.x,
            maxBandRows: self.options.tileHeight * 8)
        try render(image, rect: rect, sink: sink, output: "\(fileFormat.rawValue) \(rowFormat) \(colorSpace.name)")
    }
}
