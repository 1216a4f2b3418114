import DaguerreCore
import DaguerreFormats
import Foundation

/// An image file (JPEG, PNG, TIFF), in-memory file data, or any row source (a RAW develop's
/// rows), read lazily (I1, I3).
///
/// Creating the node reads only the header (so the extent, colour space and any format error
/// are known at once); rows are decoded during rendering, only those a render asks for.
final class FileSourceNode: ImageNode, @unchecked Sendable {
    enum Origin: Sendable {
        case path(String)
        case data([UInt8])
        case source(@Sendable () throws(DaguerreError) -> any RowSource, String)
    }
    let origin: Origin
    let info: RowSourceInfo
    let limits: Limits

    init(path: String, limits: Limits) throws(DaguerreError) {
        let info = ImageFileRowSource(try ImageReader.open(path: path, limits: limits)).info
        self.origin = .path(path)
        self.info = info
        self.limits = limits
        // The digest names the file's identity and version: path, size and modification time.
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attrs?[.size] as? Int) ?? 0
        let mtime = (attrs?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        super.init(
            extent: Rect(x: 0, y: 0, width: Double(info.width), height: Double(info.height)), inputs: [],
            kind: "file"
        ) { d in
            d.add(path)
            d.add(size)
            d.add(mtime)
        }
    }

    init(data: [UInt8], limits: Limits) throws(DaguerreError) {
        let info = ImageFileRowSource(try ImageReader.open(data: data, limits: limits)).info
        self.origin = .data(data)
        self.info = info
        self.limits = limits
        super.init(
            extent: Rect(x: 0, y: 0, width: Double(info.width), height: Double(info.height)), inputs: [],
            kind: "data"
        ) { d in data.withUnsafeBytes { d.add(bytes: $0) } }
    }

    /// Rows from `makeSource` (called once now for the header, then once per render);
    /// `identity` must name everything that decides the pixels, for the digest.
    init(makeSource: @escaping @Sendable () throws(DaguerreError) -> any RowSource, identity: String) throws(DaguerreError) {
        let info = try makeSource().info
        self.origin = .source(makeSource, identity)
        self.info = info
        self.limits = .default
        super.init(
            extent: Rect(x: 0, y: 0, width: Double(info.width), height: Double(info.height)), inputs: [],
            kind: "decoder"
        ) { d in d.add(identity) }
    }

    override var evaluation: Evaluation { .source }
    override var label: String {
        switch origin {
        case .path(let p): return "file '\((p as NSString).lastPathComponent)'"
        case .data(let d): return "data (\(d.count) bytes)"
        case .source(_, let identity): return "decoder '\(identity)'"
        }
    }
    override var details: String { "\(info.kind) \(info.pixelFormat) \(info.colorSpace.name)" }
    override var sourceColorSpace: ColorSpace? { info.colorSpace }

    func openSource() throws(DaguerreError) -> any RowSource {
        switch origin {
        case .path(let p): return ImageFileRowSource(try ImageReader.open(path: p, limits: limits))
        case .data(let d): return ImageFileRowSource(try ImageReader.open(data: d, limits: limits))
        case .source(let make, _): return try make()
        }
    }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        guard let session = context.pass.session(for: self) else {
            throw .invalidArgument(what: "Rendering \(label)", problem: "the source was not prepared for this pass (internal error)")
        }
        let conv = try context.pass.converter(for: self, format: info.pixelFormat, alpha: info.alpha, space: info.colorSpace)
        return SourceRowProducer(rect: rect, extent: pixelExtent, converter: conv) { y in session.row(y) }
    }
}

/// Reads rows of a source through its converter; transparent outside the source's extent.
final class SourceRowProducer: RowProducer {
    let rect: IntRect
    let extent: IntRect
    let converter: SourceConverter
    /// The stored row `y`: its first pixel and the columns it holds (a session holds only the
    /// columns its render asked for, which may be fewer than the extent's).
    let rowAt: (Int) -> (UnsafeRawPointer, Range<Int>)?

    init(rect: IntRect, extent: IntRect, converter: SourceConverter, rowAt: @escaping (Int) -> (UnsafeRawPointer, Range<Int>)?) {
        self.rect = rect
        self.extent = extent
        self.converter = converter
        self.rowAt = rowAt
    }

    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        guard y >= extent.y, y < extent.maxY, let (base, held) = rowAt(y) else {
            out.update(repeating: .zero, count: rect.width)
            return
        }
        // Columns outside what the row holds read as transparent, never past its memory.
        let x0 = max(rect.x, extent.x, held.lowerBound)
        let x1 = min(rect.maxX, extent.maxX, held.upperBound)
        guard x1 > x0 else {
            out.update(repeating: .zero, count: rect.width)
            return
        }
        let firstX = held.lowerBound
        if x0 > rect.x { out.update(repeating: .zero, count: x0 - rect.x) }
        converter.convert(base + (x0 - firstX) * converter.format.bytesPerPixel, count: x1 - x0, into: out + (x0 - rect.x))
        if x1 < rect.maxX { (out + (x1 - rect.x)).update(repeating: .zero, count: rect.maxX - x1) }
    }
}

extension SourceRowProducer {
    /// The stored RGB floats of row `y` from the tile's first column, when the converter passes
    /// them as they are (``SourceConverter/passesFloatRGB``) and the row holds every column of
    /// the tile; nil otherwise (``row(_:into:)`` then reads it).
    func floatRGB(_ y: Int) -> UnsafePointer<Float>? {
        guard converter.passesFloatRGB, y >= extent.y, y < extent.maxY, rect.x >= extent.x, rect.maxX <= extent.maxX,
            let (base, held) = rowAt(y), rect.x >= held.lowerBound, rect.maxX <= held.upperBound
        else { return nil }
        return (base + (rect.x - held.lowerBound) * converter.format.bytesPerPixel).assumingMemoryBound(to: Float.self)
    }

    /// This source read through `m` in one pass, when `m` only scales (exposure) and the
    /// source's table can carry the scale: the same bits as the matrix applied after the read.
    func scaled(by m: Matrix3) -> SourceRowProducer? {
        guard let converter = converter.scaled(by: m) else { return nil }
        return SourceRowProducer(rect: rect, extent: extent, converter: converter, rowAt: rowAt)
    }
}

extension SourceRowProducer: PlanarRowSource {
    func planes(_ y: Int, x: Int, into p: PlanarSpan) -> PlanarRead {
        guard converter.convertsToPlanes, y >= extent.y, y < extent.maxY, x >= extent.x, x + p.count <= extent.maxX,
            let (base, held) = rowAt(y), x >= held.lowerBound, x + p.count <= held.upperBound
        else { return .unavailable }
        return converter.convertPlanar(base + (x - held.lowerBound) * converter.format.bytesPerPixel, count: p.count, into: p)
            ? .opaque : .premultiplied
    }
}
