// The encoder of our hand-written lossless JPEG codec (libjpeg-turbo 2.1 has no lossless mode):
// ITU-T T.81 process 14 (SOF3, Huffman), an optimal table per frame (Annex K.2). SPEC R1 and R5
// (lossless-compressed DNG); DNG 1.4 specification, Compression = 7 (lossless JPEG).
import DaguerreCore

/// Encodes a frame of 16-bit samples as one SOF3 frame with one interleaved scan.
///
/// Two passes: the first computes every difference (T.81 H.1.2.1, modulo 2^16) into a scratch
/// buffer and counts their categories; the second writes the Huffman code and extra bits of
/// each, from a 17-entry (code, length) table. The public entry point is ``LosslessJPEG/encode``;
/// this type adds the options tests need to cover the decoder: restart intervals (whole rows),
/// a point transform, and one Huffman table per component (as Adobe's DNG SDK writes).
///
/// ```swift
/// let bytes = try LosslessJPEGEncoder.encode(samples: p, rowStride: 512, width: 256, height: 256,
///                                            components: 2, precision: 14, predictor: 1, restartRows: 16)
/// ```
enum LosslessJPEGEncoder {
    static func encode(
        samples: UnsafePointer<UInt16>, rowStride: Int, width: Int, height: Int, components: Int,
        precision: Int, predictor: Int, pointTransform: Int = 0, restartRows: Int = 0,
        tablePerComponent: Bool = false
    ) throws(DaguerreError) -> [UInt8] {
        func invalid(_ what: String, _ problem: String) -> DaguerreError {
            .invalidArgument(what: "Lossless JPEG \(what)", problem: problem)
        }
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw invalid("frame size \(width)×\(height)", "width and height must be 1 to 65535 (the SOF3 fields are 16 bits)")
        }
        guard (1...4).contains(components) else { throw invalid("component count \(components)", "it must be 1 to 4") }
        guard (2...16).contains(precision) else { throw invalid("precision \(precision)", "it must be 2 to 16 bits") }
        guard (1...7).contains(predictor) else { throw invalid("predictor \(predictor)", "it must be 1 to 7 (T.81 Table H.1)") }
        guard (0..<precision).contains(pointTransform) else {
            throw invalid("point transform \(pointTransform)", "it must be 0 to precision − 1")
        }
        let perRow = width * components
        guard rowStride >= perRow else { throw invalid("row stride \(rowStride)", "it must be at least width × components = \(perRow)") }
        let rowsPerInterval = restartRows > 0 && restartRows < height ? restartRows : height
        let restartInterval = rowsPerInterval < height ? rowsPerInterval * width : 0
        guard restartInterval <= 65535 else { throw invalid("restart interval of \(restartRows) rows", "it must be at most 65535 pixels") }

        // Pass 1: differences and their histogram.
        let total = perRow * height
        let differences = UnsafeMutablePointer<UInt16>.allocate(capacity: total)
        defer { differences.deallocate() }
        let tables = tablePerComponent ? components : 1
        var histogram = [Int](repeating: 0, count: 4 * LosslessJPEGHuffmanTable.categories)
        let pass = Pass(
            samples: samples, rowStride: rowStride, components: components, perRow: perRow, height: height,
            rowsPerInterval: rowsPerInterval, shift: UInt16(pointTransform),
            initial: Int32(1) << (precision - pointTransform - 1),
            histogramStride: tablePerComponent ? LosslessJPEGHuffmanTable.categories : 0, differences: differences)
        let used = histogram.withUnsafeMutableBufferPointer { h in
            switch predictor {
            case 1: return differencesPass(LosslessPredictor1.self, pass, h.baseAddress!)
            case 2: return differencesPass(LosslessPredictor2.self, pass, h.baseAddress!)
            case 3: return differencesPass(LosslessPredictor3.self, pass, h.baseAddress!)
            case 4: return differencesPass(LosslessPredictor4.self, pass, h.baseAddress!)
            case 5: return differencesPass(LosslessPredictor5.self, pass, h.baseAddress!)
            case 6: return differencesPass(LosslessPredictor6.self, pass, h.baseAddress!)
            default: return differencesPass(LosslessPredictor7.self, pass, h.baseAddress!)
            }
        }
        guard precision == 16 || used >> precision == 0 else {
            throw invalid("samples", "a value needs \(16 - used.leadingZeroBitCount) bits, more than the precision of \(precision)")
        }

        // Tables, and the bytes their codes can take (stuffing at most doubles them).
        let categories = LosslessJPEGHuffmanTable.categories
        var huffman: [LosslessJPEGHuffmanTable] = []
        var codeTable = [UInt32](repeating: 0, count: 4 * categories)  // code | length << 16
        var dataBits = 0
        for t in 0..<tables {
            let frequencies = Array(histogram[t * categories..<(t + 1) * categories])
            let table = LosslessJPEGHuffmanTable.optimal(frequencies: frequencies)
            let (codes, lengths) = table.codes()
            for s in 0..<categories {
                codeTable[t * categories + s] = codes[s] | UInt32(lengths[s]) << 16
                dataBits += frequencies[s] * (Int(lengths[s]) + (s & 15))
            }
            huffman.append(table)
        }
        let intervals = (height + rowsPerInterval - 1) / rowsPerInterval
        // SOI, SOF3, DHT, DRI, SOS, EOI; then the data, its padding bytes and the RSTn markers.
        let headerBytes = 2 + (10 + 3 * components) + (4 + tables * (17 + categories)) + 6 + (8 + 2 * components) + 2
        let rawCapacity = (dataBits + 7) / 8 + intervals + 8
        let capacity = headerBytes + 2 * ((dataBits + 7) / 8 + intervals) + 2 * intervals
        let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: rawCapacity)
        defer { raw.deallocate() }

        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            let out = buffer.baseAddress!
            var o = 0
            func put(_ bytes: UInt8...) {
                for b in bytes {
                    out[o] = b
                    o += 1
                }
            }
            put(0xFF, 0xD8)
            // SOF3: precision, height, width, components (ids 1..., sampling 1×1, no quantization table).
            let sofLength = 8 + 3 * components
            put(
                0xFF, 0xC3, UInt8(sofLength >> 8), UInt8(sofLength & 255), UInt8(precision),
                UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8), UInt8(width & 255), UInt8(components))
            for c in 0..<components { put(UInt8(c + 1), 0x11, 0) }
            // DHT: one segment holding every table.
            let dhtLength = 2 + huffman.reduce(0) { $0 + 17 + $1.symbols.count }
            put(0xFF, 0xC4, UInt8(dhtLength >> 8), UInt8(dhtLength & 255))
            for (t, table) in huffman.enumerated() {
                put(UInt8(t))
                for n in table.counts { put(n) }
                for s in table.symbols { put(s) }
            }
            if restartInterval > 0 { put(0xFF, 0xDD, 0, 4, UInt8(restartInterval >> 8), UInt8(restartInterval & 255)) }
            // SOS: every component, predictor as Ss, Se = 0, Ah = 0, Al = point transform.
            let sosLength = 6 + 2 * components
            put(0xFF, 0xDA, UInt8(sosLength >> 8), UInt8(sosLength & 255), UInt8(components))
            for c in 0..<components { put(UInt8(c + 1), tablePerComponent ? UInt8(c << 4) : 0) }
            put(UInt8(predictor), 0, UInt8(pointTransform))

            codeTable.withUnsafeBufferPointer { codes in
                let stride = tablePerComponent ? categories : 0
                var index = 0
                for interval in 0..<intervals {
                    if interval > 0 { put(0xFF, UInt8(0xD0 + (interval - 1) % 8)) }
                    let count = min(height - interval * rowsPerInterval, rowsPerInterval) * perRow
                    var w = LosslessJPEGBitWriter(raw)
                    writeDifferences(&w, differences + index, count, components, codes.baseAddress!, stride)
                    w.flushToByte()
                    o += LosslessJPEGBitWriter.stuff(raw, count: w.position, into: out + o)
                    index += count
                }
            }
            put(0xFF, 0xD9)
            count = o
        }
    }

    /// What the first pass needs (one argument for the specialized loop).
    struct Pass {
        var samples: UnsafePointer<UInt16>
        var rowStride: Int
        var components: Int
        var perRow: Int
        var height: Int
        var rowsPerInterval: Int
        var shift: UInt16
        var initial: Int32
        /// 17 for one histogram per component, 0 for a shared one.
        var histogramStride: Int
        var differences: UnsafeMutablePointer<UInt16>
    }

    /// The category (SSSS) of a difference held modulo 2^16: the bit length of its magnitude,
    /// 16 for −32768 (≡ 32768).
    /// (A 32-bit count: a 16-bit `lzcnt` writes half a register, which ties it to that register's
    /// previous value and slowed the writing loop by half.)
    @inline(__always)
    static func category(_ d: UInt16) -> Int { 32 &- UInt32(Int16(bitPattern: d).magnitude).leadingZeroBitCount }

    /// Pass 1: every difference, and the histogram of categories. Returns the OR of all samples
    /// (before the point transform), so the caller can check them against the precision.
    static func differencesPass<P: LosslessPredictor>(_: P.Type, _ pass: Pass, _ histogram: UnsafeMutablePointer<Int>) -> UInt16 {
        let components = pass.components
        let perRow = pass.perRow
        let shift = pass.shift
        var used: UInt16 = 0
        var out = pass.differences
        let stride = pass.histogramStride
        let wrap = components &* stride
        for r in 0..<pass.height {
            let row = pass.samples + r * pass.rowStride
            let above = row - pass.rowStride  // not read on an interval's first row
            let first = r % pass.rowsPerInterval == 0
            // The first pixel: from 2^(P−Pt−1) on an interval's first row, else from above.
            for i in 0..<components {
                let x = row[i]
                used |= x
                let prediction = first ? pass.initial : Int32(above[i] &>> shift)
                let d = UInt16(truncatingIfNeeded: Int32(x &>> shift) &- prediction)
                out[i] = d
                histogram[i &* stride &+ category(d)] &+= 1
            }
            var h = 0  // histogram offset of the current component
            if first {
                for i in components..<perRow {
                    let x = row[i]
                    used |= x
                    let d = UInt16(truncatingIfNeeded: Int32(x &>> shift) &- Int32(row[i &- components] &>> shift))
                    out[i] = d
                    histogram[h &+ category(d)] &+= 1
                    h = h &+ stride
                    if h == wrap { h = 0 }
                }
            } else {
                for i in components..<perRow {
                    let x = row[i]
                    used |= x
                    let prediction = P.predict(
                        a: Int32(row[i &- components] &>> shift), b: Int32(above[i] &>> shift),
                        c: Int32(above[i &- components] &>> shift))
                    let d = UInt16(truncatingIfNeeded: Int32(x &>> shift) &- prediction)
                    out[i] = d
                    histogram[h &+ category(d)] &+= 1
                    h = h &+ stride
                    if h == wrap { h = 0 }
                }
            }
            out += perRow
        }
        return used
    }

    /// Pass 2: the code and extra bits of `count` differences. `codes` holds `code | length << 16`
    /// per category; `stride` is 17 when each component has its own table, else 0.
    static func writeDifferences(
        _ w: inout LosslessJPEGBitWriter, _ differences: UnsafePointer<UInt16>, _ count: Int,
        _ components: Int, _ codes: UnsafePointer<UInt32>, _ stride: Int
    ) {
        var t = 0
        for k in 0..<count {
            let d = differences[k]
            let s = category(d)
            let extraLength = s & 15  // category 16 has no extra bits
            let signed = Int32(Int16(bitPattern: d))
            // Negative differences are sent as d − 1 in SSSS bits (T.81 F.1.2.1).
            let extra = UInt32(bitPattern: signed &+ (signed &>> 31)) & ((UInt32(1) &<< extraLength) &- 1)
            let entry = codes[t &+ s]
            w.write((entry & 0xFFFF) &<< extraLength | extra, count: Int(entry &>> 16) &+ extraLength)
            t = t &+ stride
            if t == components &* stride { t = 0 }
        }
    }
}
