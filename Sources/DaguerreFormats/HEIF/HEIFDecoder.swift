// HEIC through ImageReader: the primary image decoded whole by HEIFFile (libheif decodes an HEVC
// picture at once), then handed out row by row.
import DaguerreCore

/// The ``ImageDecoder`` for HEIF/HEIC files, so that ``ImageReader`` and the engine read them
/// like JPEGs: upright RGBA (8 or 16 bits per sample), in the file's colour space.
///
/// libheif decodes a picture whole, so the first ``readRows(y:count:into:bytesPerRow:)``
/// decodes the primary image (its size checked against the limits first) and later calls copy
/// rows from it; rows may be read in any order.
///
/// ```swift
/// let decoder = try ImageReader.open(path: "IMG_0001.HEIC")   // a HEIFDecoder
/// print(decoder.info.width, decoder.info.colorSpace.name)
/// ```
final class HEIFDecoder: ImageDecoder {
    let info: ImageFileInfo
    private let file: HEIFFile
    private var pixels: PixelBuffer?

    init(source: ImageSource, limits: Limits) throws(DaguerreError) {
        switch source {
        case .file(let path): file = try HEIFFile(path: path, limits: limits)
        case .memory(let bytes): file = try HEIFFile(bytes: bytes, limits: limits)
        }
        guard let space = file.colorSpace else {
            throw .unsupported(
                feature: "HEIF colour \(file.colorProfile.summary)",
                hint: "Daguerre has no model for this colour description (PQ or HLG video curves); convert the file to an SDR image first.")
        }
        var icc: [UInt8]?
        if case .icc(let bytes) = file.colorProfile { icc = bytes }
        info = ImageFileInfo(
            format: .heic, width: file.width, height: file.height, pixelFormat: file.bitDepth > 8 ? .rgba16 : .rgba8,
            alpha: file.isPremultipliedAlpha ? .premultiplied : .straight, iccProfile: icc, colorSpace: space, randomAccess: true)
    }

    /// Every column is decoded (libheif decodes the whole picture).
    func setColumns(_ columns: Range<Int>) throws(DaguerreError) -> Range<Int> { 0..<info.width }

    func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        let rowBytes = info.width * info.pixelFormat.bytesPerPixel
        guard y >= 0, count >= 0, y + count <= info.height, bytesPerRow >= rowBytes else {
            throw .invalidArgument(
                what: "HEIF rows \(y)..<\(y + count) with \(bytesPerRow) bytes a row",
                problem: "the image has \(info.height) rows of \(rowBytes) bytes")
        }
        if pixels == nil { pixels = try file.decodePrimaryImage() }
        guard let pixels else { return }
        for r in 0..<count {
            (destination + r * bytesPerRow).copyMemory(from: pixels.rowAddress(y + r), byteCount: rowBytes)
        }
    }
}
