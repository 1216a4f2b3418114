// The seed's worked example (K2), as a program: an integral image made by an ImageProcessor,
// a variable box blur that reads four corners of it, and a RadialGradient mask that moves.
//
//   swift run variable-box-blur INPUT OUTPUT-PREFIX
//
// It writes OUTPUT-PREFIX-0.jpg … -3.jpg with the mask in four places and prints how many
// times the integral image was computed: once, because the context caches it.
import Daguerre
import DaguerreSamples
import Foundation

let args = CommandLine.arguments
guard args.count == 3 else {
    FileHandle.standardError.write(Data("usage: variable-box-blur INPUT OUTPUT-PREFIX\n".utf8))
    exit(2)
}
func run(input: String, prefix: String) throws(DaguerreError) {
    let image = try Image(contentsOf: URL(fileURLWithPath: input))
    let sample = VariableBoxBlur()
    let integral = sample.integralImage(image)
    let context = try Context()  // cacheIntermediates on: the integral image is kept
    let w = image.extent.width
    let h = image.extent.height
    for (i, f) in [0.25, 0.5, 0.75, 0.5].enumerated() {
        let blurred = try sample.variableBlur(
            integral: integral, mask: sample.mask(center: [w * f, h * 0.5], radius1: min(w, h) / 2), maxRadius: 15)
        let out = "\(prefix)-\(i).jpg"
        try context.writeJPEGRepresentation(of: blurred, to: URL(fileURLWithPath: out), colorSpace: .sRGB, options: [.quality(0.9)])
        print("wrote \(out)")
    }
    print("integral image computed \(sample.processorCalls.load(ordering: .relaxed)) time(s) for 4 renders")
}

do {
    try run(input: args[1], prefix: args[2])
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
