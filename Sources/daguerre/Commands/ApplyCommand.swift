import ArgumentParser
import DaguerreCore
import DaguerreImage
import Foundation

/// `daguerre apply`: a filter chain from file to file, like the vips CLI (I1, I7).
struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a chain of filters to an image file and write the result.",
        discussion: """
            Example: daguerre apply in.jpg -o out.jpg --filter GaussianBlur inputRadius=2 \
            --filter LanczosScaleTransform inputScale=0.5 --colorspace displayP3 --quality 0.9
            Parameter names may drop the 'input' prefix (radius=2). Image parameters take a path (@bg.jpg).
            """
    )

    @Argument(help: "The input image (JPEG, PNG, TIFF or HEIC).") var input: String
    @Option(name: .shortAndLong, help: "The output file; its extension picks the format (.jpg, .png, .tif, .heic).") var output: String
    @Option(
        name: .customLong("filter"), parsing: .upToNextOption,
        help: "A filter name followed by its key=value parameters; repeat for a chain.") var filterWords: [String] = []
    @Option(help: "Output colour space: sRGB, displayP3, adobeRGB, bt2020, linearSRGB... Default: the input's.") var colorspace: String?
    @Option(help: "JPEG and HEIC quality, 0...1.") var quality: Double = 0.9
    @Option(help: "Output depth for PNG/TIFF: 8, 16, half or float; HEIC: 8, or 16 (coded with 10 bits).") var depth: String = "8"
    @Option(help: "Working format: RGBAh, RGBAf or RGBA8.") var workingFormat: String = "RGBAh"
    @Flag(help: "Turn colour management off (filters see the file's encoded values).") var noColorManagement = false
    @Flag(help: "Render at low priority (background export).") var lowPriority = false
    @Option(
        help:
            "Edges of blurs and sharpening: 'clamp' repeats edge pixels and keeps the size (like vips); 'transparent' fades to transparent and grows the extent (Core Image)."
    )
    var edges: String = "clamp"

    func run() throws {
        do {
            try execute()
        } catch let e as DaguerreError {
            throw e.commandError
        }
    }

    func execute() throws {
        guard ["clamp", "transparent"].contains(edges) else {
            throw DaguerreError.invalidArgument(what: "--edges \(edges)", problem: "use clamp or transparent")
        }
        var image = try Image(contentsOf: URL(fileURLWithPath: input))
        let inputSpace = image.colorSpace ?? .sRGB  // read from the header once, by the source
        for (name, words) in try ParameterParsing.chain(filterWords) {
            let d = try FilterRegistry.descriptor(named: name)
            var params: [String: FilterValue] = [:]
            for w in words {
                let (k, v) = try ParameterParsing.parse(w, filter: d)
                params[k] = v
            }
            image = try ParameterParsing.apply(d, params, to: image, clampEdges: edges == "clamp")
        }
        if image.extent.isInfinite {
            throw DaguerreError.invalidArgument(
                what: "The filter chain's result",
                problem: "it has an infinite extent; end the chain with --filter Crop inputRectangle=x,y,w,h")
        }
        guard let wf = PixelFormat(name: workingFormat) else {
            throw DaguerreError.invalidArgument(what: "--working-format \(workingFormat)", problem: "use RGBAh, RGBAf or RGBA8")
        }
        let context = try Context(
            options: .init(
                workingFormat: wf, workingColorSpace: noColorManagement ? nil : .extendedLinearSRGB,
                cacheIntermediates: false, lowPriority: lowPriority))
        var space = inputSpace.isRGB ? inputSpace : ColorSpace.sRGB
        if let colorspace {
            guard let s = ColorSpace(named: colorspace) else {
                throw DaguerreError.invalidArgument(
                    what: "--colorspace \(colorspace)", problem: "use sRGB, displayP3, adobeRGB, bt2020, linearSRGB or linearP3")
            }
            space = s
        }
        try OutputWriting.write(image, to: output, colorSpace: space, quality: quality, depth: depth, context: context)
    }
}
