// The FuzzMotionPhoto harness: `FuzzTargets.motionPhoto` (fuzz/Targets) under libFuzzer.
import DaguerreFuzzTargets
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    FuzzTargets.motionPhoto(bytes)
    return 0
}

@_cdecl("FuzzMotionPhoto_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, testOneInput)
}
