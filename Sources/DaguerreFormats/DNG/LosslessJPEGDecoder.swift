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
    /// One scan, ready for the sample loop: the buffer checked against the frame, the
    /// entropy-coded data unstuffed, and the Huffman lookup tables built. It owns that memory
    /// until ``release()``.
    struct Scan {
        let destination: UnsafeMutablePointer<UInt16>
        let rowStride: Int
        let header: LosslessJPEGHeader
        let rowsPerInterval: Int
        let data: LosslessJPEGEntropyData
        /// Per component: its full-difference and short-code lookups, and its decoding table
        /// for the slow path.
        let coding: UnsafeMutablePointer<Tables>
        private let tables: UnsafeMutablePointer<LosslessJPEGDecodingTable>
        private let lookupStorage: UnsafeMutablePointer<UInt16>
        private let fullStorage: UnsafeMutablePointer<Int32>
        let legacyDifference16: Bool

        init(
            _ stream: LosslessJPEGStream, _ bytes: UnsafeRawBufferPointer, into destination: UnsafeMutablePointer<UInt16>,
            rowStride: Int, capacity: Int, legacyDifference16: Bool
        ) throws(DaguerreError) {
            let header = stream.header
            let perRow = header.samplesPerRow
            // A frame wider than the destination's rows is refused like one with too many rows: the
            // stream decides the width, so this is the data's fault as often as the caller's.
            guard rowStride >= perRow else {
                throw .tooLarge(
                    what: "The samples per row of a \(header.width)-pixel, \(header.components)-component lossless JPEG "
                        + "frame, against the destination's row stride,", value: perRow, limit: rowStride)
            }
            let (before, o1) = (header.height - 1).multipliedReportingOverflow(by: rowStride)
            let (needed, o2) = before.addingReportingOverflow(perRow)
            guard !o1, !o2, needed <= capacity else {
                throw .tooLarge(
                    what: "The samples a \(header.width)×\(header.height)×\(header.components) lossless JPEG frame "
                        + "needs (row stride \(rowStride)) in the destination", value: o1 || o2 ? Int.max : needed, limit: max(0, capacity))
            }
            rowsPerInterval = header.restartInterval == 0 ? header.height : max(1, header.restartInterval / header.width)
            let intervals = (header.height + rowsPerInterval - 1) / rowsPerInterval
            data = try LosslessJPEGEntropyData(bytes, from: stream.entropyStart, intervals: intervals)

            // One lookup table per distinct Huffman table (components usually share, or come in pairs).
            let components = header.components
            let tableSize = 1 << LosslessJPEGDecodingTable.lookupBits
            var distinct: [LosslessJPEGHuffmanTable] = []
            var which: [Int] = []
            for table in stream.componentTables {
                if let k = distinct.firstIndex(of: table) {
                    which.append(k)
                } else {
                    which.append(distinct.count)
                    distinct.append(table)
                }
            }
            let decoding = distinct.map(LosslessJPEGDecodingTable.init)
            let fullSize = 1 << LosslessJPEGDecodingTable.fullBits
            let storage = UnsafeMutablePointer<UInt16>.allocate(capacity: distinct.count * tableSize)
            let fullTables = UnsafeMutablePointer<Int32>.allocate(capacity: distinct.count * fullSize)
            for (k, table) in decoding.enumerated() {
                table.lookup.withUnsafeBufferPointer { (storage + k * tableSize).initialize(from: $0.baseAddress!, count: tableSize) }
                table.full.withUnsafeBufferPointer { (fullTables + k * fullSize).initialize(from: $0.baseAddress!, count: fullSize) }
            }
            lookupStorage = storage
            fullStorage = fullTables
            tables = .allocate(capacity: components)
            coding = .allocate(capacity: components)
            for c in 0..<components {
                (tables + c).initialize(to: decoding[which[c]])
                coding[c] = Tables(fullTables + which[c] * fullSize, storage + which[c] * tableSize, tables + c)
            }
            self.destination = destination
            self.rowStride = rowStride
            self.header = header
            self.legacyDifference16 = legacyDifference16
        }

        func release() {
            data.deallocate()
            lookupStorage.deallocate()
            fullStorage.deallocate()
            coding.deallocate()
            tables.deinitialize(count: header.components)
            tables.deallocate()
        }
    }

    static func decode(
        _ stream: LosslessJPEGStream, _ bytes: UnsafeRawBufferPointer, into destination: UnsafeMutablePointer<UInt16>,
        rowStride: Int, capacity: Int, legacyDifference16: Bool
    ) throws(DaguerreError) {
        let scan = try Scan(
            stream, bytes, into: destination, rowStride: rowStride, capacity: capacity, legacyDifference16: legacyDifference16)
        defer { scan.release() }
        try decode(scan)
    }

    /// Decodes two frames at once, each into its own buffer (the arguments as for one frame).
    ///
    /// One scan's loop is a single chain of dependent steps (look up a code, shift it out, look
    /// up the next), so the core waits on each lookup. Two scans of the same shape (a DNG's
    /// neighbouring tiles) decoded in lockstep give it two independent chains to overlap.
    /// Scans of different shapes, with restart intervals or with more than two components are
    /// decoded one after the other; the samples are the same either way.
    static func decode(
        _ first: LosslessJPEGStream, _ firstBytes: UnsafeRawBufferPointer, into firstDestination: UnsafeMutablePointer<UInt16>,
        rowStride firstStride: Int, capacity firstCapacity: Int,
        _ second: LosslessJPEGStream, _ secondBytes: UnsafeRawBufferPointer, into secondDestination: UnsafeMutablePointer<UInt16>,
        rowStride secondStride: Int, capacity secondCapacity: Int, legacyDifference16: Bool
    ) throws(DaguerreError) {
        let a = try Scan(
            first, firstBytes, into: firstDestination, rowStride: firstStride, capacity: firstCapacity,
            legacyDifference16: legacyDifference16)
        defer { a.release() }
        let b = try Scan(
            second, secondBytes, into: secondDestination, rowStride: secondStride, capacity: secondCapacity,
            legacyDifference16: legacyDifference16)
        defer { b.release() }
        let header = a.header
        guard header == b.header, header.components <= 2, a.data.intervals.count == 1, b.data.intervals.count == 1,
            header.restartInterval == 0
        else {
            try decode(a)
            try decode(b)
            return
        }
        switch header.predictor {
        case 1: try decodeScanPair(LosslessPredictor1.self, a, b)
        case 2: try decodeScanPair(LosslessPredictor2.self, a, b)
        case 3: try decodeScanPair(LosslessPredictor3.self, a, b)
        case 4: try decodeScanPair(LosslessPredictor4.self, a, b)
        case 5: try decodeScanPair(LosslessPredictor5.self, a, b)
        case 6: try decodeScanPair(LosslessPredictor6.self, a, b)
        default: try decodeScanPair(LosslessPredictor7.self, a, b)
        }
    }

    private static func decode(_ scan: Scan) throws(DaguerreError) {
        switch scan.header.predictor {
        case 1: try decodeScan(LosslessPredictor1.self, scan)
        case 2: try decodeScan(LosslessPredictor2.self, scan)
        case 3: try decodeScan(LosslessPredictor3.self, scan)
        case 4: try decodeScan(LosslessPredictor4.self, scan)
        case 5: try decodeScan(LosslessPredictor5.self, scan)
        case 6: try decodeScan(LosslessPredictor6.self, scan)
        default: try decodeScan(LosslessPredictor7.self, scan)
        }
    }

    /// The sample loop, specialized per predictor. Row `r` of an interval's first row predicts
    /// from the left only (its first pixel from 2^(P−Pt−1)); other rows start from the sample above.
    static func decodeScan<P: LosslessPredictor>(_: P.Type, _ scan: Scan) throws(DaguerreError) {
        let header = scan.header
        let components = header.components
        let perRow = header.samplesPerRow
        let height = header.height
        let destination = scan.destination
        let rowStride = scan.rowStride
        let bytes = UnsafePointer(scan.data.bytes)
        let limit = scan.data.count
        let coding = scan.coding
        let legacy = scan.legacyDifference16
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
                    first
                        ? Int32(row[i &- components])
                        : P.predict(a: Int32(row[i &- components]), b: Int32(above[i]), c: Int32(above[i &- components]))
                }
                for c in 0..<components {
                    let d = try difference(&reader, coding[c], legacy)
                    row[c] = UInt16(truncatingIfNeeded: (first ? initial : Int32(above[c])) &+ d)
                }
                // Samples two at a time. With one or two components (every Bayer DNG) a pair's
                // tables are always the same two, so nothing carries from pair to pair but the
                // bit reader.
                let fixed = components <= 2
                var c = 0
                var i = components
                while i &+ 1 < perRow {
                    let c1 = fixed ? 0 : c
                    let c2 = fixed ? components &- 1 : (c &+ 1 == components ? 0 : c &+ 1)
                    let (d, e) = try differences(&reader, coding[c1], coding[c2], legacy)
                    row[i] = UInt16(truncatingIfNeeded: predicted(i) &+ d)
                    row[i &+ 1] = UInt16(truncatingIfNeeded: predicted(i &+ 1) &+ e)
                    if !fixed { c = c2 &+ 1 == components ? 0 : c2 &+ 1 }
                    i &+= 2
                }
                // A last single sample (an odd count: one component, so table 0, or three).
                if i < perRow {
                    let d = try difference(&reader, coding[c], legacy)
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

    /// Two scans of the same header (at most two components, no restart intervals) in
    /// lockstep: row by row, and within a row sample pair by sample pair, each step the same as
    /// ``decodeScan(_:_:)``'s for one scan.
    static func decodeScanPair<P: LosslessPredictor>(_: P.Type, _ a: Scan, _ b: Scan) throws(DaguerreError) {
        let header = a.header
        let components = header.components
        let perRow = header.samplesPerRow
        let height = header.height
        let legacy = a.legacyDifference16
        let initial = Int32(1) << (header.precision - header.pointTransform - 1)
        let shift = UInt16(header.pointTransform)
        var readerA = LosslessJPEGBitReader(
            UnsafePointer(a.data.bytes), limit: a.data.count, startByte: a.data.intervals[0].lowerBound >> 3)
        var readerB = LosslessJPEGBitReader(
            UnsafePointer(b.data.bytes), limit: b.data.count, startByte: b.data.intervals[0].lowerBound >> 3)
        let endA = a.data.intervals[0].upperBound
        let endB = b.data.intervals[0].upperBound
        // With one or two components a pair's tables are always the same two (see decodeScan).
        let last = components &- 1
        let (a1, a2) = (a.coding[0], a.coding[last])
        let (b1, b2) = (b.coding[0], b.coding[last])
        for r in 0..<height {
            let rowA = a.destination + r * a.rowStride
            let rowB = b.destination + r * b.rowStride
            let first = r == 0
            let aboveA = UnsafePointer(first ? rowA : rowA - a.rowStride)
            let aboveB = UnsafePointer(first ? rowB : rowB - b.rowStride)
            @inline(__always) func predicted(_ row: UnsafeMutablePointer<UInt16>, _ above: UnsafePointer<UInt16>, _ i: Int) -> Int32 {
                first
                    ? Int32(row[i &- components])
                    : P.predict(a: Int32(row[i &- components]), b: Int32(above[i]), c: Int32(above[i &- components]))
            }
            for c in 0..<components {
                let d = try difference(&readerA, a.coding[c], legacy)
                let e = try difference(&readerB, b.coding[c], legacy)
                rowA[c] = UInt16(truncatingIfNeeded: (first ? initial : Int32(aboveA[c])) &+ d)
                rowB[c] = UInt16(truncatingIfNeeded: (first ? initial : Int32(aboveB[c])) &+ e)
            }
            var i = components
            while i &+ 1 < perRow {
                let (d, e) = try differences(&readerA, a1, a2, legacy)
                let (f, g) = try differences(&readerB, b1, b2, legacy)
                rowA[i] = UInt16(truncatingIfNeeded: predicted(rowA, aboveA, i) &+ d)
                rowB[i] = UInt16(truncatingIfNeeded: predicted(rowB, aboveB, i) &+ f)
                rowA[i &+ 1] = UInt16(truncatingIfNeeded: predicted(rowA, aboveA, i &+ 1) &+ e)
                rowB[i &+ 1] = UInt16(truncatingIfNeeded: predicted(rowB, aboveB, i &+ 1) &+ g)
                i &+= 2
            }
            // A last single sample (an odd count: one component, so table 0).
            if i < perRow {
                let d = try difference(&readerA, a1, legacy)
                let e = try difference(&readerB, b1, legacy)
                rowA[i] = UInt16(truncatingIfNeeded: predicted(rowA, aboveA, i) &+ d)
                rowB[i] = UInt16(truncatingIfNeeded: predicted(rowB, aboveB, i) &+ e)
            }
            guard readerA.position <= endA, readerB.position <= endB else { throw .truncated(format: "lossless JPEG", path: nil) }
            if shift > 0 && r > 0 {
                shiftRow(rowA - a.rowStride, perRow, shift)
                shiftRow(rowB - b.rowStride, perRow, shift)
            }
        }
        if shift > 0 {
            shiftRow(a.destination + (height - 1) * a.rowStride, perRow, shift)
            shiftRow(b.destination + (height - 1) * b.rowStride, perRow, shift)
        }
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
        let total = entry & 63
        let category = entry &>> 6
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

    /// One component's tables, as the sample loops pass them.
    struct Tables {
        let full: UnsafePointer<Int32>
        let lookup: UnsafePointer<UInt16>
        let table: UnsafePointer<LosslessJPEGDecodingTable>
        init(_ full: UnsafePointer<Int32>, _ lookup: UnsafePointer<UInt16>, _ table: UnsafePointer<LosslessJPEGDecodingTable>) {
            self.full = full
            self.lookup = lookup
            self.table = table
        }
        /// The full-difference entry for the code at the top of `window` (0: not there).
        @inline(__always) func fullEntry(_ window: UInt64) -> Int32 {
            full[Int(truncatingIfNeeded: window &>> (64 - LosslessJPEGDecodingTable.fullBits))]
        }
    }

    /// The next two differences, the first with the first tables. A short code and its extra
    /// bits take at most 11 + 15 bits, so one refill (56 or more bits) serves two of them: the
    /// second lookup waits only for the first one's length, not for another load.
    @inline(__always)
    static func differences(
        _ reader: inout LosslessJPEGBitReader, _ first: Tables, _ second: Tables,
        _ legacy: Bool
    ) throws(DaguerreError) -> (Int32, Int32) {
        reader.refill()
        let f1 = first.fullEntry(reader.buffer)
        guard _fastPath(f1 != 0) else {
            let d = try shortDifference(&reader, first, legacy)
            return (d, try difference(&reader, second, legacy))
        }
        reader.consume(Int(f1 & 0xFF))
        let f2 = second.fullEntry(reader.buffer)
        guard _fastPath(f2 != 0) else { return (f1 &>> 8, try shortDifference(&reader, second, legacy)) }
        reader.consume(Int(f2 & 0xFF))
        return (f1 &>> 8, f2 &>> 8)
    }

    /// The next difference (T.81 F.2.2.1): a Huffman-coded category SSSS, then SSSS extra bits.
    @inline(__always)
    static func difference(_ reader: inout LosslessJPEGBitReader, _ tables: Tables, _ legacy: Bool) throws(DaguerreError) -> Int32 {
        reader.refill()
        let f = tables.fullEntry(reader.buffer)
        if _fastPath(f != 0) {
            reader.consume(Int(f & 0xFF))
            return f &>> 8
        }
        return try shortDifference(&reader, tables, legacy)
    }

    /// A difference whose code and extra bits take more than ``LosslessJPEGDecodingTable/fullBits``:
    /// the short-code lookup, else canonical decoding. The reader holds at least 26 valid bits.
    @inline(__always)
    static func shortDifference(_ reader: inout LosslessJPEGBitReader, _ tables: Tables, _ legacy: Bool) throws(DaguerreError) -> Int32 {
        let window = reader.buffer
        let code = entry(window, tables.lookup)
        if _fastPath(isFast(code)) {
            reader.consume(code & 63)
            return fastDifference(window, code)
        }
        let packed = slowDifference(window, tables.table, legacy)
        guard packed >= 0 else {
            throw .corruptData(
                format: "lossless JPEG", detail: "the entropy-coded data holds a bit pattern that is no Huffman code of its table",
                path: nil)
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
