// The sample decoder of our hand-written lossless JPEG codec (libjpeg-turbo 2.1 has no lossless
// mode): Huffman-coded differences (ITU-T T.81 F.2.2.1, H.1.2.2) added to predictions (H.1.2.1),
// with the prediction reset at each row start and restart interval. SPEC R1; DNG 1.4
// specification, Compression = 7 (lossless JPEG).
import DaguerreCore

/// Decodes the samples of a parsed ``LosslessJPEGStream`` into a caller buffer.
///
/// Speed comes from three things: the entropy-coded data is unstuffed once
/// (``LosslessJPEGEntropyData``), so a branch-free refill keeps 56+ bits in a register
/// (``LosslessJPEGBitReader``); an 11-bit lookup gives a short code's category and the length
/// of code plus extra bits at once; and the row loop is specialized per predictor. Safety comes
/// from checks at the block level: the buffer size before the first write, the load offset
/// clamped to the data (so a damaged stream reads zeros, never past the allocation), and the
/// bit position against the restart interval's end after each row (so it throws `.truncated`).
///
/// ```swift
/// let stream = try LosslessJPEGStream(bytes)
/// try LosslessJPEGDecoder.decode(stream, bytes, into: samples, rowStride: stream.header.samplesPerRow,
///                                capacity: stream.header.samplesPerRow * stream.header.height, legacyDifference16: false)
/// ```
enum LosslessJPEGDecoder {
    /// What one scan's sample loop needs, gathered so the generic loop takes one argument.
    struct Scan {
        var destination: UnsafeMutablePointer<UInt16>
        var rowStride: Int
        var header: LosslessJPEGHeader
        var rowsPerInterval: Int
        var data: LosslessJPEGEntropyData
        /// Per component: its lookup table, and its full table for the slow path.
        var lookups: UnsafePointer<UnsafePointer<UInt16>>
        var tables: UnsafePointer<LosslessJPEGDecodingTable>
        var legacyDifference16: Bool
    }

    static func decode(_ stream: LosslessJPEGStream, _ bytes: UnsafeRawBufferPointer, into destination: UnsafeMutablePointer<UInt16>,
                       rowStride: Int, capacity: Int, legacyDifference16: Bool) throws(DaguerreError) {
        let header = stream.header
        let perRow = header.samplesPerRow
        // A frame wider than the destination's rows is refused like one with too many rows: the
        // stream decides the width, so this is the data's fault as often as the caller's.
        guard rowStride >= perRow else {
            throw .tooLarge(what: "The samples per row of a \(header.width)-pixel, \(header.components)-component lossless JPEG "
                                + "frame, against the destination's row stride,", value: perRow, limit: rowStride)
        }
        let (before, o1) = (header.height - 1).multipliedReportingOverflow(by: rowStride)
        let (needed, o2) = before.addingReportingOverflow(perRow)
        guard !o1, !o2, needed <= capacity else {
            throw .tooLarge(what: "The samples a \(header.width)×\(header.height)×\(header.components) lossless JPEG frame "
                                + "needs (row stride \(rowStride)) in the destination", value: o1 || o2 ? Int.max : needed, limit: max(0, capacity))
        }

        let rowsPerInterval = header.restartInterval == 0 ? header.height : max(1, header.restartInterval / header.width)
        let intervals = (header.height + rowsPerInterval - 1) / rowsPerInterval
        let data = try LosslessJPEGEntropyData(bytes, from: stream.entropyStart, intervals: intervals)
        defer { data.deallocate() }

        // One lookup table per distinct Huffman table (components usually share, or come in pairs).
        let components = header.components
        let tableSize = 1 << LosslessJPEGDecodingTable.lookupBits
        var distinct: [LosslessJPEGHuffmanTable] = []
        var which: [Int] = []
        for table in stream.componentTables {
            if let k = distinct.firstIndex(of: table) { which.append(k) } else { which.append(distinct.count); distinct.append(table) }
        }
        let decoding = distinct.map(LosslessJPEGDecodingTable.init)
        let lookupStorage = UnsafeMutablePointer<UInt16>.allocate(capacity: distinct.count * tableSize)
        defer { lookupStorage.deallocate() }
        for (k, table) in decoding.enumerated() {
            table.lookup.withUnsafeBufferPointer { (lookupStorage + k * tableSize).initialize(from: $0.baseAddress!, count: tableSize) }
        }
        let lookups = UnsafeMutablePointer<UnsafePointer<UInt16>>.allocate(capacity: components)
        defer { lookups.deallocate() }
        for c in 0..<components { lookups[c] = UnsafePointer(lookupStorage + which[c] * tableSize) }
        let perComponent = which.map { decoding[$0] }

        try perComponent.withUnsafeBufferPointer { (tables) throws(DaguerreError) in
            let scan = Scan(destination: destination, rowStride: rowStride, header: header, rowsPerInterval: rowsPerInterval,
                            data: data, lookups: UnsafePointer(lookups), tables: tables.baseAddress!,
                            legacyDifference16: legacyDifference16)
            switch header.predictor {
            case 1: try decodeScan(LosslessPredictor1.self, scan)
            case 2: try decodeScan(LosslessPredictor2.self, scan)
            case 3: try decodeScan(LosslessPredictor3.self, scan)
            case 4: try decodeScan(LosslessPredictor4.self, scan)
            case 5: try decodeScan(LosslessPredictor5.self, scan)
            case 6: try decodeScan(LosslessPredictor6.self, scan)
            default: try decodeScan(LosslessPredictor7.self, scan)
            }
        }
    }

    /// The sample loop, specialized per predictor. Row `r` of an interval's first row predicts
    /// from the left only (its first pixel from 2^(P−Pt−1)); other rows start from the sample above.
    static func decodeScan<P: LosslessPredictor>(_: P.Type, _ scan: Scan) throws(DaguerreError) {
        let header = scan.header
        let components = header.components, perRow = header.samplesPerRow, height = header.height
        let destination = scan.destination, rowStride = scan.rowStride
        let bytes = UnsafePointer(scan.data.bytes), limit = scan.data.count
        let lookups = scan.lookups, tables = scan.tables, legacy = scan.legacyDifference16
        let initial = Int32(1) << (header.precision - header.pointTransform - 1)
        let shift = UInt16(header.pointTransform)
        var interval = 0
        var rowStart = 0
        while rowStart < height {
            guard interval < scan.data.intervals.count else { throw .truncated(format: "lossless JPEG", path: nil) }
            let end = scan.data.intervals[interval].upperBound
            var reader = LosslessJPEGBitReader(bytes, limit: limit, startByte: scan.data.intervals[interval].lowerBound >> 3)
            let rowEnd = min(height, rowStart + scan.rowsPerInterval)
            for r in rowStart..<rowEnd {
                let row = destination + r * rowStride
                // An interval's first row predicts from the left only (its first pixel from
                // 2^(P−Pt−1)); other rows start from the sample above and use the predictor.
                let first = r == rowStart
                let above = UnsafePointer(first ? row : row - rowStride)
                @inline(__always) func predicted(_ i: Int) -> Int32 {
                    first ? Int32(row[i &- components])
                          : P.predict(a: Int32(row[i &- components]), b: Int32(above[i]), c: Int32(above[i &- components]))
                }
                for c in 0..<components {
                    let d = try difference(&reader, lookups[c], tables + c, legacy)
                    row[c] = UInt16(truncatingIfNeeded: (first ? initial : Int32(above[c])) &+ d)
                }
                // Samples two at a time. With one or two components (every Bayer DNG) a pair's
                // tables are always the same two, so nothing carries from pair to pair but the
                // bit reader.
                let fixed = components <= 2
                var c = 0, i = components
                while i &+ 1 < perRow {
                    let c1 = fixed ? 0 : c
                    let c2 = fixed ? components &- 1 : (c &+ 1 == components ? 0 : c &+ 1)
                    let (d, e) = try differences(&reader, lookups[c1], tables + c1, lookups[c2], tables + c2, legacy)
                    row[i] = UInt16(truncatingIfNeeded: predicted(i) &+ d)
                    row[i &+ 1] = UInt16(truncatingIfNeeded: predicted(i &+ 1) &+ e)
                    if !fixed { c = c2 &+ 1 == components ? 0 : c2 &+ 1 }
                    i &+= 2
                }
                // A last single sample (an odd count: one component, so table 0, or three).
                if i < perRow {
                    let d = try difference(&reader, lookups[c], tables + c, legacy)
                    row[i] = UInt16(truncatingIfNeeded: predicted(i) &+ d)
                }
                guard reader.position <= end else { throw .truncated(format: "lossless JPEG", path: nil) }
                // The point transform: a row is shifted back once the row below no longer needs it.
                if shift > 0 && r > 0 { shiftRow(destination + (r - 1) * rowStride, perRow, shift) }
            }
            rowStart = rowEnd
            interval += 1
        }
        if shift > 0 { shiftRow(destination + (height - 1) * rowStride, perRow, shift) }
    }

    private static func shiftRow(_ row: UnsafeMutablePointer<UInt16>, _ count: Int, _ shift: UInt16) {
        for i in 0..<count { row[i] = row[i] &<< shift }
    }

    /// The lookup entry for the code at the top of `window`.
    @inline(__always) static func entry(_ window: UInt64, _ lookup: UnsafePointer<UInt16>) -> Int {
        Int(lookup[Int(truncatingIfNeeded: window &>> (64 - LosslessJPEGDecodingTable.lookupBits))])
    }

    /// Whether `entry` is a short code of category 0…15, decoded by ``fastDifference(_:_:)``.
    @inline(__always) static func isFast(_ entry: Int) -> Bool { UInt(bitPattern: entry &- 1) < 1023 }

    /// The difference a short code's entry describes, from the window it was looked up in.
    @inline(__always) static func fastDifference(_ window: UInt64, _ entry: Int) -> Int32 {
        let total = entry & 63, category = entry &>> 6
        // The extra bits are the last SSSS of the `total` bits.
        let size = Int32(1) &<< category
        let value = Int32(truncatingIfNeeded: window &>> (64 &- total)) & (size &- 1)
        // A leading 0 extra bit means a negative difference: value − (2^SSSS − 1) (F.2.2.1,
        // Figure F.12). The leading extra bit is moved to the sign and spread with a shift,
        // as a compare would be turned into a branch, and a difference's sign is unpredictable.
        let leading = Int64(bitPattern: window &<< (total &- category)) &>> 63
        let negative = ~Int32(truncatingIfNeeded: leading)
        return value &- (negative & (size &- 1))
    }

    /// The next two differences, the first with the first table. A short code and its extra
    /// bits take at most 11 + 15 bits, so one refill (56 or more bits) serves two of them: the
    /// second lookup waits only for the first one's length, not for another load.
    @inline(__always)
    static func differences(_ reader: inout LosslessJPEGBitReader, _ lookup: UnsafePointer<UInt16>, _ table: UnsafePointer<LosslessJPEGDecodingTable>,
                            _ lookup2: UnsafePointer<UInt16>, _ table2: UnsafePointer<LosslessJPEGDecodingTable>,
                            _ legacy: Bool) throws(DaguerreError) -> (Int32, Int32) {
        reader.refill()
        let window = reader.buffer, first = entry(window, lookup)
        guard _fastPath(isFast(first)) else {
            let d = try difference(&reader, lookup, table, legacy)
            return (d, try difference(&reader, lookup2, table2, legacy))
        }
        let d = fastDifference(window, first)
        reader.consume(first & 63)
        let window2 = reader.buffer, second = entry(window2, lookup2)
        guard _fastPath(isFast(second)) else { return (d, try difference(&reader, lookup2, table2, legacy)) }
        reader.consume(second & 63)
        return (d, fastDifference(window2, second))
    }

    /// The next difference (T.81 F.2.2.1): a Huffman-coded category SSSS, then SSSS extra bits.
    @inline(__always)
    static func difference(_ reader: inout LosslessJPEGBitReader, _ lookup: UnsafePointer<UInt16>,
                           _ table: UnsafePointer<LosslessJPEGDecodingTable>, _ legacy: Bool) throws(DaguerreError) -> Int32 {
        reader.refill()
        let window = reader.buffer, code = entry(window, lookup)
        if _fastPath(isFast(code)) {
            reader.consume(code & 63)
            return fastDifference(window, code)
        }
        let packed = slowDifference(window, table, legacy)
        guard packed >= 0 else {
            throw .corruptData(format: "lossless JPEG", detail: "the entropy-coded data holds a bit pattern that is no Huffman code of its table", path: nil)
        }
        reader.consume(Int(packed >> 32))
        return Int32(truncatingIfNeeded: packed)
    }

    /// Long codes (over ``LosslessJPEGDecodingTable/lookupBits``), category 16, and invalid
    /// codes: canonical decoding (T.81 Figure F.16). Returns `consumed << 32 | difference`, or −1.
    @inline(never)
    static func slowDifference(_ window: UInt64, _ table: UnsafePointer<LosslessJPEGDecodingTable>, _ legacy: Bool) -> Int64 {
        let t = table.pointee
        for length in 1...16 {
            let code = Int32(truncatingIfNeeded: window >> UInt64(64 - length))
            guard code <= t.maxCode[length] else { continue }
            let index = Int(t.valueOffset[length] + code)
            guard index >= 0, index < t.symbols.count else { return -1 }
            let category = Int(t.symbols[index])
            let rest = window << UInt64(length)
            switch category {
            case 0...15:
                var value = category == 0 ? 0 : Int64(rest >> UInt64(64 - category))
                if category > 0 && value < Int64(1) << (category - 1) { value -= (Int64(1) << category) - 1 }
                return Int64(length + category) << 32 | Int64(UInt32(bitPattern: Int32(value)))
            case 16 where legacy:
                // Pre-DNG 1.1 writers: 16 extra bits follow, extended like any other category.
                var value = Int64(rest >> 48)
                if value < 32768 { value -= 65535 }
                return Int64(length + 16) << 32 | Int64(UInt32(bitPattern: Int32(value)))
            case 16:
                return Int64(length) << 32 | 32768
            default:
                return -1
            }
        }
        return -1
    }
}
