import ArgumentParser
import Daguerre
import Foundation

/// `daguerre develop`: RAWExpose's job on the command line (issue #5, SPEC X1): develops DNGs
/// with RAWFilter, each with its sidecar adjustments (`FILE.daguerre.json`) under the options
/// given here, and writes JPEG, 16-bit TIFF or PNG with the camera's metadata.
struct DevelopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "develop",
        abstract: "Develop RAW (DNG) files to JPEG, 16-bit TIFF or PNG.",
        discussion: """
        Options given here override each file's sidecar (FILE.daguerre.json), which overrides the file's defaults.
        Example: daguerre develop IMG_0001.dng IMG_0002.dng -o developed/ --exposure 0.5 --colorspace displayP3
        """)

    @Argument(help: "DNG files.") var inputs: [String]
    @Option(name: .shortAndLong, help: "Output folder (or a file name when developing one input).") var output: String
    @Option(help: "Exposure in EV, added to the file's baseline exposure.") var exposure: FiniteNumber?
    @Option(help: "White balance temperature in kelvin (default: as shot).") var temperature: FiniteNumber?
    @Option(help: "White balance tint (default: as shot).") var tint: FiniteNumber?
    @Option(help: "Noise reduction amount, 0...1 (default 0.5: as much as the file's noise profile, or an estimate, calls for; 0 shows the raw noise).") var noiseReduction: FiniteNumber?
    @Option(help: "Colour noise reduction, 0...1 (default 0): chroma smoothing, luminance kept.") var colorNoiseReduction: FiniteNumber?
    @Option(help: "Noise reduction detail, 0...1 (default 0): keep more fine texture (and fine grain).") var noiseReductionDetail: FiniteNumber?
    @Option(help: "Noise reduction contrast, 0...1 (default 0): keep more faint shading and local contrast.") var noiseReductionContrast: FiniteNumber?
    @Option(help: "Noise reduction sharpness, 0...1 (default 0): give back edge sharpness, not the noise.") var noiseReductionSharpness: FiniteNumber?
    @Option(help: "Output colour space: displayP3, sRGB, adobeRGB, bt2020, linearSRGB...") var colorspace = "displayP3"
    @Option(help: "jpeg, tiff16 or png (default: from the output file's extension, else jpeg).") var format: String?
    @Option(help: "Scale factor, 0 < s ≤ 1 (½ or less develops at half size first).") var scale: FiniteNumber?
    @Option(help: "Boost curve amount, 0 (linear, default) … 1 (filmic).") var boost: FiniteNumber?
    @Option(help: "Contrast, −1 … 1.") var contrast: FiniteNumber?
    @Option(help: "Local tone mapping, 0 … 1.") var localToneMap: FiniteNumber?
    @Option(help: "Sharpening amount, 0 … 1.") var sharpness: FiniteNumber?
    @Option(help: "Highlight recovery, 0 (clip to white) … 1 (default: rebuild).") var highlights: FiniteNumber?
    @Option(help: "TIFF compression: none (default, as LibRaw and RawTherapee write), lzw or deflate.") var tiffCompression = "none"
    @Flag(help: "Draft mode (fast demosaic).") var draft = false
    @Option(help: "Pipeline version, 1…4 (default: the sidecar's, else 4, the newest; 3 is the slower one with 0.6 dB more noise reduction quality).")
    var decoderVersion: String?
    @Option(help: "JPEG quality, 0...1.") var quality = 0.9

    /// The extensions of the formats the command writes, by `--format` name.
    static let extensions = ["jpeg": "jpg", "jpg": "jpg", "tiff16": "tif", "tiff": "tif", "tif": "tif", "png": "png"]

    func run() throws {
        guard let space = ColorSpace(named: colorspace) else {
            throw ValidationError("--colorspace \(colorspace): use displayP3, sRGB, adobeRGB, bt2020, linearSRGB or linearP3.")
        }
        if let format, Self.extensions[format.lowercased()] == nil { throw ValidationError("--format: use jpeg, tiff16 or png.") }
        guard let compression = EncoderOptions.TIFFCompression(rawValue: tiffCompression.lowercased()) else {
            throw ValidationError("--tiff-compression: use none, lzw or deflate.")
        }
        var isDirectory: ObjCBool = false
        let toFolder = inputs.count > 1 || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue)
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
            case (nil, nil): throw ValidationError("\(output): give it a .jpg, .png or .tif extension, or pass --format.")
            case (nil, let named?): throw ValidationError("\(output): name it with a .\(named) extension for --format \(format ?? "").")
            case (_?, let named?) where named != Self.extensions[own]:
                throw ValidationError("\(output) has a .\(own) extension but --format asks for \(format ?? ""); make them agree.")
            default: ext = Self.extensions[own] ?? own
            }
        }
        let context = try Context()
        let overrides = RAWAdjustments(decoderVersion: decoderVersion, exposure: exposure?.value, temperature: temperature?.value, tint: tint?.value, noiseReduction: noiseReduction?.value,
                                       colorNoiseReduction: colorNoiseReduction?.value, noiseReductionSharpness: noiseReductionSharpness?.value,
                                       noiseReductionContrast: noiseReductionContrast?.value, noiseReductionDetail: noiseReductionDetail?.value,
                                       boost: boost?.value, highlightRecovery: highlights?.value, contrast: contrast?.value,
                                       localToneMap: localToneMap?.value, sharpness: sharpness?.value)
        var failures = 0
        for (i, input) in inputs.enumerated() {
            let started = Date()
            let stem = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
            let destination = toFolder ? (output as NSString).appendingPathComponent("\(stem).\(ext)") : output
            do {
                var raw = try RAWFilter(url: URL(fileURLWithPath: input))
                try RAWAdjustments.sidecar(for: input)?.apply(to: &raw)
                overrides.apply(to: &raw)
                if let scale { raw.scaleFactor = scale.value }
                raw.isDraftModeEnabled = draft
                let image = try raw.outputImage()
                // The orientation is applied to the pixels, so the file says upright.
                var metadata = raw.metadata
                metadata.orientation = 1
                try OutputWriting.write(image, to: destination, colorSpace: space, quality: quality, depth: "16", context: context,
                                        alpha: false, metadata: metadata, tiffCompression: compression)
                let done = i + 1, width = 24
                let bar = String(repeating: "#", count: done * width / inputs.count) + String(repeating: ".", count: width - done * width / inputs.count)
                print(String(format: "[%@] %d/%d %@ → %@ (%.0f ms, %d K, tint %+.0f)", bar, done, inputs.count, input, destination,
                             Date().timeIntervalSince(started) * 1000, Int(raw.neutralTemperature), raw.neutralTint))
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("\(input): \((error as? DaguerreError)?.description ?? "\(error)")\n".utf8))
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
