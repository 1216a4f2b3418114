// The FuzzDNG harness: `FuzzTargets.dng` (fuzz/Targets) under libFuzzer.
import DaguerreFuzzTargets
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    _ = FuzzTargets.dng(bytes)
    return 0
}

@_cdecl("FuzzDNG_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, testOneInput)
}
