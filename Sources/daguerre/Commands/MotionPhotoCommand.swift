import ArgumentParser
import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import Foundation

/// `daguerre motionphoto STILL.jpg MOVIE.mov -o OUT.MP.jpg`: a Live Photo pair as one Motion
/// Photo, for people moving their photos to Android (SPEC L6).
struct MotionPhotoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motionphoto",
        abstract: "Turn a Live Photo pair (JPEG + MOV with the same content identifier) into a Motion Photo (…MP.jpg).")

    @Argument(help: "The Live Photo's still (JPEG).") var still: String
    @Argument(help: "The Live Photo's movie (MOV).") var movie: String
    @Option(name: .shortAndLong, help: "Output file; its name must end in MP.jpg.") var output: String
    @Flag(help: "Leave the sound out of the video.") var noAudio = false

    func run() throws {
        guard output.hasSuffix("MP.jpg") else {  // as MotionPhoto.fileSuffix, ".MP.jpg", does
            throw ValidationError("The output name must end in MP.jpg (for example IMG_0001.MP.jpg), which Google Photos looks for.")
        }
        do {
            let pair = try LivePhotoPair.read(still: still, movie: movie)
            let bytes = try pair.motionPhoto(includeAudio: !noAudio)
            try AtomicFile.write(bytes, to: output)
            print("\(output): Motion Photo, \(bytes.count) bytes, content identifier \(pair.contentIdentifier)")
        } catch {
            throw error.commandError
        }
    }
}
