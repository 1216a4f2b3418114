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
    @Option(help: "Exposure in EV, added to the file's baseline exposure.") var exposure: Double?
    @Option(help: "White balance temperature in kelvin (default: as shot).") var temperature: Double?
    @Option(help: "White balance tint (default: as shot).") var tint: Double?
    @Option(help: "Noise reduction amount, 0...1 (default 0.5: as much as the file's noise profile, or an estimate, calls for; 0 shows the raw noise).") var noiseReduction: Double?
    @Option(help: "displayP3 or sRGB.") var colorspace = "displayP3"
    @Option(help: "jpeg, tiff16 or png.") var format = "jpeg"
    @Option(help: "Scale factor (not built yet; only 1 is accepted).") var scale: Double?
    @Flag(help: "Draft mode (fast demosaic).") var draft = false
    @Option(help: "JPEG quality, 0...1.") var quality = 0.9

    func run() throws {
        let space: ColorSpace
        switch colorspace.lowercased() {
        case "displayp3", "p3": space = .displayP3
        case "srgb": space = .sRGB
        default: throw ValidationError("--colorspace: use displayP3 or sRGB.")
        }
        let ext: String
        switch format.lowercased() {
        case "jpeg", "jpg": ext = "jpg"
        case "tiff16", "tiff": ext = "tif"
        case "png": ext = "png"
        default: throw ValidationError("--format: use jpeg, tiff16 or png.")
        }
        for (name, value) in [("exposure", exposure), ("temperature", temperature), ("tint", tint), ("noise-reduction", noiseReduction), ("scale", scale)] {
            if let value, !value.isFinite { throw ValidationError("--\(name) must be a finite number.") }
        }
        var isDirectory: ObjCBool = false
        let toFolder = inputs.count > 1 || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue)
            || output.hasSuffix("/")
        if toFolder {
            do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
                throw ValidationError("Cannot create the folder \(output): \(error.localizedDescription)")
            }
        }
        let context = try Context()
        var failures = 0
        for (i, input) in inputs.enumerated() {
            let started = Date()
            let stem = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
            let destination = toFolder ? (output as NSString).appendingPathComponent("\(stem).\(ext)") : output
            do {
                var raw = try RAWFilter(url: URL(fileURLWithPath: input))
                try RAWAdjustments.sidecar(for: input)?.apply(to: &raw)
                RAWAdjustments(exposure: exposure, temperature: temperature, tint: tint).apply(to: &raw)
                if let noiseReduction { raw.luminanceNoiseReductionAmount = noiseReduction }
                if let scale { raw.scaleFactor = scale }
                raw.isDraftModeEnabled = draft
                let image = try raw.outputImage()
                let url = URL(fileURLWithPath: destination)
                switch ext {
                case "jpg": try context.writeJPEGRepresentation(of: image, to: url, colorSpace: space, options: [.quality(quality), .metadata(raw.dng.metadata)])
                case "tif": try context.writeTIFFRepresentation(of: image, to: url, format: .rgb16, colorSpace: space)
                default: try context.writePNGRepresentation(of: image, to: url, format: .rgb16, colorSpace: space)
                }
                let done = i + 1, width = 24
                let bar = String(repeating: "#", count: done * width / inputs.count) + String(repeating: ".", count: width - done * width / inputs.count)
                print(String(format: "[%@] %d/%d %@ → %@ (%.0f ms, %d K, tint %+.0f)", bar, done, inputs.count, input, destination,
                             Date().timeIntervalSince(started) * 1000, Int(raw.neutralTemperature), raw.neutralTint))
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("\(input): \(error.description)\n".utf8))
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
