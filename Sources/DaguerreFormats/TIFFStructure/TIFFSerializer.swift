// Lays out IFD chains with their values, children and data: the TIFF 6.0 §2 structure, by hand
// (see TIFFValue.swift for why this layer is ours rather than libtiff's).

/// Turns ``TIFFDirectory`` values into bytes.
///
/// Each IFD is written as its entry table, then its out-of-line values (word aligned), then its
/// data blocks, then its children; pointers are patched once their targets are placed. Entries
/// are sorted by tag, as TIFF requires. Offsets are relative to `origin`: the TIFF header for a
/// file or an EXIF block, the MakerNote's first byte for an Apple MakerNote.
///
/// ```swift
/// let tiff = TIFFSerializer.file([ifd0, ifd1], byteOrder: .bigEndian)       // "MM\0*" ...
/// let body = TIFFSerializer.directories([note], byteOrder: .bigEndian, startOffset: 14)
/// ```
public enum TIFFSerializer {
    /// A complete TIFF stream: the 8-byte header, then the chain `directories` (IFD0, IFD1, ...).
    public static func file(_ directories: [TIFFDirectory], byteOrder: TIFFByteOrder) -> [UInt8] {
        var w = Writer(order: byteOrder, origin: 0)
        w.bytes += byteOrder == .bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        w.bytes += [0, 0, 0, 0]
        let first = w.chain(directories)
        w.patch32(at: 4, first)
        return w.bytes
    }

    /// A chain of directories with no header, whose offsets count from `startOffset` bytes
    /// before the first byte returned (for MakerNotes whose offsets are relative to their start).
    public static func directories(_ directories: [TIFFDirectory], byteOrder: TIFFByteOrder, startOffset: Int) -> [UInt8] {
        var w = Writer(order: byteOrder, origin: startOffset)
        _ = w.chain(directories)
        return w.bytes
    }

    struct Writer {
        let order: TIFFByteOrder
        let origin: Int
        var bytes: [UInt8] = []

        init(order: TIFFByteOrder, origin: Int) {
            self.order = order
            self.origin = origin
        }

        var offset: Int { bytes.count + origin }

        mutating func alignWord() { if bytes.count & 1 == 1 { bytes.append(0) } }

        mutating func put16(_ v: UInt16) { bytes += TIFFValue.shorts([v]).encoded(order) }
        mutating func put32(_ v: UInt32) { bytes += TIFFValue.longs([v]).encoded(order) }
        mutating func patch32(at position: Int, _ v: UInt32) {
            let e = TIFFValue.longs([v]).encoded(order)
            for i in 0..<4 { bytes[position + i] = e[i] }
        }

        /// Writes a chain and links each IFD's next pointer; returns the first IFD's offset.
        mutating func chain(_ directories: [TIFFDirectory]) -> UInt32 {
            var first: UInt32 = 0
            var previousNext: Int?
            for directory in directories {
                let (at, nextField) = write(directory)
                if let p = previousNext { patch32(at: p, at) } else { first = at }
                previousNext = nextField
            }
            return first
        }

        /// Where a value that may not fit in the entry must be patched once placed.
        private enum Pending {
            case value(entry: Int, bytes: [UInt8])
            case children(entry: Int, tag: TIFFTagID)
            case dataOffsets(entry: Int)
        }

        /// Writes one IFD and everything it owns; returns its offset and the position of its
        /// next-IFD field.
        mutating func write(_ d: TIFFDirectory) -> (UInt32, Int) {
            // The full entry list: fields, child pointers, data offsets and counts.
            var entries: [(tag: TIFFTagID, type: TIFFFieldType, count: Int, kind: Int, payload: [UInt8])] = []
            for (tag, value) in d.fields where d.children[tag] == nil && d.data?.offsetsTag != tag && d.data?.countsTag != tag {
                entries.append((tag, value.type, value.count, 0, value.encoded(order)))
            }
            for (tag, kids) in d.children where !kids.isEmpty {
                entries.append((tag, .long, kids.count, 1, []))
            }
            if let data = d.data {
                let counts = data.chunks.map { UInt32(truncatingIfNeeded: $0.count) }
                entries.append((data.offsetsTag, .long, data.chunks.count, 2, []))
                entries.append((data.countsTag, .long, counts.count, 0, TIFFValue.longs(counts).encoded(order)))
            }
            entries.sort { $0.tag < $1.tag }

            alignWord()
            let at = UInt32(truncatingIfNeeded: offset)
            put16(UInt16(entries.count))
            var pending: [Pending] = []
            for e in entries {
                let position = bytes.count
                put16(e.tag.rawValue)
                put16(e.type.rawValue)
                put32(UInt32(truncatingIfNeeded: e.count))
                let size = e.count * e.type.size
                switch e.kind {
                case 1:
                    pending.append(.children(entry: position + 8, tag: e.tag))
                    bytes += [0, 0, 0, 0]
                case 2:
                    pending.append(.dataOffsets(entry: position + 8))
                    bytes += [0, 0, 0, 0]
                default:
                    if size <= 4 {
                        bytes += e.payload + [UInt8](repeating: 0, count: 4 - size)
                    } else {
                        pending.append(.value(entry: position + 8, bytes: e.payload))
                        bytes += [0, 0, 0, 0]
                    }
                }
            }
            let nextField = bytes.count
            put32(0)

            // Out-of-line values, then data blocks, then children.
            var dataOffsetsEntry: Int?
            var childEntries: [(Int, TIFFTagID)] = []
            for p in pending {
                switch p {
                case .value(let entry, let payload):
                    alignWord()
                    patch32(at: entry, UInt32(truncatingIfNeeded: offset))
                    bytes += payload
                case .children(let entry, let tag): childEntries.append((entry, tag))
                case .dataOffsets(let entry): dataOffsetsEntry = entry
                }
            }
            if let data = d.data, let entry = dataOffsetsEntry {
                var offsets: [UInt32] = []
                // The offsets array itself, when it does not fit in the entry.
                var arrayAt: Int?
                if data.chunks.count > 1 {
                    alignWord()
                    patch32(at: entry, UInt32(truncatingIfNeeded: offset))
                    arrayAt = bytes.count
                    bytes += [UInt8](repeating: 0, count: 4 * data.chunks.count)
                }
                let total = data.chunks.reduce(0) { $0 + $1.count + 1 }
                bytes.reserveCapacity(bytes.count + total)
                for chunk in data.chunks {
                    alignWord()
                    offsets.append(UInt32(truncatingIfNeeded: offset))
                    bytes += chunk
                }
                if let a = arrayAt {
                    for (i, o) in offsets.enumerated() { patch32(at: a + 4 * i, o) }
                } else if let o = offsets.first {
                    patch32(at: entry, o)
                }
            }
            for (entry, tag) in childEntries {
                let kids = d.children[tag] ?? []
                var kidOffsets: [UInt32] = []
                for kid in kids { kidOffsets.append(write(kid).0) }
                if kidOffsets.count == 1 {
                    patch32(at: entry, kidOffsets[0])
                } else {
                    alignWord()
                    patch32(at: entry, UInt32(truncatingIfNeeded: offset))
                    kidOffsets.forEach { put32($0) }
                }
            }
            return (at, nextField)
        }
    }
}
