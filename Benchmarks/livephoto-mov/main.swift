// livephoto-mov-bench: times recording a Live Photo movie (SPEC L2–L4): 45 frames of 1440×1080
// RGBA converted, H.264-encoded (x264, OpenH264 or both in turn) and muxed with 44.1 kHz PCM
// audio, the still-image-time track and metadata, written through AtomicFile. Frames are made
// before the clock starts; --psnr judges the decoded movies against them. See
// Benchmarks/README.md; daguerre-bench's `livephoto-mov` scenario runs this under /usr/bin/time.
import Foundation

do {
    let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
    try LivePhotoBench(options).run()
} catch {
    FileHandle.standardError.write(Data("livephoto-mov-bench: \(error)\n".utf8))
    exit(1)
}
