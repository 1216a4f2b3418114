import DaguerreCore
import DaguerreFormats
import DaguerreImage
import Foundation

/// Writes a rendered image in the format its file name asks for (the CLI's one output path).
enum OutputWriting {
    /// `alpha` false writes RGB without an alpha channel (photos); `metadata` goes into JPEGs and
    /// HEICs; a HEIC of `depth` 16 is coded with 10 bits.
    static func write(
        _ image: Image, to output: String, colorSpace space: ColorSpace, quality: Double, depth: String, context: Context,
        alpha: Bool = true, metadata: PhotoMetadata? = nil, tiffCompression: EncoderOptions.TIFFCompression = .lzw
    ) throws {
        let url = URL(fileURLWithPath: output)
        switch ImageFileFormat.fromExtension(output) {
        case .jpeg?:
            var options: [ImageWriteOption] = [.quality(quality)]
            if let metadata { options.append(.metadata(metadata)) }
            try context.writeJPEGRepresentation(of: image, to: url, colorSpace: space, options: options)
        case .png?:
            let f: PixelFormat = depth == "16" ? (alpha ? .rgba16 : .rgb16) : (alpha ? .rgba8 : .rgb8)
            try context.writePNGRepresentation(of: image, to: url, format: f, colorSpace: space)
        case .tiff?:
            let f: PixelFormat =
                (alpha ? ["16": .rgba16, "half": .rgbah, "float": .rgbaf] : ["16": .rgb16, "half": .rgbh, "float": .rgbf])[depth]
                ?? (alpha ? .rgba8 : .rgb8)
            try context.writeTIFFRepresentation(
                of: image, to: url, format: f, colorSpace: space, options: [.tiffCompression(tiffCompression)])
        case .heic?:
            let f: PixelFormat = depth == "16" ? (alpha ? .rgba16 : .rgb16) : (alpha ? .rgba8 : .rgb8)
            var options: [ImageWriteOption] = [.quality(quality)]
            if let metadata { options.append(.metadata(metadata)) }
            try context.writeHEIFRepresentation(of: image, to: url, format: f, colorSpace: space, options: options)
        case nil:
            throw DaguerreError.invalidArgument(
                what: "Output \(output)", problem: "its extension must be .jpg, .jpeg, .png, .tif, .tiff, .heic or .heif")
        }
    }
}
