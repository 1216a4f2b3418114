// The FuzzRAWDevelop harness: `FuzzTargets.rawDevelop` (fuzz/Targets) under libFuzzer.
import DaguerreFuzzTargets
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzTargets.rawDevelop([UInt8](UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_cdecl("FuzzRAWDevelop_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, testOneInput)
}
