import ArgumentParser
import DaguerreCore
import DaguerreImage
import Foundation

/// `daguerre generate`: renders a generator filter (gradients, colour wheels, constant colour)
/// over a rectangle to a file, streamed band by band.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract:
            "Render a generator filter (LinearGradient, RadialGradient, HueSaturationValueGradient, ConstantColorGenerator) to a file.",
        discussion: "Example: daguerre generate LinearGradient inputPoint0=0,0 inputPoint1=20000,20000 --size 20000x20000 -o big.jpg"
    )

    @Argument(help: "The generator's name.") var name: String
    @Argument(help: "Its key=value parameters.") var parameters: [String] = []
    @Option(help: "Width×height of the rendered area, from (0, 0), e.g. 4000x3000.") var size: String
    @Option(name: .shortAndLong, help: "The output file (.jpg, .png, .tif, .heic).") var output: String
    @Option(help: "Output colour space.") var colorspace: String = "sRGB"
    @Option(help: "JPEG quality, 0...1.") var quality: Double = 0.9

    func run() throws {
        do { try execute() } catch let e as DaguerreError { throw e.commandError }
    }

    func execute() throws {
        let d = try FilterRegistry.descriptor(named: name)
        guard !d.parameters.contains(where: { $0.kind == .image }) else {
            throw DaguerreError.invalidArgument(what: name, problem: "it takes an input image; use `daguerre apply` for filters")
        }
        var params: [String: FilterValue] = [:]
        for w in parameters {
            let (k, v) = try ParameterParsing.parse(w, filter: d)
            params[k] = v
        }
        let dims = try ParameterParsing.size(size, option: "--size")
        guard let space = ColorSpace(named: colorspace) else {
            throw DaguerreError.invalidArgument(what: "--colorspace \(colorspace)", problem: "use sRGB, displayP3, adobeRGB, bt2020")
        }
        let image = try d.apply(params).cropped(to: Rect(x: 0, y: 0, width: Double(dims.width), height: Double(dims.height)))
        try OutputWriting.write(image, to: output, colorSpace: space, quality: quality, depth: "8", context: Context())
    }
}
