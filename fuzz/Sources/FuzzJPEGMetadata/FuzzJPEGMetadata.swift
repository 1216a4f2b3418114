// Feeds arbitrary bytes to the JPEG metadata reader (markers, EXIF IFDs, Apple MakerNote, XMP,
// ICC chunks, thumbnail, Motion Photo trailer) and the metadata splicer. Bad input must end in
// a DaguerreError.
import Daguerre

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGMetadata(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let info = try? JPEGFileMetadata(bytes: bytes) {
        _ = info.metadata.map { EXIFCodec.directories(for: $0) }
        _ = info.xmp?.serialized()
    }
    _ = try? JPEGFileMetadata.replacingMetadata(in: bytes, with: [.exif(TIFFSerializer.file([TIFFDirectory()], byteOrder: .bigEndian))])
    _ = AppleMakerNote(parsing: bytes)
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzJPEGMetadata_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v, fuzzJPEGMetadata)
}
