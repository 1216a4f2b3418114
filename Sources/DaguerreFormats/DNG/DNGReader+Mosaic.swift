// Decoding a DNG's CFA mosaic: tiles or strips, uncompressed (8/16-bit or bit-packed) or
// lossless JPEG (our codec), in parallel; linearization table; black and white levels.
import DaguerreCore
import Dispatch
import Foundation

extension DNGReader {
    static func mosaic(_ ifd: TIFFNode, _ r: TIFFStructureReader, limits: Limits, legacy: Bool) throws(DaguerreError) -> BayerImage {
        guard let w = ifd.uint(.imageWidth, in: r), let h = ifd.uint(.imageLength, in: r) else {
            throw .corruptData(format: "DNG", detail: "the raw IFD has no ImageWidth/ImageLength", path: nil)
        }
        let width = Int(w), height = Int(h)
        try limits.check(width: width, height: height, bytesPerPixel: 2, what: "DNG raw image")
        let photometric = ifd.uint(.photometricInterpretation, in: r) ?? 0
        guard photometric == 32803 else {
            throw .unsupported(feature: "DNG raw data with photometric interpretation \(photometric) (\(photometric == 34892 ? "LinearRaw" : "not CFA"))",
                               hint: "Only Bayer (CFA) DNGs are read so far; convert the file with a CFA-preserving DNG converter.")
        }
        guard (ifd.uint(.samplesPerPixel, in: r) ?? 1) == 1 else {
            throw .unsupported(feature: "CFA DNGs with several samples per pixel", hint: "Only single-plane mosaics are supported.")
        }
        let dim = ifd.uints(.cfaRepeatPatternDim, in: r) ?? [2, 2]
        guard dim == [2, 2], let cfa = ifd.bytes(.cfaPattern, in: r), let pattern = BayerPattern(cfaPattern: cfa) else {
            throw .unsupported(feature: "CFA layouts other than a 2×2 Bayer pattern (X-Trans, 4-colour)", hint: "Only RGGB, GRBG, BGGR and GBRG mosaics are supported.")
        }
        if let layout = ifd.uint(.cfaLayout, in: r), layout != 1 {
            throw .unsupported(feature: "CFALayout \(layout) (non-rectangular sensors)", hint: "Only rectangular CFA layouts are supported.")
        }
        if let planeColor = ifd.bytes(.cfaPlaneColor, in: r), planeColor != [0, 1, 2] {
            throw .unsupported(feature: "CFAPlaneColor \(planeColor)", hint: "Only red, green and blue planes (0, 1, 2) are supported.")
        }
        let bits = Int(ifd.uint(.bitsPerSample, in: r) ?? 16)
        guard (8...16).contains(bits) else { throw .unsupported(feature: "DNG raw data of \(bits) bits per sample", hint: "8 to 16 bits are supported.") }
        let compression = ifd.uint(.compression, in: r) ?? 1
        guard compression == 1 || compression == 7 else {
            let name = compression == 8 ? "deflate (floating point)" : compression == 34892 ? "lossy JPEG" : "compression \(compression)"
            throw .unsupported(feature: "DNG raw data stored with \(name)", hint: "Convert it to a lossless (Compression 7) or uncompressed DNG.")
        }
        let layout = try ChunkLayout(ifd, r, width: width, height: height)

        // Every photosite is written by exactly one chunk, so the buffer needs no zero fill.
        var samples = [UInt16](unsafeUninitializedCapacity: width * height) { _, n in n = width * height }
        let table = ifd.uints(.linearizationTable, in: r)
        let results = TileResults<Int>(count: layout.offsets.count)
        let bytes = r.bytes
        samples.withUnsafeMutableBufferPointer { dst in
            let out = UnsafeTransfer(dst.baseAddress!)
            // Safety: each chunk writes only its own rectangle of `samples`; the buffer outlives the workers.
            DispatchQueue.concurrentPerform(iterations: layout.offsets.count) { i in
                do throws(DaguerreError) {
                    results.set(i, .success(try decodeChunk(i, layout: layout, bytes: bytes, into: out.value, width: width, height: height,
                                                            compression: compression, bits: bits, byteOrder: r.byteOrder, legacy: legacy,
                                                            table: table)))
                } catch { results.set(i, .failure(error)) }
            }
        }
        let precisions = try results.collect()

        var significant = precisions.first ?? bits
        if let table, !table.isEmpty {
            significant = max(8, min(16, Int(log2(Double(max(table.max() ?? 1, 1))).rounded(.up))))
        }
        return try BayerImage(width: width, height: height, pattern: pattern, bitsPerSample: max(8, significant), samples: samples,
                              blackLevel: [0, 0, 0, 0], whiteLevel: (1 << significant) - 1)
    }

    /// Where the strips or tiles are, checked against the file and the image size.
    struct ChunkLayout: Sendable {
        var offsets: [Int], counts: [Int]
        var chunkWidth: Int, chunkHeight: Int, across: Int

        init(_ ifd: TIFFNode, _ r: TIFFStructureReader, width: Int, height: Int) throws(DaguerreError) {
            if let tw = ifd.uint(.tileWidth, in: r), let th = ifd.uint(.tileLength, in: r) {
                guard tw > 0, th > 0, tw <= 65536, th <= 65536, let o = ifd.uints(.tileOffsets, in: r), let c = ifd.uints(.tileByteCounts, in: r) else {
                    throw .corruptData(format: "DNG", detail: "the tile fields are missing or zero", path: nil)
                }
                chunkWidth = Int(tw); chunkHeight = Int(th)
                offsets = o.map { Int($0) }; counts = c.map { Int($0) }
            } else {
                guard let o = ifd.uints(.stripOffsets, in: r), let c = ifd.uints(.stripByteCounts, in: r) else {
                    throw .corruptData(format: "DNG", detail: "the raw IFD has neither tiles nor strips", path: nil)
                }
                let rows = Int(ifd.uint(.rowsPerStrip, in: r) ?? UInt32(height))
                chunkWidth = width; chunkHeight = max(1, min(rows, height))
                offsets = o.map { Int($0) }; counts = c.map { Int($0) }
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

    /// Decodes chunk `i` into its rectangle of `out`, linearizes it through `table` if given,
    /// and returns the significant bits it holds (the lossless JPEG precision, or `bits`).
    static func decodeChunk(_ i: Int, layout: ChunkLayout, bytes: [UInt8], into out: UnsafeMutablePointer<UInt16>, width: Int, height: Int,
                            compression: UInt32, bits: Int, byteOrder: TIFFByteOrder, legacy: Bool,
                            table: [UInt32]?) throws(DaguerreError) -> Int {
        let cw = layout.chunkWidth, ch = layout.chunkHeight
        let x0 = (i % layout.across) * cw, y0 = (i / layout.across) * ch
        let validW = min(cw, width - x0), validH = min(ch, height - y0)
        let offset = layout.offsets[i], count = layout.counts[i]
        var scratch: [UInt16] = []
        let (direct, significant) = try bytes.withUnsafeBufferPointer { all throws(DaguerreError) -> (Bool, Int) in
            let data = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: all[offset..<offset + count]))
            guard compression == 7 else {
                scratch = [UInt16](repeating: 0, count: cw * ch)
                try unpack(data, into: &scratch, count: cw * ch, bits: bits, byteOrder: byteOrder, rowSamples: cw)
                return (false, bits)
            }
            // The markers are parsed once, for the shape check and the decode.
            let stream = try LosslessJPEGStream(data)
            let header = stream.header
            // The usual case, a whole tile whose frame rows are tile rows: decode in place.
            if validW == cw, validH == ch, header.samplesPerRow == cw, header.height == ch {
                let capacity = (height - y0 - 1) * width + (width - x0)
                try LosslessJPEGDecoder.decode(stream, data, into: out + y0 * width + x0, rowStride: width, capacity: capacity,
                                               legacyDifference16: legacy)
                return (true, header.precision)
            }
            // The JPEG frame's samples fill the chunk row by row (DNG 1.4: frames may be shaped
            // differently from the tile, e.g. width/2 × 2 components).
            guard header.samplesPerRow * header.height <= cw * ch else {
                throw .corruptData(format: "DNG", detail: "a lossless JPEG tile holds more samples than its \(cw)×\(ch) tile", path: nil)
            }
            scratch = [UInt16](repeating: 0, count: cw * ch)
            try scratch.withUnsafeMutableBufferPointer { s throws(DaguerreError) in
                try LosslessJPEGDecoder.decode(stream, data, into: s.baseAddress!, rowStride: header.samplesPerRow, capacity: s.count,
                                               legacyDifference16: legacy)
            }
            return (false, header.precision)
        }
        if !direct {
            for y in 0..<validH {
                let row = out + (y0 + y) * width + x0
                scratch.withUnsafeBufferPointer { s in
                    for x in 0..<validW { row[x] = s[y * cw + x] }
                }
            }
        }
        if let table, !table.isEmpty {
            let last = table.count - 1
            for y in 0..<validH {
                let row = out + (y0 + y) * width + x0
                for x in 0..<validW { row[x] = UInt16(truncatingIfNeeded: table[min(Int(row[x]), last)]) }
            }
        }
        return significant
    }

    /// Uncompressed samples: 8 or 16 bits in file order, other depths packed big-endian with
    /// each row starting on a byte boundary (DNG 1.4 §3, BitsPerSample).
    static func unpack(_ data: UnsafeRawBufferPointer, into out: inout [UInt16], count: Int, bits: Int,
                       byteOrder: TIFFByteOrder, rowSamples: Int) throws(DaguerreError) {
        let rows = count / rowSamples
        let rowBytes = (rowSamples * bits + 7) / 8
        guard data.count >= rowBytes * rows else { throw .truncated(format: "DNG", path: nil) }
        for y in 0..<rows {
            let base = y * rowBytes
            switch bits {
            case 8: for x in 0..<rowSamples { out[y * rowSamples + x] = UInt16(data[base + x]) }
            case 16:
                for x in 0..<rowSamples {
                    let a = UInt16(data[base + 2 * x]), b = UInt16(data[base + 2 * x + 1])
                    out[y * rowSamples + x] = byteOrder == .littleEndian ? a | b << 8 : a << 8 | b
                }
            default:
                var acc: UInt32 = 0, have = 0, p = base
                for x in 0..<rowSamples {
                    while have < bits { acc = acc << 8 | UInt32(data[p]); p += 1; have += 8 }
                    have -= bits
                    out[y * rowSamples + x] = UInt16(truncatingIfNeeded: (acc >> UInt32(have)) & UInt32((1 << bits) - 1))
                }
            }
        }
    }

    /// BlackLevel by 2×2 position (repeat patterns of 1×1 or 2×2; BlackLevelDeltaH/V added as means).
    static func blackLevels(_ ifd: TIFFNode, _ r: TIFFStructureReader) -> [Double] {
        let dim = ifd.uints(.blackLevelRepeatDim, in: r) ?? [1, 1]
        let values = ifd.doubles(.blackLevel, in: r) ?? [0]
        var levels = [0.0, 0, 0, 0]
        if dim.count == 2, dim[0] >= 1, dim[1] >= 1, values.count >= Int(dim[0]) * Int(dim[1]) {
            let rows = Int(dim[0]), cols = Int(dim[1])
            for y in 0..<2 { for x in 0..<2 { levels[y * 2 + x] = values[(y % rows) * cols + (x % cols)] } }
        } else if let v = values.first { levels = [v, v, v, v] }
        let dh = ifd.doubles(.blackLevelDeltaH, in: r) ?? [], dv = ifd.doubles(.blackLevelDeltaV, in: r) ?? []
        let extra = (dh.isEmpty ? 0 : dh.reduce(0, +) / Double(dh.count)) + (dv.isEmpty ? 0 : dv.reduce(0, +) / Double(dv.count))
        return levels.map { ($0 + extra).isFinite ? $0 + extra : 0 }
    }
}
