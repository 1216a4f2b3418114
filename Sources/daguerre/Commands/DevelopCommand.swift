import ArgumentParser
import Daguerre
import Foundation

/// `daguerre develop`: RAWExpose's job on the command line (SPEC X1): develops DNGs and every
/// camera RAW LibRaw reads (SPEC X6) with RAWFilter, each with its sidecar adjustments (`FILE.daguerre.json`) under the options
/// given here, and writes JPEG, 16-bit TIFF or PNG with the camera's metadata.
struct DevelopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "develop",
        abstract: "Develop RAW files (DNG, and every camera format LibRaw reads) to JPEG, 16-bit TIFF or PNG.",
        discussion: """
            Options given here override each file's sidecar (FILE.daguerre.json), which overrides the file's defaults.
            Example: daguerre develop IMG_0001.dng IMG_0002.CR2 -o developed/ --exposure 0.5 --colorspace displayP3
            DNGs are read by Daguerre; other camera RAWs (CR2, CR3, CRW, NEF, ARW, RAF, ORF, RW2, PEF, KDC...), and DNGs whose compression Daguerre does not decode, by LibRaw. A file developed with something it does not carry (LibRaw's matrix for its camera, raw colour for a camera without one, daylight white when it has no as-shot white) says so under its line.

            Develop options (RAWFilter's, each also a sidecar field and a Core Image key):
            \(RAWAdjustmentArguments.help)
            """)

    @Argument(
        parsing: .allUnrecognized,
        help: "RAW files (DNG, CR2, NEF, ARW, RAF... anything LibRaw reads), and the develop options listed below.") var arguments:
        [String] = []
    @Option(name: .shortAndLong, help: "Output folder (or a file name when developing one input).") var output: String
    @Option(help: "Output colour space: displayP3, sRGB, adobeRGB, bt2020, linearSRGB...") var colorspace = "displayP3"
    @Option(help: "jpeg, tiff16, png or heic (10-bit HEVC) (default: from the output file's extension, else jpeg).") var format: String?
    @Option(help: "TIFF compression: none (default, as LibRaw and RawTherapee write), lzw or deflate.") var tiffCompression = "none"
    @Option(help: "JPEG and HEIC quality, 0...1.") var quality = 0.9
    @Flag(
        help:
            "White balance guessed from the image (grey world, as LibRaw's -a) instead of the file's as-shot or daylight white; --temperature and --tint still win."
    ) var whiteFromImage = false

    /// The extensions of the formats the command writes, by `--format` name.
    static let extensions = [
        "jpeg": "jpg", "jpg": "jpg", "tiff16": "tif", "tiff": "tif", "tif": "tif", "png": "png", "heic": "heic", "heif": "heic",
    ]

    func run() throws {
        let (inputs, overrides) = try RAWAdjustmentArguments.parse(arguments)
        guard !inputs.isEmpty else { throw ValidationError("Give at least one RAW file to develop.") }
        guard let space = ColorSpace(named: colorspace) else {
            throw ValidationError("--colorspace \(colorspace): use displayP3, sRGB, adobeRGB, bt2020, linearSRGB or linearP3.")
        }
        if let format, Self.extensions[format.lowercased()] == nil { throw ValidationError("--format: use jpeg, tiff16, png or heic.") }
        guard let compression = EncoderOptions.TIFFCompression(rawValue: tiffCompression.lowercased()) else {
            throw ValidationError("--tiff-compression: use none, lzw or deflate.")
        }
        var isDirectory: ObjCBool = false
        let toFolder =
            inputs.count > 1 || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue)
            || output.hasSuffix("/")
        let ext: String
        if toFolder {
            ext = Self.extensions[format?.lowercased() ?? "jpeg"] ?? "jpg"
            do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
                throw ValidationError("Cannot create the folder \(output): \(error.localizedDescription)")
            }
        } else {
            // One output file: its extension decides, and --format must agree with it.
            let own = (output as NSString).pathExtension.lowercased()
            let named = format.flatMap { Self.extensions[$0.lowercased()] }
            switch (ImageFileFormat.fromExtension(output), named) {
            case (nil, nil): throw ValidationError("\(output): give it a .jpg, .png, .tif or .heic extension, or pass --format.")
            case (nil, let named?): throw ValidationError("\(output): name it with a .\(named) extension for --format \(format ?? "").")
            case (_?, let named?) where named != Self.extensions[own]:
                throw ValidationError("\(output) has a .\(own) extension but --format asks for \(format ?? ""); make them agree.")
            default: ext = Self.extensions[own] ?? own
            }
        }
        let context = try Context()
        var failures: [String] = []
        for (i, input) in inputs.enumerated() {
            let started = Date()
            let stem = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
            let destination = toFolder ? (output as NSString).appendingPathComponent("\(stem).\(ext)") : output
            do {
                var raw = try RAWFilter(url: URL(fileURLWithPath: input))
                try RAWAdjustments.sidecar(for: input)?.apply(to: &raw)
                if whiteFromImage { try raw.setNeutralFromImage() }
                overrides.apply(to: &raw)
                let image = try raw.outputImage()
                // The orientation is applied to the pixels, so the file says upright.
                var metadata = raw.metadata
                metadata.orientation = 1
                try OutputWriting.write(
                    image, to: destination, colorSpace: space, quality: quality, depth: "16", context: context,
                    alpha: false, metadata: metadata, tiffCompression: compression)
                let done = i + 1
                let width = 24
                let bar =
                    String(repeating: "#", count: done * width / inputs.count)
                    + String(repeating: ".", count: width - done * width / inputs.count)
                print(
                    String(
                        format: "[%@] %d/%d %@ → %@ (%.0f ms, %d K, tint %+.0f)", bar, done, inputs.count, input, destination,
                        Date().timeIntervalSince(started) * 1000, Int(raw.neutralTemperature), raw.neutralTint))
                if raw.provenance.hasFallback { print("    \(raw.provenance)") }
            } catch {
                failures.append(input)
                FileHandle.standardError.write(Data("\(input): \((error as? DaguerreError)?.description ?? "\(error)")\n".utf8))
            }
        }
        // A batch goes on past a failure (a damaged file, a full disk) and says at the end which failed.
        if !failures.isEmpty {
            FileHandle.standardError.write(
                Data("\(failures.count) of \(inputs.count) not developed: \(failures.joined(separator: ", "))\n".utf8))
            throw ExitCode(1)
        }
    }
}
