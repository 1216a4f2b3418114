import ArgumentParser
import Daguerre
import Foundation

/// `daguerre live`: LivePhotoEditor's job on the command line (session 505, SPEC E1–E7): what a
/// Live Photo is, and editing one (the still and every movie frame alike) into files that still
/// pair.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Inspect and edit Live Photos (a JPEG and its movie, or a Motion Photo).",
        subcommands: [LiveInfoCommand.self, LiveEditCommand.self])

    /// The edit's input from the command line: a still and a movie (either order), or one Motion Photo.
    static func input(_ paths: [String]) throws -> ContentEditingInput {
        let urls = paths.map { URL(fileURLWithPath: $0) }
        switch urls.count {
        case 1: return ContentEditingInput(motionPhoto: urls[0])
        case 2:
            let movies = ["mov", "mp4", "qt"]
            let (still, movie) = movies.contains(urls[0].pathExtension.lowercased()) ? (urls[1], urls[0]) : (urls[0], urls[1])
            return ContentEditingInput(still: still, movie: movie)
        default:
            throw ValidationError("Give a Live Photo as its still and its movie (IMG.JPG IMG.MOV), or one Motion Photo (IMG.MP.jpg).")
        }
    }
}

/// `daguerre live info`: the Live Photo as an edit sees it.
struct LiveInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "What a Live Photo holds: the still, the movie, the photo time, the pairing, an earlier edit.")

    @Argument(help: "The still and the movie (IMG.JPG IMG.MOV), or one Motion Photo.") var paths: [String]

    func run() throws {
        let input = try LiveCommand.input(paths)
        let context: LivePhotoEditingContext
        do { context = try LivePhotoEditingContext(livePhotoEditingInput: input) } catch { throw error.commandError }
        let still = context.fullSizeImage.extent
        print("still: \(Int(still.width))×\(Int(still.height)) upright (EXIF orientation \(context.orientation))")
        print("movie: \(context.movieSize), \(String(format: "%.3f", context.duration.seconds)) s")
        print(String(format: "photo time: %.3f s", context.photoTime.seconds))
        print(
            "pairing: \(context.contentIdentifier.map { "content identifier \($0) in the still and the movie" } ?? "one Motion Photo file")"
        )
        let adjustment = try? AdjustmentData.read(fromStill: input.fullSizeImageURL.path)
        if let adjustment {
            print(
                "edited: \(adjustment.formatIdentifier) version \(adjustment.formatVersion), \(adjustment.data.count) bytes of adjustment data"
            )
        }
    }
}

/// `daguerre live edit`: one edit for the still and the movie, saved as a pair or a Motion Photo.
struct LiveEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit a Live Photo: filters, a square crop and the volume, on the still and every frame of the movie.",
        discussion: """
            Examples:
              daguerre live edit IMG_0001.JPG IMG_0001.MOV -o edited/ --crop square --filter SepiaTone intensity=0.8
              daguerre live edit IMG_0001.JPG IMG_0001.MOV -o edited/ --filter GaussianBlur radius=20 --volume 0.5
              daguerre live edit PXL_0001.MP.jpg -o edited/ --format jpeg
              daguerre live edit IMG_0001.HEIC IMG_0001.MOV -o edited/ --crop square   # saved as HEIC + HEVC
              daguerre live edit IMG_0001.JPG IMG_0001.MOV -o again/ --resume edited/IMG_0001.JPG
            Radii, widths and positions are in pixels of the full-size still; the movie's frames get them scaled
            to their size. The edit is saved as adjustment data (in the still's XMP and an .AAE sidecar): --resume
            redoes it from the original, file for file.
            """)

    @Argument(help: "The still and the movie (IMG.JPG IMG.MOV), or one Motion Photo.") var paths: [String]
    @Option(name: .shortAndLong, help: "Output folder (created if missing); the files take the still's name.") var output: String
    @Option(
        name: .customLong("filter"), parsing: .upToNextOption,
        help: "A filter name followed by its key=value parameters; repeat for a chain.") var filterWords: [String] = []
    @Option(help: "Crop: square (the largest centred square).") var crop: String?
    @Option(help: "The sound's volume, 0...1.") var volume: Float = 1
    @Option(
        help: """
            jpeg (a JPEG and an H.264 QuickTime movie that pair), heic (a HEIC and an HEVC movie) or \
            motion-photo (one .MP.jpg); by default the input's own: heic for a HEIC still, else jpeg.
            """)
    var format: String?
    @Option(help: "Redo the edit saved in this edited still (its XMP) or .AAE sidecar, instead of the options above.")
    var resume: String?

    static let motionPhoto = "motion-photo"

    func validate() throws {
        if let format, format != Self.motionPhoto, LivePhotoPairFormat(rawValue: format) == nil {
            let names = LivePhotoPairFormat.allCases.map(\.rawValue) + [Self.motionPhoto]
            throw ValidationError("--format \(format): use \(names.joined(separator: ", ")).")
        }
        if let crop, LiveEditRecipe.Crop(rawValue: crop) == nil {
            throw ValidationError("--crop \(crop): use \(LiveEditRecipe.Crop.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard volume.isFinite, (0...1).contains(volume) else { throw ValidationError("--volume \(volume): give 0...1.") }
        if resume != nil, !filterWords.isEmpty || crop != nil || volume != 1 {
            throw ValidationError("--resume redoes a saved edit: drop --filter, --crop and --volume.")
        }
    }

    func run() async throws {
        do {
            try await execute()
        } catch let e as DaguerreError {
            throw e.commandError
        }
    }

    func execute() async throws {
        let input = try LiveCommand.input(paths)
        let recipe = try self.recipe()
        let context = try LivePhotoEditingContext(livePhotoEditingInput: input)
        context.frameProcessor = try recipe.frameProcessor()
        context.audioVolume = recipe.volume
        do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
            throw DaguerreError.io(operation: "create the folder", path: output, reason: error.localizedDescription)
        }
        var stem = input.fullSizeImageURL.deletingPathExtension().lastPathComponent
        if stem.uppercased().hasSuffix(".MP") { stem = String(stem.dropLast(3)) }
        let folder = URL(fileURLWithPath: output)
        var out: ContentEditingOutput
        if format == Self.motionPhoto {
            out = ContentEditingOutput(contentEditingInput: input, motionPhoto: folder.appendingPathComponent("\(stem).MP.jpg"))
        } else {
            let pair = format.flatMap(LivePhotoPairFormat.init(rawValue:)) ?? LivePhotoPairFormat(stillURL: input.fullSizeImageURL)
            out = ContentEditingOutput(
                contentEditingInput: input, still: folder.appendingPathComponent("\(stem).\(pair.stillExtension)"),
                movie: folder.appendingPathComponent("\(stem).MOV"))
        }
        out.adjustmentData = try recipe.adjustmentData()
        let started = Date()
        try await context.saveLivePhoto(to: out)
        let files: [URL]
        switch out.destination {
        case .pair(let still, let movie): files = [still, movie]
        case .motionPhoto(let url): files = [url]
        }
        for f in files + [AdjustmentData.sidecarURL(forStill: out.stillURL)] { print("wrote \(f.path)") }
        print(String(format: "saved in %.2f s", Date().timeIntervalSince(started)))
    }

    /// The edit: from the options, or from the adjustment data of `--resume`.
    func recipe() throws -> LiveEditRecipe {
        if let resume {
            let url = URL(fileURLWithPath: resume)
            let data =
                url.pathExtension.uppercased() == "AAE"
                ? try AdjustmentData(sidecar: url) : try AdjustmentData.read(fromStill: resume)
            guard let data else {
                throw DaguerreError.invalidArgument(what: "--resume \(resume)", problem: "it holds no adjustment data (XMP) of an edit")
            }
            return try LiveEditRecipe(adjustmentData: data)
        }
        let filters = try ParameterParsing.chain(filterWords).map { LiveEditRecipe.Filter(name: $0.0, parameters: $0.1) }
        return LiveEditRecipe(filters: filters, crop: crop.flatMap(LiveEditRecipe.Crop.init(rawValue:)), volume: volume)
    }
}
