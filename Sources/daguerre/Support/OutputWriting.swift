import DaguerreCore
import DaguerreFormats
import DaguerreImage
import Foundation

/// Writes a rendered image in the format its file name asks for (the CLI's one output path).
enum OutputWriting {
    static func write(_ image: Image, to output: String, colorSpace space: ColorSpace, quality: Double, depth: String, context: Context) throws {
        let url = URL(fileURLWithPath: output)
        switch ImageFileFormat.fromExtension(output) {
        case .jpeg?:
            try context.writeJPEGRepresentation(of: image, to: url, colorSpace: space, options: [.quality(quality)])
        case .png?:
            try context.writePNGRepresentation(of: image, to: url, format: depth == "16" ? .rgba16 : .rgba8, colorSpace: space)
        case .tiff?:
            let f: PixelFormat = ["16": .rgba16, "half": .rgbah, "float": .rgbaf][depth] ?? .rgba8
            try context.writeTIFFRepresentation(of: image, to: url, format: f, colorSpace: space)
        case nil:
            throw DaguerreError.invalidArgument(what: "Output \(output)", problem: "its extension must be .jpg, .jpeg, .png, .tif or .tiff")
        }
    }
}
