// The FuzzHEIF harness: `FuzzTargets.heif` (fuzz/Targets) under libFuzzer.
import DaguerreFuzzTargets
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    FuzzTargets.heif(bytes)
    return 0
}

@_cdecl("FuzzHEIF_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, testOneInput)
}
