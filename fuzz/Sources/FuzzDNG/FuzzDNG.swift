// Feeds arbitrary bytes to the DNG/TIFF structure reader and the DNG reader (IFD trees, tiles,
// lossless JPEG, bit-packed strips, opcode lists, previews), then applies any GainMap or
// WarpRectilinear opcode to a small buffer. Bad input must end in a DaguerreError.
import Daguerre

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    var limits = Limits.default
    limits.maxPixels = 1 << 22
    limits.maxBufferBytes = 1 << 26
    if let reader = try? TIFFStructureReader(bytes: bytes), let tree = try? reader.tree(), let ifd0 = tree.first {
        _ = EXIFCodec.metadata(ifd0: ifd0, reader: reader)
    }
    if let dng = try? DNGReader.read(bytes: bytes, limits: limits) {
        var plane = [Float](repeating: 0.5, count: 16 * 16)
        for list in dng.opcodeLists {
            for op in list.opcodes { op.apply(to: &plane, width: 16, height: 16, channels: 1) }
        }
    }
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzDNG_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v, fuzzDNG)
}
