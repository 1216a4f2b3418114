import ArgumentParser
import DaguerreCore
import DaguerreImage
import DaguerreSamples
import Foundation

/// `daguerre demo`: the project's main end-to-end job: develops photographs (those given, or
/// ones it shoots with the virtual camera) through filter chains into wide-colour files, renders
/// the seed's new filters, runs the seed's worked example (K2), writes the first photograph as a
/// JPEG with EXIF, a DNG, a Live Photo pair and a Motion Photo, shoots RAW stills with the
/// virtual camera and develops them with RAWFilter, and records through a capture session,
/// printing what it measured.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo", abstract: "Run the end-to-end demonstration job.")

    @Option(name: .shortAndLong, help: "Output directory.") var output: String = "out"
    @Option(
        help:
            "Directory of input photographs (PNG/JPEG/TIFF); default: photographs of the virtual camera's studio scene, shot first into <output>/photographs."
    )
    var inputs: String?
    @Option(help: "How many photographs to develop.") var count: Int = 4

    func validate() throws {
        guard count >= 0 else { throw ValidationError("--count \(count): give 0 or more photographs to develop.") }
    }

    func run() throws {
        do { try execute() } catch let e as DaguerreError { throw e.commandError }
    }

    /// Runs `body` and prints how long it took, one aligned line per step.
    static func timed(_ label: String, _ body: () throws -> Void) rethrows {
        let t0 = Date()
        try body()
        print(String(format: "  %-58@ %7.1f ms", label as NSString, Date().timeIntervalSince(t0) * 1000))
    }

    func execute() throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: output, withIntermediateDirectories: true)
        let context = try Context()
        func out(_ name: String) -> URL { URL(fileURLWithPath: output).appendingPathComponent(name) }
        func timed(_ label: String, _ body: () throws -> Void) rethrows { try Self.timed(label, body) }

        // 1. Photographs through a development chain, out as Display P3 JPEG and 16-bit TIFF.
        let dir = try inputs ?? makePhotographs(in: out("photographs"), count: count)
        let files = ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).filter {
            ["png", "jpg", "jpeg", "tif", "tiff"].contains(($0 as NSString).pathExtension.lowercased())
        }.sorted()
        print("Developing \(min(count, files.count)) photographs from \(dir):")
        var firstDeveloped: Image?
        for f in files.prefix(count) {
            let image = try Image(contentsOf: URL(fileURLWithPath: dir).appendingPathComponent(f))
            let developed =
                try image
                .applying(ExposureAdjust(ev: 0.3))
                .applying(TemperatureAndTint(neutral: [6000, 0], targetNeutral: [6500, 0]))
                .applying(Vibrance(amount: 0.4))
                .applying(HighlightShadowAdjust(radius: 8, shadowAmount: 0.4, highlightAmount: 0.9))
                .applying(UnsharpMask(radius: 1.5, intensity: 0.4))
                .applying(LanczosScaleTransform(scale: 0.75))
            let stem = (f as NSString).deletingPathExtension
            if firstDeveloped == nil { firstDeveloped = developed }
            try timed("\(stem) → \(stem)-P3.jpg (Display P3, q 0.9)") {
                try context.writeJPEGRepresentation(
                    of: developed, to: out("\(stem)-P3.jpg"), colorSpace: .displayP3, options: [.quality(0.9)])
            }
            try timed("\(stem) → \(stem)-16.tif (Adobe RGB, 16-bit)") {
                try context.writeTIFFRepresentation(of: developed, to: out("\(stem)-16.tif"), format: .rgb16, colorSpace: .adobeRGB1998)
            }
        }

        // 2. The seed's new filters (I4).
        print("The seed's new filters:")
        for space in [ColorSpace.sRGB, .displayP3] {
            let wheel = try HueSaturationValueGradient(value: 1, radius: 256, colorSpace: space).outputImage()
            let name = "wheel-\(space == .sRGB ? "sRGB" : "P3").png"
            try timed("HueSaturationValueGradient in \(space.name) → \(name)") {
                try context.writePNGRepresentation(of: wheel, to: out(name), format: .rgba16, colorSpace: .displayP3)
            }
        }
        let frame = try LinearGradient(
            point0: [0, 0], point1: [120, 120], color0: Color(red: 0.9, green: 0.7, blue: 0.2),
            color1: Color(red: 0.3, green: 0.1, blue: 0.05)
        )
        .outputImage().cropped(to: Rect(x: 0, y: 0, width: 120, height: 120))
        try timed("NinePartStretched 120×120 → 600×300") {
            let grown = try frame.applying(NinePartStretched(breakpoint0: [30, 30], breakpoint1: [90, 90], growAmount: [480, 180]))
            try context.writePNGRepresentation(of: grown, to: out("nine-part-stretched.png"), colorSpace: .sRGB)
        }
        try timed("NinePartTiled 120×120 → 600×300") {
            let grown = try frame.applying(NinePartTiled(breakpoint0: [30, 30], breakpoint1: [90, 90], growAmount: [480, 180]))
            try context.writePNGRepresentation(of: grown, to: out("nine-part-tiled.png"), colorSpace: .sRGB)
        }
        if let f = files.first {
            let guide = try Image(contentsOf: URL(fileURLWithPath: dir).appendingPathComponent(f))
            let small = try guide.applying(LanczosScaleTransform(scale: 1.0 / 64)).applying(ColorControls(saturation: 2))
            try timed("EdgePreserveUpsample \(Int(small.extent.width))×\(Int(small.extent.height)) under \(f)") {
                let up = try guide.applying(EdgePreserveUpsample(smallImage: small))
                try context.writeJPEGRepresentation(of: up, to: out("edge-preserve-upsample.jpg"), colorSpace: .sRGB)
            }

            // 3. The worked example (K2): the integral image is computed once while the mask moves.
            print("The seed's worked example (variable box blur over an integral image):")
            let sample = VariableBoxBlur()
            let integral = sample.integralImage(guide)
            let w = guide.extent.width
            let h = guide.extent.height
            for (i, fx) in [0.3, 0.5, 0.7].enumerated() {
                try timed("mask at x = \(Int(w * fx)) → variable-blur-\(i).jpg") {
                    let blurred = try sample.variableBlur(
                        integral: integral, mask: sample.mask(center: [w * fx, h / 2], radius1: min(w, h) / 2), maxRadius: 15)
                    try context.writeJPEGRepresentation(of: blurred, to: out("variable-blur-\(i).jpg"), colorSpace: .sRGB)
                }
            }
            print("  integral image computed \(sample.processorCalls.load(ordering: .relaxed)) time(s) for 3 renders (cached by digest)")
        }
        if let firstDeveloped { try filesDemo(photo: firstDeveloped, context: context, directory: URL(fileURLWithPath: output)) }
        try cameraDemo(directory: URL(fileURLWithPath: output))
        print("Wrote \(((try? fm.contentsOfDirectory(atPath: output)) ?? []).count) files to \(output)/")
    }
}
