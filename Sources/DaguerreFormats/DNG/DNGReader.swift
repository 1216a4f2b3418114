// Reads DNG files, ours and third-party (DNG 1.0–1.4; SPEC R1, R6, X6): the CFA mosaic (tiles or
// strips; uncompressed, bit-packed or lossless JPEG), every colour and crop field, the preview,
// the EXIF metadata and the opcode lists. Built on the hand-written IFD layer.
import DaguerreCore
import Dispatch
import Foundation

/// Reads a DNG into a ``DNGImage``.
///
/// The raw IFD is the first IFD (IFD0 or a SubIFD) with NewSubFileType 0. Mosaics with a 2×2
/// Bayer CFA and LinearRaw images (1–4 samples per pixel; lossless, uncompressed or lossy JPEG,
/// as Adobe DNG Converter writes them) are read; X-Trans, four-colour CFAs and deflate
/// (floating-point) DNGs are `.unsupported` with a hint. A LinearizationTable is applied while reading; BlackLevelDeltaH/V are folded into
/// the per-position black level by their means. Sizes are checked against `limits` before
/// anything is allocated.
///
/// ```swift
/// let dng = try DNGReader.read(path: "IMG_0001.dng")
/// switch dng.rawData {
/// case let .mosaic(bayer): print(bayer.pattern.fourCC, dng.color.asShotNeutral ?? [])
/// case let .linear(rgb): print(rgb.samplesPerPixel, "samples per pixel, already demosaiced")
/// }
/// ```
public enum DNGReader {
    public static func read(path: String, limits: Limits = .default) throws(DaguerreError) -> DNGImage {
        try open(path: path, limits: limits, deferring: false)
    }

    /// Reads a DNG's structure and metadata; with `deferring`, a CFA mosaic stored uncompressed
    /// or as lossless JPEG stays in the file (``DNGRawData/storedMosaic(_:)``), for a develop to
    /// decode band by band (a 24 MP mosaic is 48 MB it then never holds whole). Other main
    /// images are decoded as by ``read(path:limits:)``.
    ///
    /// ```swift
    /// let dng = try DNGReader.open(path: "IMG_0001.dng")
    /// print(dng.rawSize, dng.mosaicLayout?.pattern ?? .rggb)    // (6000, 4000) rggb
    /// ```
    ///
    /// Deferring, a large regular file is read without its main image's chunk data when that
    /// lies in one run the structure does not otherwise use (``readWithoutChunks(path:limits:)``);
    /// the chunks are then read from the file as they are decoded.
    package static func open(path: String, limits: Limits = .default, deferring: Bool = true) throws(DaguerreError) -> DNGImage {
        if deferring, let opened = readWithoutChunks(path: path, limits: limits) { return opened }
        let bytes = try ImageSource.readFile(path)
        do { return try open(bytes: bytes, limits: limits, deferring: deferring) } catch { throw error.at(path: path) }
    }

    /// Whether a file that begins with `head` is a DNG, from IFD0 alone: nil when IFD0's entries
    /// lie past `head` (read more to tell). Lets a caller route TIFF-based camera RAWs (CR2,
    /// NEF, ARW…) elsewhere without reading the whole file.
    public static func isDNG(head: [UInt8]) -> Bool? {
        guard head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) else { return false }
        guard let r = try? TIFFStructureReader(bytes: head, format: "DNG"), let (ifd0, _) = try? r.directory(at: r.firstIFD) else {
            return nil
        }
        return ifd0.has(.dngVersion)
    }

    public static func read(bytes: [UInt8], limits: Limits = .default) throws(DaguerreError) -> DNGImage {
        try open(bytes: bytes, limits: limits, deferring: false)
    }

    /// ``open(path:limits:deferring:)`` for a DNG's bytes in memory.
    package static func open(bytes: [UInt8], limits: Limits = .default, deferring: Bool = true) throws(DaguerreError) -> DNGImage {
        try image(try structure(bytes), limits: limits, deferring: deferring, file: nil)
    }

    /// A DNG's IFD tree, with IFD0, the DNG version and the main image's IFD found in it.
    struct Structure {
        let r: TIFFStructureReader
        let tree: [TIFFNode]
        let ifd0: TIFFNode, rawIFD: TIFFNode
        let version: [UInt8]
    }

    /// Parses the IFD tree of the DNG in `bytes`; refuses a TIFF that is not a DNG, or one with
    /// no main image.
    static func structure(_ bytes: [UInt8]) throws(DaguerreError) -> Structure {
        let r = try TIFFStructureReader(bytes: bytes, format: "DNG")
        let tree = try r.tree()
        guard let ifd0 = tree.first else { throw .corruptData(format: "DNG", detail: "it has no IFD", path: nil) }
        guard let version = ifd0.bytes(.dngVersion, in: r), version.count == 4 else {
            throw .unsupported(
                feature: "TIFF files that are not DNG (no DNGVersion tag) as raw images",
                hint: "Open it as an image with ImageReader instead.")
        }
        guard let rawIFD = findRaw(ifd0, r) else {
            throw .corruptData(format: "DNG", detail: "no IFD has NewSubFileType 0 (the main image)", path: nil)
        }
        return Structure(r: r, tree: tree, ifd0: ifd0, rawIFD: rawIFD, version: version)
    }

    /// The DNG `structure` describes. With `file`, the main image's chunks are read from it (the
    /// structure's bytes lack them).
    static func image(_ structure: Structure, limits: Limits, deferring: Bool, file: RandomAccessFile?) throws(DaguerreError) -> DNGImage {
        let (r, ifd0, rawIFD, version) = (structure.r, structure.ifd0, structure.rawIFD, structure.version)
        let raw = try rawData(rawIFD, r, limits: limits, legacy: version[0] == 1 && version[1] == 0, deferring: deferring, file: file)
        var dng = DNGImage(rawData: raw, uniqueCameraModel: ifd0.string(.uniqueCameraModel, in: r) ?? "")
        dng.dngVersion = version
        dng.metadata = EXIFCodec.metadata(ifd0: ifd0, reader: r)
        dng.color = color(ifd0, rawIFD, r)
        if let a = rawIFD.uints(.activeArea, in: r), a.count == 4, a[2] > a[0], a[3] > a[1],
            Int(a[2]) <= dng.rawSize.height, Int(a[3]) <= dng.rawSize.width
        {
            dng.activeArea = IntRect(x: Int(a[1]), y: Int(a[0]), width: Int(a[3] - a[1]), height: Int(a[2] - a[0]))
            // CFAPattern and BlackLevel count from the ActiveArea's top-left (DNG 1.4, ActiveArea);
            // a mosaic's layout counts from the stored image's.
            if a[0] != 0 || a[1] != 0 { dng.rawData = dng.rawData.shiftingCFA(x: -Int(a[1]), y: -Int(a[0])) }
        }
        if let o = rawIFD.doubles(.defaultCropOrigin, in: r), let s = rawIFD.doubles(.defaultCropSize, in: r), o.count == 2, s.count == 2 {
            dng.defaultCrop = DNGCrop(x: o[0], y: o[1], width: s[0], height: s[1])
        }
        for stage in [DNGOpcodeStage.raw, .linearized, .demosaiced] {
            if let b = rawIFD.bytes(stage.tag, in: r) { dng.opcodeLists.append(try DNGOpcodeList(stage: stage, parsing: b)) }
        }
        if ifd0.uint(.newSubFileType, in: r) == 1 { dng.preview = try? preview(ifd0, r, limits: limits) }
        return dng
    }

    /// The main image IFD: IFD0 or the first SubIFD (depth first) with NewSubFileType 0.
    static func findRaw(_ node: TIFFNode, _ r: TIFFStructureReader) -> TIFFNode? {
        if (node.uint(.newSubFileType, in: r) ?? 0) == 0 { return node }
        for kid in node.children[.subIFDs] ?? [] { if let found = findRaw(kid, r) { return found } }
        return nil
    }
}
