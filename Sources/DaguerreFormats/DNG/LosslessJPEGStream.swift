// Marker parsing for our hand-written lossless JPEG decoder (libjpeg-turbo 2.1 has no lossless
// mode): SOI, SOF3, DHT, DRI, SOS and the segments it skips (ITU-T T.81 Annex B). SPEC R1; DNG
// 1.4 specification, Compression = 7 (lossless JPEG).
import DaguerreCore

/// A lossless JPEG stream's markers, parsed and checked up to the start of its entropy-coded
/// data: the frame, the one interleaved scan and the Huffman tables that scan uses.
///
/// Every length and count is checked against the bytes, so a hostile stream throws here rather
/// than misleading the decoder. What a DNG never holds and this codec does not decode (DCT
/// frames, subsampling, several scans, a height given later by DNL) is `.unsupported`, named.
///
/// ```swift
/// let stream = try LosslessJPEGStream(bytes)   // bytes: UnsafeRawBufferPointer
/// print(stream.header.width, stream.entropyStart)
/// ```
struct LosslessJPEGStream {
    var header: LosslessJPEGHeader
    /// The Huffman table of each component, in frame (and scan) order.
    var componentTables: [LosslessJPEGHuffmanTable]
    /// Offset of the first byte after the SOS segment.
    var entropyStart: Int

    init(_ bytes: UnsafeRawBufferPointer) throws(DaguerreError) {
        let n = bytes.count
        func corrupt(_ detail: String) -> DaguerreError { .corruptData(format: "lossless JPEG", detail: detail, path: nil) }
        let truncated = DaguerreError.truncated(format: "lossless JPEG", path: nil)
        guard n >= 2 else { throw truncated }
        guard bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw corrupt("it does not start with a JPEG SOI marker (FF D8)") }

        var frame: (precision: Int, height: Int, width: Int, ids: [UInt8])?
        var tables = [LosslessJPEGHuffmanTable?](repeating: nil, count: 4)
        var restartInterval = 0
        var i = 2
        while true {
            // A marker: FF, any number of fill FFs, then the code.
            guard i < n else { throw truncated }
            guard bytes[i] == 0xFF else { throw corrupt("byte \(i) should start a marker but is \(bytes[i])") }
            while i < n && bytes[i] == 0xFF { i += 1 }
            guard i < n else { throw truncated }
            let marker = bytes[i]
            i += 1
            switch marker {
            case 0xD8: throw corrupt("a second SOI marker")
            case 0xD9: throw corrupt("it ends (EOI) before any scan")
            case 0x01, 0xD0...0xD7: continue  // TEM and stray RSTn carry no segment
            case 0x00: throw corrupt("a stuffed FF 00 outside the entropy-coded data")
            default: break
            }
            guard i + 2 <= n else { throw truncated }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2 else { throw corrupt("segment FF \(hex(marker)) has length \(length)") }
            guard i + length <= n else { throw truncated }
            let s = i + 2  // the segment's payload
            let end = i + length
            i = end
            switch marker {
            case 0xC3:
                guard frame == nil else { throw corrupt("a second frame header") }
                guard length >= 8 else { throw corrupt("the SOF3 segment is too short") }
                let precision = Int(bytes[s])
                let height = Int(bytes[s + 1]) << 8 | Int(bytes[s + 2])
                let width = Int(bytes[s + 3]) << 8 | Int(bytes[s + 4])
                let count = Int(bytes[s + 5])
                guard length == 8 + 3 * count else {
                    throw corrupt("the SOF3 segment's length \(length) does not match its \(count) components")
                }
                guard (1...4).contains(count) else {
                    if count == 0 { throw corrupt("the frame has no components") }
                    throw .unsupported(
                        feature: "Lossless JPEG with \(count) components",
                        hint: "DNG tiles have 1 to 4 components; this stream is not a DNG tile.")
                }
                guard (2...16).contains(precision) else { throw corrupt("the sample precision is \(precision) bits (T.81 allows 2 to 16)") }
                guard height > 0 else {
                    throw .unsupported(
                        feature: "A lossless JPEG frame of height 0 (height given later by a DNL marker)",
                        hint: "DNG tiles state their height in SOF3; re-save the file with a DNG converter.")
                }
                guard width > 0 else { throw corrupt("the frame is 0 pixels wide") }
                var ids: [UInt8] = []
                for c in 0..<count {
                    let id = bytes[s + 6 + 3 * c]
                    let sampling = bytes[s + 7 + 3 * c]
                    guard !ids.contains(id) else { throw corrupt("component id \(id) appears twice") }
                    guard sampling == 0x11 else {
                        throw .unsupported(
                            feature: "Lossless JPEG sampling factors \(sampling >> 4)×\(sampling & 15) (component \(c))",
                            hint: "Only 1×1 sampling (no subsampling) is decoded, as DNG raw data uses.")
                    }
                    ids.append(id)
                }
                frame = (precision, height, width, ids)
            case 0xC0, 0xC1, 0xC2, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF:
                throw .unsupported(
                    feature: "A JPEG \(Self.frameName(marker)) frame where lossless JPEG (SOF3) was expected",
                    hint: "Only lossless Huffman JPEG (SOF3, DNG Compression 7) is decoded here; DCT JPEG "
                        + "(DNG Compression 34892, lossy) and arithmetic or hierarchical JPEG are other codecs.")
            case 0xC4:
                var p = s
                while p < end {
                    let tcth = bytes[p]
                    guard p + 17 <= end else { throw corrupt("a DHT segment ends inside its code counts") }
                    let counts = (0..<16).map { bytes[p + 1 + $0] }
                    let total = counts.reduce(0) { $0 + Int($1) }
                    guard p + 17 + total <= end else { throw corrupt("a DHT segment ends inside its symbols") }
                    let symbols = (0..<total).map { bytes[p + 17 + $0] }
                    let table = LosslessJPEGHuffmanTable(counts: counts, symbols: symbols)
                    try table.validate()
                    let tableClass = tcth >> 4
                    let index = Int(tcth & 15)
                    guard tableClass <= 1, index < 4 else { throw corrupt("a DHT segment defines table \(tableClass)/\(index)") }
                    // Lossless scans use DC-class tables; an AC table (class 1) is never selected, so it is skipped.
                    if tableClass == 0 { tables[index] = table }
                    p += 17 + total
                }
            case 0xDD:
                guard length == 4 else { throw corrupt("the DRI segment has length \(length)") }
                restartInterval = Int(bytes[s]) << 8 | Int(bytes[s + 1])
            case 0xDA:
                guard let frame else { throw corrupt("the scan (SOS) comes before the frame header (SOF3)") }
                guard length >= 6 else { throw corrupt("the SOS segment is too short") }
                let count = Int(bytes[s])
                guard length == 6 + 2 * count else {
                    throw corrupt("the SOS segment's length \(length) does not match its \(count) components")
                }
                guard count == frame.ids.count else {
                    throw .unsupported(
                        feature: "A lossless JPEG scan with \(count) of the frame's \(frame.ids.count) components",
                        hint: "Only one interleaved scan holding every component is decoded, as DNG tiles use.")
                }
                var componentTables: [LosslessJPEGHuffmanTable] = []
                for c in 0..<count {
                    let id = bytes[s + 1 + 2 * c]
                    let selector = Int(bytes[s + 2 + 2 * c] >> 4)
                    guard id == frame.ids[c] else {
                        if frame.ids.contains(id) {
                            throw .unsupported(
                                feature: "A lossless JPEG scan listing components in another order than the frame",
                                hint: "Re-save the file with a DNG converter.")
                        }
                        throw corrupt("the scan names component \(id), which the frame does not have")
                    }
                    guard selector < 4, let table = tables[selector] else {
                        throw corrupt("component \(c) uses Huffman table \(selector), which no DHT segment defines")
                    }
                    componentTables.append(table)
                }
                let predictor = Int(bytes[s + 1 + 2 * count])
                let pointTransform = Int(bytes[s + 3 + 2 * count] & 15)
                guard (1...7).contains(predictor) else { throw corrupt("the scan's predictor is \(predictor) (lossless JPEG has 1 to 7)") }
                guard pointTransform < frame.precision else {
                    throw corrupt("the point transform (\(pointTransform)) is not below the precision (\(frame.precision))")
                }
                if restartInterval > 0 && restartInterval % frame.width != 0 {
                    throw .unsupported(
                        feature: "A lossless JPEG restart interval of \(restartInterval) pixels in rows of \(frame.width)",
                        hint: "Restart intervals are decoded when they are whole rows, as DNG writers, "
                            + "Adobe's DNG SDK and libjpeg produce them.")
                }
                header = LosslessJPEGHeader(
                    width: frame.width, height: frame.height, components: count,
                    precision: frame.precision, predictor: predictor,
                    pointTransform: pointTransform, restartInterval: restartInterval)
                self.componentTables = componentTables
                entropyStart = end
                return
            default:
                // APPn, COM, DQT, DAC, DNL, DHP, EXP, JPGn and reserved markers: nothing lossless decoding needs.
                continue
            }
        }
    }

    /// The T.81 name of a frame marker other than SOF3.
    static func frameName(_ marker: UInt8) -> String {
        switch marker {
        case 0xC0: return "SOF0 (baseline DCT)"
        case 0xC1: return "SOF1 (extended sequential DCT)"
        case 0xC2: return "SOF2 (progressive DCT)"
        case 0xC5: return "SOF5 (differential sequential DCT)"
        case 0xC6: return "SOF6 (differential progressive DCT)"
        case 0xC7: return "SOF7 (differential lossless)"
        case 0xC9: return "SOF9 (extended sequential DCT, arithmetic)"
        case 0xCA: return "SOF10 (progressive DCT, arithmetic)"
        case 0xCB: return "SOF11 (lossless, arithmetic)"
        case 0xCD: return "SOF13 (differential sequential DCT, arithmetic)"
        case 0xCE: return "SOF14 (differential progressive DCT, arithmetic)"
        default: return "SOF15 (differential lossless, arithmetic)"
        }
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}
