// Feeds arbitrary bytes to the image readers and, when a header parses, renders a small crop
// through the engine. Any trap, crash or sanitizer report is a bug: bad input must end in a
// DaguerreError.
import Daguerre

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    var limits = Limits.default
    limits.maxPixels = 1 << 22          // keep each run small and fast
    limits.maxBufferBytes = 1 << 26
    do {
        let decoder = try ImageReader.open(data: bytes, limits: limits)
        let info = decoder.info
        let rows = min(info.height, 64)
        var buffer = [UInt8](repeating: 0, count: max(1, info.width * info.pixelFormat.bytesPerPixel * rows))
        try buffer.withUnsafeMutableBytes { raw in
            try decoder.readRows(y: 0, count: rows, into: raw.baseAddress!, bytesPerRow: info.width * info.pixelFormat.bytesPerPixel)
        }
        let image = try Image(data: bytes, limits: limits)
        let crop = image.cropped(to: Rect(x: 0, y: 0, width: min(image.extent.width, 32), height: min(image.extent.height, 32)))
        _ = try Context(options: .init(limits: limits)).createBuffer(try crop.applying(GaussianBlur(radius: 1)), format: .rgba8, colorSpace: .sRGB)
    } catch {
        // Typed errors are the expected outcome for damaged input.
    }
    return 0
}

// SwiftPM links an executable's entry point as `<Module>_main`; hand control to libFuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzDecode_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v, fuzzDecode)
}
