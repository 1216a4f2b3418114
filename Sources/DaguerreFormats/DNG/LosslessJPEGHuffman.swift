// Huffman tables for our hand-written lossless JPEG codec (libjpeg-turbo 2.1 has no lossless
// mode): optimal tables from a histogram (ITU-T T.81 Annex K.2), code assignment (Annex C) and
// the lookup tables the decoder uses. SPEC R1; DNG 1.4 specification, Compression = 7.
import DaguerreCore

/// A Huffman table as a DHT segment stores it: how many codes each length 1...16 has, and the
/// symbols in code order. Lossless JPEG symbols are difference categories (SSSS) 0...16.
///
/// ```swift
/// let table = LosslessJPEGHuffmanTable.optimal(frequencies: histogram)   // 17 counts
/// let (codes, lengths) = table.codes()
/// ```
struct LosslessJPEGHuffmanTable: Equatable, Sendable {
    /// `counts[i]`: the number of codes of length i + 1 (16 entries).
    var counts: [UInt8]
    /// The symbols, shortest codes first.
    var symbols: [UInt8]

    /// The number of difference categories (SSSS 0...16).
    static let categories = 17

    /// The optimal table for `frequencies` (one count per category, T.81 Annex K.2 and K.3).
    ///
    /// This is the procedure of Figures K.1–K.4 as libjpeg implements it: a reserved symbol of
    /// frequency 1 keeps the all-ones code unused, ties pick the largest symbol, and codes longer
    /// than 16 bits are folded back (Figure K.3). Categories with zero frequency get no code.
    static func optimal(frequencies: [Int]) -> LosslessJPEGHuffmanTable {
        let reserved = categories  // the extra symbol of Figure K.1
        var freq = [Int](repeating: 0, count: categories + 1)
        for s in 0..<min(categories, frequencies.count) { freq[s] = frequencies[s] }
        freq[reserved] = 1
        var codeSize = [Int](repeating: 0, count: categories + 1)
        var others = [Int](repeating: -1, count: categories + 1)
        while true {
            // The least frequent symbol, and the next least; ties go to the larger symbol.
            var c1 = -1
            var v = Int.max
            for i in 0...reserved where freq[i] > 0 && freq[i] <= v {
                v = freq[i]
                c1 = i
            }
            var c2 = -1
            v = Int.max
            for i in 0...reserved where freq[i] > 0 && freq[i] <= v && i != c1 {
                v = freq[i]
                c2 = i
            }
            if c2 < 0 { break }
            freq[c1] += freq[c2]
            freq[c2] = 0
            codeSize[c1] += 1
            while others[c1] >= 0 {
                c1 = others[c1]
                codeSize[c1] += 1
            }
            others[c1] = c2
            codeSize[c2] += 1
            while others[c2] >= 0 {
                c2 = others[c2]
                codeSize[c2] += 1
            }
        }
        // Counts per length (18 symbols cannot make a code longer than 17 bits; 32 is ample).
        var bits = [Int](repeating: 0, count: 33)
        for i in 0...reserved where codeSize[i] > 0 { bits[codeSize[i]] += 1 }
        // Figure K.3: move codes longer than 16 bits up the tree.
        var i = 32
        while i > 16 {
            while bits[i] > 0 {
                var j = i - 2
                while bits[j] == 0 { j -= 1 }
                bits[i] -= 2
                bits[i - 1] += 1
                bits[j + 1] += 2
                bits[j] -= 1
            }
            i -= 1
        }
        // Remove the reserved code point: the longest code.
        while bits[i] == 0 { i -= 1 }
        bits[i] -= 1
        // Figure K.4: symbols sorted by code size (then by value).
        var symbols: [UInt8] = []
        for size in 1...32 {
            for s in 0..<categories where codeSize[s] == size { symbols.append(UInt8(s)) }
        }
        return LosslessJPEGHuffmanTable(counts: (1...16).map { UInt8(bits[$0]) }, symbols: symbols)
    }

    /// The code and length of each category (T.81 Annex C); length 0 where a category has no code.
    func codes() -> (codes: [UInt32], lengths: [UInt8]) {
        var codes = [UInt32](repeating: 0, count: Self.categories)
        var lengths = [UInt8](repeating: 0, count: Self.categories)
        var code: UInt32 = 0
        var k = 0
        for length in 1...16 {
            for _ in 0..<Int(counts[length - 1]) {
                let s = Int(symbols[k])
                if s < Self.categories {
                    codes[s] = code
                    lengths[s] = UInt8(length)
                }
                code += 1
                k += 1
            }
            code <<= 1
        }
        return (codes, lengths)
    }

    /// Throws unless the counts describe a prefix code (no length overfull), as a decoder must
    /// check before trusting a DHT segment.
    func validate() throws(DaguerreError) {
        var code = 0
        for length in 1...16 {
            code += Int(counts[length - 1])
            if code > 1 << length {
                throw .corruptData(
                    format: "lossless JPEG", detail: "a Huffman table has more codes of length \(length) than fit", path: nil)
            }
            code <<= 1
        }
    }
}

/// The decoder's form of a Huffman table: a lookup on the next ``lookupBits`` bits for the
/// common short codes, a lookup on the next ``fullBits`` bits that gives the difference itself
/// when code and extra bits fit there, and canonical decoding (T.81 Figure F.16) for the rest.
///
/// A lookup entry is `(length + SSSS) | SSSS << 6` for a code of length 1...11 whose category
/// SSSS is 0...15, so the decoder learns how many bits the whole difference takes (code and
/// extra bits) with one mask. Every other entry (the next bits start a longer code, category
/// 16, a symbol above 16, or no code at all) is 0 or at least 1024, so one unsigned compare
/// (`entry - 1 < 1023`) separates the fast case from the slow path.
///
/// A full entry is `difference << 8 | (length + SSSS)`, or 0 where the code and its extra bits
/// take more than ``fullBits`` bits. For a 14-bit raw file most differences fit in 12 bits
/// (categories up to 8 or 9 after a 3- or 4-bit code), and one load then replaces the extra
/// bits' extraction and sign extension: about a third of the decoder's instructions a sample.
///
/// ```swift
/// let decoding = LosslessJPEGDecodingTable(table)
/// let entry = decoding.lookup[Int(window >> (64 - LosslessJPEGDecodingTable.lookupBits))]
/// let full = decoding.full[Int(window >> (64 - LosslessJPEGDecodingTable.fullBits))]   // 0: use `entry`
/// ```
struct LosslessJPEGDecodingTable: Sendable {
    static let lookupBits = 11
    /// 4096 entries of 4 bytes: 16 KB, which stays in the L1 cache beside the short lookup.
    static let fullBits = 12
    var lookup: [UInt16]
    var full: [Int32]
    /// Largest code of each length 1...16 (index = length), −1 where there is none.
    var maxCode: [Int32]
    /// Index into `symbols` of a length's first code, minus that code.
    var valueOffset: [Int32]
    var symbols: [UInt8]

    init(_ table: LosslessJPEGHuffmanTable) {
        let bitsN = Self.lookupBits
        lookup = [UInt16](repeating: 0, count: 1 << bitsN)
        full = []
        maxCode = [Int32](repeating: -1, count: 17)
        valueOffset = [Int32](repeating: 0, count: 17)
        symbols = table.symbols
        var code = 0
        var k = 0
        for length in 1...16 {
            let n = Int(table.counts[length - 1])
            if n > 0 {
                valueOffset[length] = Int32(k - code)
                maxCode[length] = Int32(code + n - 1)
                if length <= bitsN {
                    for j in 0..<n {
                        let symbol = Int(table.symbols[k + j])
                        let entry = symbol < 16 ? UInt16(length + symbol) | UInt16(symbol) << 6 : UInt16(length) | 31 << 6
                        let first = (code + j) << (bitsN - length)
                        let last = (code + j + 1) << (bitsN - length)
                        for e in first..<last { lookup[e] = entry }
                    }
                }
            }
            code += n
            k += n
            code <<= 1
        }
        // Every full window whose short-code entry says the difference ends within it.
        let fullN = Self.fullBits
        let lookup = lookup
        full = (0..<(1 << fullN)).map { w in
            let window = UInt64(w) << (64 - fullN)
            let entry = Int(lookup[w >> (fullN - bitsN)])
            guard LosslessJPEGDecoder.isFast(entry), entry & 63 <= fullN else { return 0 }
            return LosslessJPEGDecoder.fastDifference(window, entry) << 8 | Int32(entry & 63)
        }
    }
}
