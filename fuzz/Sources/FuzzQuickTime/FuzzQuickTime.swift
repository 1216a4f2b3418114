// Feeds arbitrary bytes to the QuickTime/MP4 reader: box parsing, sample tables, movie and timed
// metadata, sample reads. Not H.264 decoding (that is libavcodec's, fuzzed upstream). Any trap,
// crash or sanitizer report is a bug: bad input must end in a DaguerreError.
import DaguerreFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuickTime(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    var options = MovieReader.Options()
    options.maxMovieAtomBytes = 1 << 20      // keep each run small and fast
    options.maxSamplesPerTrack = 1 << 20
    options.maxSampleBytes = 1 << 20
    do {
        let movie = try MovieReader(data: bytes, options: options)
        _ = movie.contentIdentifier
        _ = movie.fileType
        _ = try? movie.stillImageTime()
        for item in movie.metadata { _ = item.description }
        for track in movie.tracks {
            _ = track.startTime
            let n = track.sampleCount
            // Random access across the table, both ends and a stride through the middle.
            for i in [0, 1, n / 2, n - 2, n - 1] + Array(stride(from: 0, to: n, by: max(1, n / 32))) {
                if let s = track.sample(at: i) {
                    _ = track.presentationTime(ofMediaTime: s.presentationTime)
                    _ = try? movie.sampleData(track: track.id, index: i)
                }
            }
            _ = track.sampleTable.syncSample(atOrBefore: n - 1)
            _ = try? movie.sampleData(track: track.id, range: 0..<min(n, 64))
            if track.codec == "mebx" { _ = try? movie.timedMetadata(track: track.id) }
            if track.mediaType == .audio { _ = try? movie.pcm16Samples(track: track.id) }
        }
    } catch {
        // Typed errors are the expected outcome for damaged input.
    }
    return 0
}

// SwiftPM links an executable's entry point as `<Module>_main`; hand control to libFuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzQuickTime_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v, fuzzQuickTime)
}
