import ArgumentParser
import DaguerreCore
import Foundation

/// `daguerre inspect FILE`: what Daguerre's readers find in a JPEG, HEIC, DNG, MOV/MP4, PNG or TIFF.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract:
            "Print what Daguerre's readers find in a file: dimensions, colour space, EXIF, MakerNote, DNG tags, HEIC auxiliary images, tracks, metadata, Live Photo pairing."
    )

    @Argument(help: "The file to inspect.") var file: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let report: [String: Any]
        do { report = try FileInspection.report(path: file) } catch let error as DaguerreError { throw error.commandError }
        if json {
            let data = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(FileInspection.text(report))
        }
    }
}
