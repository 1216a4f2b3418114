// An image file's decoder as a row source: the formats module decodes, the engine pulls.
import DaguerreCore
import DaguerreFormats

/// The rows of an image file (JPEG, PNG, TIFF), decoded by its ``ImageDecoder`` as the engine
/// asks for them.
///
/// ```swift
/// let source = ImageFileRowSource(try ImageReader.open(path: "in.jpg"))
/// source.info.kind        // "jpeg"
/// ```
public final class ImageFileRowSource: RowSource {
    public let decoder: any ImageDecoder
    public let info: RowSourceInfo

    public init(_ decoder: any ImageDecoder) {
        self.decoder = decoder
        let i = decoder.info
        info = RowSourceInfo(
            kind: i.format.rawValue, width: i.width, height: i.height, pixelFormat: i.pixelFormat,
            alpha: i.alpha, colorSpace: i.colorSpace)
    }

    public func setColumns(_ columns: Range<Int>) throws(DaguerreError) -> Range<Int> { try decoder.setColumns(columns) }

    public func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        try decoder.readRows(y: y, count: count, into: destination, bytesPerRow: bytesPerRow)
    }
}
