// Reading a DNG without its main image's chunk data (SPEC X6): the structure, metadata and
// preview are read as always, and the tiles or strips, most of the file, stay on disk until a
// develop decodes them (``RandomAccessFile``). Nothing is trusted: the skipped range must hold only
// the main image's chunks, checked against every IFD, value and other image's data, or the whole
// file is read as before.
import DaguerreCore

extension DNGReader {
    /// Files smaller than this are read whole: skipping their chunks saves too little.
    static let sparseReadMinimum = 8 << 20
    /// How much of the file's start is read to find the main image's chunks.
    static let headBytes = 1 << 20

    /// The DNG at `path` read without its CFA main image's chunk data, the chunks left to be read
    /// from the file: nil when that does not apply (a small or non-regular file, chunks not in
    /// one run, a structure that lies elsewhere, a failure of any kind), and the caller reads the
    /// whole file, which then reports any damage itself.
    static func readWithoutChunks(path: String, limits: Limits) -> DNGImage? {
        do throws(DaguerreError) {
            guard let file = try RandomAccessFile(path: path), file.size >= sparseReadMinimum else { return nil }
            guard let span = rawChunkSpan(head: try file.prefix(headBytes)), span.lowerBound >= 8, span.upperBound <= file.size else {
                return nil
            }
            let structure = try Self.structure(try file.readAll(skipping: span))
            guard onlyChunks(of: structure.rawIFD, in: span, tree: structure.tree, structure.r) else { return nil }
            let opened = try image(structure, limits: limits, deferring: true, file: file)
            guard case .storedMosaic(let stored) = opened.rawData, stored.chunks.file != nil else { return nil }
            return opened
        } catch {
            return nil
        }
    }

    /// The bytes from the main image's first chunk to the end of its last, read from IFD0 or its
    /// SubIFDs in `head` alone: the run a sparse read skips. Nil unless it is a CFA image whose
    /// chunks fill the run (at most one pad byte each, as TIFF's word alignment leaves) and
    /// none claims more than twice its samples' 16-bit size and 64 KiB (a chunk read from the
    /// file gets a buffer of its byte count: a hostile count near the file's size, on every
    /// tile, would multiply the memory by the tiles decoding at once; held in memory, a chunk
    /// is only a slice).
    static func rawChunkSpan(head: [UInt8]) -> Range<Int>? {
        guard let r = try? TIFFStructureReader(bytes: head, format: "DNG"), let (ifd0, _) = try? r.directory(at: r.firstIFD) else {
            return nil
        }
        var candidates = [ifd0]
        if let sub = ifd0.entries[.subIFDs], let offsets = try? r.uints(sub) {
            for o in offsets.prefix(8) { if let (node, _) = try? r.directory(at: Int(o)) { candidates.append(node) } }
        }
        guard let raw = candidates.first(where: { ($0.uint(.newSubFileType, in: r) ?? 0) == 0 }),
            raw.uint(.photometricInterpretation, in: r) == 32803
        else { return nil }
        let offsets = raw.uints(.tileOffsets, in: r) ?? raw.uints(.stripOffsets, in: r)
        let counts = raw.uints(.tileByteCounts, in: r) ?? raw.uints(.stripByteCounts, in: r)
        guard let offsets, let counts, !offsets.isEmpty, offsets.count == counts.count,
            let width = raw.uint(.tileWidth, in: r) ?? raw.uint(.imageWidth, in: r),
            let rows = raw.uint(.tileLength, in: r) ?? raw.uint(.rowsPerStrip, in: r) ?? raw.uint(.imageLength, in: r)
        else { return nil }
        let largest = 4 * Int(width) * Int(rows) * Int(raw.uint(.samplesPerPixel, in: r) ?? 1) + (64 << 10)
        guard counts.allSatisfy({ Int($0) <= largest }) else { return nil }
        let starts = offsets.map { Int($0) }
        let ends = zip(offsets, counts).map { Int($0) + Int($1) }
        guard let start = starts.min(), let end = ends.max(), end > start else { return nil }
        let filled = counts.reduce(0) { $0 + Int($1) }
        return filled + offsets.count >= end - start ? start..<end : nil
    }

    /// The run a sparse read of a file holding `bytes` would skip, checked as
    /// ``readWithoutChunks(path:limits:)`` checks it, or nil when it would read the whole file
    /// (whatever the file's size): for the fuzzer and tests, on hostile structures (SPI: the
    /// fuzz/ package builds its harnesses against the public interface).
    @_spi(Fuzzing) public static func skippableRun(in bytes: [UInt8]) -> Range<Int>? {
        guard let span = rawChunkSpan(head: Array(bytes.prefix(headBytes))), span.lowerBound >= 8, span.upperBound <= bytes.count,
            let s = try? structure(bytes), onlyChunks(of: s.rawIFD, in: span, tree: s.tree, s.r)
        else { return nil }
        return span
    }

    /// Whether nothing the reader uses besides `rawIFD`'s chunks lies in `skipped`: no IFD table,
    /// no tag value longer than its entry, no other image's strips, tiles or JPEG thumbnail.
    static func onlyChunks(of rawIFD: TIFFNode, in skipped: Range<Int>, tree: [TIFFNode], _ r: TIFFStructureReader) -> Bool {
        var clear = true
        func avoid(_ range: Range<Int>) { if range.overlaps(skipped) { clear = false } }
        func visit(_ node: TIFFNode) {
            let table = r.origin + node.offset
            // The table's entry count, read only from outside the skipped run.
            guard table >= 0, table + 2 <= r.bytes.count, !(table..<(table + 2)).overlaps(skipped) else {
                clear = false
                return
            }
            avoid(table..<(table + 2 + 12 * Int(r.u16(table)) + 4))
            for entry in node.entries.values where entry.byteCount > 4 { avoid(entry.position..<(entry.position + entry.byteCount)) }
            if node.offset != rawIFD.offset {
                for (offsetTag, countTag) in [
                    (TIFFTagID.stripOffsets, TIFFTagID.stripByteCounts), (.tileOffsets, .tileByteCounts),
                    (.jpegInterchangeFormat, .jpegInterchangeFormatLength),
                ] {
                    guard let offsets = node.uints(offsetTag, in: r), let counts = node.uints(countTag, in: r) else { continue }
                    for (o, c) in zip(offsets, counts) { avoid((r.origin + Int(o))..<(r.origin + Int(o) + Int(c))) }
                }
            }
            for kids in node.children.values { kids.forEach(visit) }
        }
        tree.forEach(visit)
        return clear
    }
}
