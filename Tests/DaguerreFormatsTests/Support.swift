import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

/// Decodes with our reader and packs the rows tightly.
func decodeOurs(_ path: String) throws -> (info: ImageFileInfo, image: TightImage) {
    let buffer = try ImageReader.readAll(path: path)
    return (try ImageReader.open(path: path).info, tight(buffer))
}

/// Decodes `path` with a judge (decode.py pillow|cv2|tinytiff) and returns its metadata and raw bytes.
func decodeJudge(_ lib: String, _ path: String, mode: String? = nil, in dir: TemporaryDirectory) throws -> (
    meta: [String: Any], bytes: [UInt8]
) {
    let out = dir.path("judge-\(UUID().uuidString).raw")
    let meta = try Judge.python("decode.py", [lib, path, out] + (mode.map { [$0] } ?? []))
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    try? FileManager.default.removeItem(atPath: out)
    return (meta, bytes)
}

/// Random pixels in `format` (floats in 0...1, halves too).
func randomImage(width: Int, height: Int, format: PixelFormat, seed: UInt64) -> TightImage {
    var rng = SeededRandom(seed: seed)
    let samples = width * height * format.channels
    var bytes = [UInt8](repeating: 0, count: samples * format.component.size)
    bytes.withUnsafeMutableBytes { raw in
        for i in 0..<samples {
            switch format.component {
            case .uint8: raw.storeBytes(of: UInt8.random(in: 0...255, using: &rng), toByteOffset: i, as: UInt8.self)
            case .uint16: raw.storeBytes(of: UInt16.random(in: 0...65535, using: &rng), toByteOffset: 2 * i, as: UInt16.self)
            case .float16:
                raw.storeBytes(of: Float16(Float.random(in: 0...1, using: &rng)).bitPattern, toByteOffset: 2 * i, as: UInt16.self)
            case .float32: raw.storeBytes(of: Float.random(in: 0...1, using: &rng), toByteOffset: 4 * i, as: Float.self)
            }
        }
    }
    return TightImage(width: width, height: height, format: format, bytes: bytes)
}

/// Writes a tight image with our encoder for `options.format`.
func writeOurs(
    _ image: TightImage, to path: String, format: ImageFileFormat, iccProfile: [UInt8]? = nil, isSRGB: Bool = false,
    quality: Double = 0.9, subsampling: Bool = true, compression: EncoderOptions.TIFFCompression = .deflate
) throws {
    let options = EncoderOptions(
        format: format, width: image.width, height: image.height, rowFormat: image.format,
        iccProfile: iccProfile, isSRGB: isSRGB, quality: quality, chromaSubsampling: subsampling,
        tiffCompression: compression)
    let encoder = try ImageWriter.create(path: path, options: options)
    // Two calls, to exercise streaming.
    let half = image.height / 2
    try image.bytes.withUnsafeBytes { raw in
        try encoder.writeRows(raw.baseAddress!, bytesPerRow: image.rowBytes, count: half)
        try encoder.writeRows(raw.baseAddress! + half * image.rowBytes, bytesPerRow: image.rowBytes, count: image.height - half)
    }
    try encoder.finish()
}

/// How many bytes differ.
func mismatches(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard a.count == b.count else { return max(a.count, b.count) }
    return zip(a, b).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
}

/// PSNR of two 8-bit images, in dB.
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    guard a.count == b.count, !a.isEmpty else { return 0 }
    var se = 0.0
    for (x, y) in zip(a, b) {
        let d = Double(x) - Double(y)
        se += d * d
    }
    let mse = se / Double(a.count)
    return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
}

/// Reads every row of a decoder in bands of 16 (the way a renderer asks).
func readAllRowsInBands(_ decoder: any ImageDecoder) throws(DaguerreError) {
    let info = decoder.info
    let stride = info.width * info.pixelFormat.bytesPerPixel
    let band = 16
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: stride * band, alignment: 16)
    defer { buffer.deallocate() }
    var y = 0
    while y < info.height {
        let n = min(band, info.height - y)
        try decoder.readRows(y: y, count: n, into: buffer, bytesPerRow: stride)
        y += n
    }
}

/// The embedded Display P3 profile of a file we wrote, judged by exiftool and Pillow
/// (icc_info.py) and read back by our reader: the same profile bytes and the same name.
func expectEmbeddedDisplayP3(_ path: String, icc: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let report = try Judge.python("icc_info.py", [path])
    #expect(report["exiftool_description"] as? String == "Display P3", sourceLocation: sourceLocation)
    #expect(report["pillow_icc_hex"] as? String == icc.map { String(format: "%02x", $0) }.joined(), sourceLocation: sourceLocation)
    let info = try ImageReader.open(path: path).info
    #expect(info.iccProfile == icc, sourceLocation: sourceLocation)
    #expect(info.colorSpace.name == "Display P3", sourceLocation: sourceLocation)
}
