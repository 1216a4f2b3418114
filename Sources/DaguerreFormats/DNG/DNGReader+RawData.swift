// A DNG's main image as its IFD describes it: a CFA mosaic or LinearRaw samples, in tiles or
// strips (their layout, checked against the file), uncompressed (8/16-bit or bit-packed),
// lossless JPEG (our codec) or, for LinearRaw, lossy JPEG (libjpeg-turbo); linearization table;
// black and white levels. The chunks themselves decode in ``DNGRawChunks``. SPEC R1, R6, X6.
import DaguerreCore
import Foundation

extension DNGReader {
    /// The main image of `ifd`: its photometric interpretation decides the representation.
    /// With `deferring`, a CFA mosaic stored uncompressed or as lossless JPEG is not decoded:
    /// it comes back as a ``StoredMosaic``, the chunks that hold it.
    /// With `file`, the chunks are read from it (`r`'s bytes lack them).
    static func rawData(
        _ ifd: TIFFNode, _ r: TIFFStructureReader, limits: Limits, legacy: Bool,
        deferring: Bool = false, file: RandomAccessFile? = nil
    ) throws(DaguerreError) -> DNGRawData {
        guard let w = ifd.uint(.imageWidth, in: r), let h = ifd.uint(.imageLength, in: r) else {
            throw .corruptData(format: "DNG", detail: "the raw IFD has no ImageWidth/ImageLength", path: nil)
        }
        let width = Int(w)
        let height = Int(h)
        let photometric = ifd.uint(.photometricInterpretation, in: r) ?? 0
        let spp = Int(ifd.uint(.samplesPerPixel, in: r) ?? 1)
        var pattern: BayerPattern?
        var xTrans: XTransPattern?
        switch photometric {
        case 32803:
            guard spp == 1 else {
                throw .unsupported(feature: "CFA DNGs with \(spp) samples per pixel", hint: "Only single-plane mosaics are supported.")
            }
            (pattern, xTrans) = try cfaPattern(ifd, r)
        case 34892:
            guard (1...4).contains(spp) else {
                throw .corruptData(format: "DNG", detail: "a LinearRaw image has \(spp) samples per pixel (DNG allows 1 to 4)", path: nil)
            }
        default:
            throw .unsupported(
                feature: "DNG main images with photometric interpretation \(photometric) (neither CFA nor LinearRaw)",
                hint: "Only CFA (32803) and LinearRaw (34892) main images are raw data; open the file as a TIFF instead.")
        }
        try limits.check(width: width, height: height, bytesPerPixel: 2 * spp, what: "DNG raw image")
        if let planar = ifd.uint(.planarConfiguration, in: r), planar != 1, spp > 1 {
            throw .unsupported(
                feature: "DNG raw data stored as separate planes (PlanarConfiguration \(planar))",
                hint: "Only interleaved (chunky) samples are read; re-save the DNG with Adobe DNG Converter.")
        }
        let bitsList = ifd.uints(.bitsPerSample, in: r) ?? [16]
        let bits = Int(bitsList.first ?? 16)
        guard (8...16).contains(bits), bitsList.allSatisfy({ Int($0) == bits }) else {
            throw .unsupported(
                feature: "DNG raw data of \(bitsList.map(String.init).joined(separator: "/")) bits per sample",
                hint: "8 to 16 bits, the same for every sample, are supported.")
        }
        let compression = ifd.uint(.compression, in: r) ?? 1
        switch compression {
        case 1, 7: break
        case 34892 where photometric == 34892:
            guard bits == 8, spp == 1 || spp == 3 else {
                throw .corruptData(
                    format: "DNG", detail: "lossy JPEG raw data must be 8-bit with 1 or 3 samples (it has \(bits)-bit, \(spp))", path: nil)
            }
        case 9:
            throw .unsupported(
                feature: "DNG raw data stored with VC-5 compression (Compression 9: a GoPro GPR file)",
                hint: "Convert it to a plain DNG with GoPro's gpr_tools (`gpr_tools -i in.gpr -o out.dng`), then develop that.")
        default:
            let name =
                compression == 8
                ? "deflate (floating point)" : compression == 34892 ? "lossy JPEG for a CFA mosaic" : "compression \(compression)"
            throw .unsupported(
                feature: "DNG raw data stored with \(name)", hint: "Convert it to a lossless (Compression 7) or uncompressed DNG.")
        }
        let layout = try ChunkLayout(ifd, r, width: width, height: height)
        // A chunk is allocated whole before its data is read: hostile tile sizes stop here.
        try limits.check(width: layout.chunkWidth, height: layout.chunkHeight, bytesPerPixel: 2 * spp, what: "DNG tile")
        let shape = ChunkShape(
            width: width, height: height, samplesPerPixel: spp, compression: compression, bits: bits,
            byteOrder: r.byteOrder, legacy: legacy, table: ifd.uints(.linearizationTable, in: r))
        let chunks = DNGRawChunks(layout: layout, shape: shape, bytes: r.bytes, file: file)
        let deferred = deferring && pattern != nil && (compression == 1 || compression == 7)
        var (samples, significant) = deferred ? ([], try chunks.firstChunkBits()) : try chunks.decodeAll()
        if let table = shape.table, !table.isEmpty {
            significant = max(8, min(16, 32 - max(table.max() ?? 1, 1).leadingZeroBitCount))
        }
        let white = ifd.uints(.whiteLevel, in: r)?.map { Int($0) }
        let defaultWhite = (1 << significant) - 1
        if let pattern {
            let (bits, black, whiteLevel) = (max(8, significant), blackLevels(ifd, r), white?.first ?? defaultWhite)
            let layout = MosaicLayout(
                width: width, height: height, pattern: pattern, bitsPerSample: bits, blackLevel: black,
                whiteLevel: whiteLevel, xTrans: xTrans)
            guard !deferred else { return .storedMosaic(StoredMosaic(layout: layout, chunks: chunks)) }
            return .mosaic(try BayerImage(layout: layout, samples: samples))
        }
        let whiteLevels = white.map { $0.count >= spp ? Array($0.prefix(spp)) : Array(repeating: $0.first ?? defaultWhite, count: spp) }
        return .linear(
            try LinearRawImage(
                width: width, height: height, samplesPerPixel: spp, bitsPerSample: max(8, significant),
                samples: samples, blackLevel: planeBlackLevels(ifd, r, planes: spp),
                whiteLevel: whiteLevels ?? Array(repeating: defaultWhite, count: spp)))
    }

    /// The colour filter of a CFA IFD: a 2×2 Bayer order, or X-Trans's 6×6 (then the Bayer order
    /// is a placeholder); other layouts are refused by name.
    /// The hints of the refusals that are about the sensor's layout rather than the file's
    /// encoding: another reader (LibRaw) would decode such a file, but not make it a red,
    /// green and blue mosaic (it takes a cyan, magenta and yellow CFA for one), so a caller
    /// must not hand these over.
    static let layoutHints = (
        rectangular: "Only rectangular CFA layouts are supported.",
        colours: "Only red, green and blue mosaics (CFAPlaneColor 0, 1, 2) are developed.",
        pattern: "Red, green and blue 2×2 Bayer mosaics (RGGB, GRBG, BGGR, GBRG) and Fujifilm's 6×6 X-Trans are developed."
    )

    /// Whether `error` is our refusal of the sensor's layout (a CFA of other colours, a
    /// pattern that is neither Bayer nor X-Trans, a non-rectangular layout): not a matter of
    /// decoding that another reader could settle.
    public static func isLayoutRefusal(_ error: DaguerreError) -> Bool {
        guard case .unsupported(_, let hint) = error else { return false }
        return [layoutHints.rectangular, layoutHints.colours, layoutHints.pattern].contains(hint)
    }

    static func cfaPattern(_ ifd: TIFFNode, _ r: TIFFStructureReader) throws(DaguerreError) -> (BayerPattern, XTransPattern?) {
        let dim = ifd.uints(.cfaRepeatPatternDim, in: r) ?? [2, 2]
        let cfa = ifd.bytes(.cfaPattern, in: r) ?? []
        if let layout = ifd.uint(.cfaLayout, in: r), layout != 1 {
            throw .unsupported(
                feature: "CFALayout \(layout) (non-rectangular sensors)", hint: layoutHints.rectangular)
        }
        if let planeColor = ifd.bytes(.cfaPlaneColor, in: r), planeColor != [0, 1, 2] {
            // Red, green and blue in another order: a matter of numbering, which LibRaw reads
            // right, so not a layout refusal.
            if planeColor.sorted() == [0, 1, 2] {
                throw .unsupported(
                    feature: "CFA planes numbered \(CFANames.colours(planeColor)) (CFAPlaneColor \(planeColor))",
                    hint: "Our reader takes the planes in the order red, green, blue.")
            }
            throw .unsupported(
                feature: "a CFA of the colours \(CFANames.colours(planeColor)) (CFAPlaneColor \(planeColor))",
                hint: layoutHints.colours)
        }
        if dim == [2, 2], let pattern = BayerPattern(cfaPattern: cfa) { return (pattern, nil) }
        if dim == [6, 6], let xTrans = XTransPattern(cfaPattern: cfa) { return (.rggb, xTrans) }
        let size = dim.count == 2 ? "\(dim[0])×\(dim[1])" : "\(dim)"
        throw .unsupported(
            feature: "the \(size) CFA layout \(CFANames.describe(cfa)) (CFAPattern \(cfa.map(String.init).joined(separator: " ")))",
            hint: layoutHints.pattern)
    }

    /// What decoding one chunk needs besides its place: the image's shape and sample coding.
    struct ChunkShape: Sendable {
        var width: Int, height: Int, samplesPerPixel: Int
        var compression: UInt32, bits: Int
        var byteOrder: TIFFByteOrder, legacy: Bool
        var table: [UInt32]?
    }

    /// Where the strips or tiles are, checked against the file and the image size.
    struct ChunkLayout: Sendable {
        var offsets: [Int], counts: [Int]
        var chunkWidth: Int, chunkHeight: Int, across: Int
        /// Strips, unlike tiles, stop at the image's last row (TIFF 6.0 §3: the last strip holds
        /// only the rows that remain).
        var isStrips = false

        init(_ ifd: TIFFNode, _ r: TIFFStructureReader, width: Int, height: Int) throws(DaguerreError) {
            if let tw = ifd.uint(.tileWidth, in: r), let th = ifd.uint(.tileLength, in: r) {
                guard tw > 0, th > 0, tw <= 65536, th <= 65536, let o = ifd.uints(.tileOffsets, in: r),
                    let c = ifd.uints(.tileByteCounts, in: r)
                else {
                    throw .corruptData(format: "DNG", detail: "the tile fields are missing or zero", path: nil)
                }
                chunkWidth = Int(tw)
                chunkHeight = Int(th)
                offsets = o.map { Int($0) }
                counts = c.map { Int($0) }
            } else {
                guard let o = ifd.uints(.stripOffsets, in: r), let c = ifd.uints(.stripByteCounts, in: r) else {
                    throw .corruptData(format: "DNG", detail: "the raw IFD has neither tiles nor strips", path: nil)
                }
                let rows = Int(ifd.uint(.rowsPerStrip, in: r) ?? UInt32(height))
                chunkWidth = width
                chunkHeight = max(1, min(rows, height))
                offsets = o.map { Int($0) }
                counts = c.map { Int($0) }
                isStrips = true
            }
            across = (width + chunkWidth - 1) / chunkWidth
            let down = (height + chunkHeight - 1) / chunkHeight
            guard offsets.count == across * down, counts.count == offsets.count else {
                throw .corruptData(format: "DNG", detail: "\(offsets.count) chunks for a \(across)×\(down) grid", path: nil)
            }
            for (o, c) in zip(offsets, counts) where o < 0 || c < 0 || o + c > r.bytes.count {
                throw .corruptData(format: "DNG", detail: "a tile or strip (\(c) bytes at \(o)) lies past the end of the file", path: nil)
            }
        }
    }

    /// A lossy JPEG tile (Compression 34892) decoded by libjpeg-turbo to 8-bit samples, laid out
    /// as a `width`×`height` chunk. The JPEG may be cut to the image at the right and bottom
    /// edges, but must cover the `needed` part of the chunk.
    static func lossyTile(
        _ data: UnsafeRawBufferPointer, samplesPerPixel spp: Int, width: Int, height: Int,
        needed: (width: Int, height: Int)
    ) throws(DaguerreError) -> [UInt16] {
        let decoder = try JPEGDecoder(data: [UInt8](data))
        let info = decoder.info
        guard info.pixelFormat.channels == spp, info.pixelFormat.bytesPerPixel == spp else {
            throw .corruptData(
                format: "DNG", detail: "a lossy JPEG tile has \(info.pixelFormat.channels) components for \(spp) samples per pixel",
                path: nil)
        }
        // Checked before decoding, so a hostile frame size allocates nothing.
        guard info.width >= needed.width, info.height >= needed.height, info.width <= width, info.height <= height else {
            throw .corruptData(
                format: "DNG",
                detail:
                    "a lossy JPEG tile is \(info.width)×\(info.height); its \(width)×\(height) tile needs at least \(needed.width)×\(needed.height) and at most the tile",
                path: nil)
        }
        let decoded = try ImageReader.readAll(decoder)
        var tile = [UInt16](repeating: 0, count: width * height * spp)
        let rowSamples = decoded.width * spp
        for y in 0..<decoded.height {
            let src = decoded.rowAddress(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<rowSamples { tile[y * width * spp + x] = UInt16(src[x]) }
        }
        return tile
    }

    /// Swaps `count` 16-bit samples copied from a file in `byteOrder` into the machine's order
    /// (nothing to do when they agree).
    static func toHostOrder(_ samples: UnsafeMutablePointer<UInt16>, count: Int, from byteOrder: TIFFByteOrder) {
        guard (byteOrder == .littleEndian) != (UInt16(1).littleEndian == 1) else { return }
        for i in 0..<count { samples[i] = samples[i].byteSwapped }
    }

    /// Uncompressed samples: 8 or 16 bits in file order, other depths packed big-endian with
    /// each row starting on a byte boundary (DNG 1.4 §3, BitsPerSample).
    static func unpack(
        _ data: UnsafeRawBufferPointer, into out: inout [UInt16], count: Int, bits: Int,
        byteOrder: TIFFByteOrder, rowSamples: Int
    ) throws(DaguerreError) {
        let rows = count / rowSamples
        let rowBytes = (rowSamples * bits + 7) / 8
        guard data.count >= rowBytes * rows else { throw .truncated(format: "DNG", path: nil) }
        guard out.count >= count else {
            throw .invalidArgument(what: "unpack buffer of \(out.count) samples", problem: "holds fewer than \(count) (internal error)")
        }
        if bits == 16, rows > 0 {
            // 16-bit samples (uncompressed camera DNGs): one copy, swapped where the file's
            // order is not the machine's, without a bounds check per sample.
            out.withUnsafeMutableBufferPointer { o in
                let dst = o.baseAddress!
                UnsafeMutableRawPointer(dst).copyMemory(from: data.baseAddress!, byteCount: rows * rowBytes)
                toHostOrder(dst, count: rows * rowSamples, from: byteOrder)
            }
            return
        }
        for y in 0..<rows {
            let base = y * rowBytes
            switch bits {
            case 8: for x in 0..<rowSamples { out[y * rowSamples + x] = UInt16(data[base + x]) }
            case 16:
                for x in 0..<rowSamples {
                    let a = UInt16(data[base + 2 * x])
                    let b = UInt16(data[base + 2 * x + 1])
                    out[y * rowSamples + x] = byteOrder == .littleEndian ? a | b << 8 : a << 8 | b
                }
            default:
                var acc: UInt32 = 0
                var have = 0
                var p = base
                for x in 0..<rowSamples {
                    while have < bits {
                        acc = acc << 8 | UInt32(data[p])
                        p += 1
                        have += 8
                    }
                    have -= bits
                    out[y * rowSamples + x] = UInt16(truncatingIfNeeded: (acc >> UInt32(have)) & UInt32((1 << bits) - 1))
                }
            }
        }
    }

    /// BlackLevel per sample plane of a LinearRaw image: the values are indexed
    /// [row][column][sample] over BlackLevelRepeatDim, so each plane's mean is taken, and the
    /// means of BlackLevelDeltaH/V are added.
    static func planeBlackLevels(_ ifd: TIFFNode, _ r: TIFFStructureReader, planes: Int) -> [Double] {
        let dim = ifd.uints(.blackLevelRepeatDim, in: r) ?? [1, 1]
        let values = ifd.doubles(.blackLevel, in: r) ?? [0]
        let cells = dim.count == 2 ? Int(dim[0]) * Int(dim[1]) : 1
        var levels = [Double](repeating: values.first ?? 0, count: planes)
        if cells >= 1, values.count >= cells * planes {
            for p in 0..<planes {
                levels[p] = stride(from: p, to: cells * planes, by: planes).map { values[$0] }.reduce(0, +) / Double(cells)
            }
        } else if values.count == planes {
            levels = values
        }
        let extra = blackLevelDeltaMeans(ifd, r)
        return levels.map { ($0 + extra).isFinite ? $0 + extra : 0 }
    }

    /// The means of BlackLevelDeltaH and BlackLevelDeltaV, summed: a per-column and per-row
    /// offset folded into one level.
    static func blackLevelDeltaMeans(_ ifd: TIFFNode, _ r: TIFFStructureReader) -> Double {
        let dh = ifd.doubles(.blackLevelDeltaH, in: r) ?? []
        let dv = ifd.doubles(.blackLevelDeltaV, in: r) ?? []
        return (dh.isEmpty ? 0 : dh.reduce(0, +) / Double(dh.count)) + (dv.isEmpty ? 0 : dv.reduce(0, +) / Double(dv.count))
    }

    /// BlackLevel by 2×2 position (repeat patterns of 1×1 or 2×2; BlackLevelDeltaH/V added as means).
    static func blackLevels(_ ifd: TIFFNode, _ r: TIFFStructureReader) -> [Double] {
        let dim = ifd.uints(.blackLevelRepeatDim, in: r) ?? [1, 1]
        let values = ifd.doubles(.blackLevel, in: r) ?? [0]
        var levels = [0.0, 0, 0, 0]
        if dim.count == 2, dim[0] >= 1, dim[1] >= 1, values.count >= Int(dim[0]) * Int(dim[1]) {
            let rows = Int(dim[0])
            let cols = Int(dim[1])
            for y in 0..<2 { for x in 0..<2 { levels[y * 2 + x] = values[(y % rows) * cols + (x % cols)] } }
        } else if let v = values.first {
            levels = [v, v, v, v]
        }
        let extra = blackLevelDeltaMeans(ifd, r)
        return levels.map { ($0 + extra).isFinite ? $0 + extra : 0 }
    }
}
