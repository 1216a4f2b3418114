// The seeds' photo samples (sessions 501 and 511, in Sources/DaguerreSamples/PhotoSamples),
// run against the virtual back and front cameras on the host clock. Writes the JPEGs and DNGs
// to OUTPUT-FOLDER and prints, for each sample, the resolved settings, the callbacks with their
// times since the request, the images and the files.
//
//   swift run -c release photo-samples OUTPUT-FOLDER
import Daguerre
import DaguerreSamples
import Foundation

let args = CommandLine.arguments
guard args.count == 2 else {
    FileHandle.standardError.write(Data("usage: photo-samples OUTPUT-FOLDER\n".utf8))
    exit(2)
}
let folder = args[1]

do {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let provider = try VirtualDeviceProvider(seed: 0)
    let runner = PhotoSampleRunner(back: provider.backCamera, front: provider.frontCamera, folder: folder)
    _ = try runner.runAll { print($0.summary) }
} catch {
    FileHandle.standardError.write(Data("photo-samples: \(error)\n".utf8))
    exit(1)
}
