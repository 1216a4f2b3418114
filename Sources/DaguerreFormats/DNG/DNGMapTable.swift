// The MapTable opcode (DNG 1.4 §7, opcode 7): a lookup table applied to each sample of an area,
// as a tone curve or linearization after the black and white levels (SPEC R6, X6).
import DaguerreCore

/// A table of 16-bit outputs indexed by 16-bit inputs; inputs past its end take the last entry.
/// On normalized samples the table is read with linear interpolation, as the DNG SDK does for
/// floating-point images.
///
/// ```swift
/// let curve = DNGMapTable(area: DNGOpcodeArea(top: 0, left: 0, bottom: h, right: w), table: [0, 30000, 65535])
/// curve.apply(to: &normalized, width: w, height: h, channels: 3)
/// ```
public struct DNGMapTable: Sendable, Equatable {
    public var area: DNGOpcodeArea
    public var table: [UInt16]

    public init(area: DNGOpcodeArea, table: [UInt16]) {
        self.area = area
        self.table = table
    }

    init(parsing params: [UInt8]) throws(DaguerreError) {
        var r = ByteReader(params, truncated: "DNG MapTable")
        area = try DNGOpcodeArea(reading: &r)
        let size = Int(try r.u32())
        guard (1...65536).contains(size) else {
            throw .corruptData(format: "DNG MapTable", detail: "its table has \(size) entries (1 to 65536)", path: nil)
        }
        var t: [UInt16] = []
        t.reserveCapacity(size)
        for _ in 0..<size { t.append(try r.u16()) }
        table = t
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter()
        area.encode(into: &w)
        w.u32(UInt32(table.count))
        table.forEach { w.u16($0) }
        return w.bytes
    }

    /// The table at normalized input `x` (0...1 spans entries 0...65535), normalized.
    public func value(at x: Double) -> Double {
        guard !table.isEmpty else { return x }
        let f = min(max(x, 0), 1) * 65535
        let i = Int(f)
        let t = f - Double(i)
        func at(_ k: Int) -> Double { Double(table[min(k, table.count - 1)]) }
        return (at(i) + (at(i + 1) - at(i)) * t) / 65535
    }

    /// Maps the area of `pixels` (normalized samples, `channels` interleaved); with `rows`,
    /// `pixels` holds only those rows of the `height`-row image.
    public func apply(
        to pixels: inout [Float], width: Int, height: Int, channels: Int = 1, rows: Range<Int>? = nil, columns: Range<Int>? = nil
    ) {
        guard pixels.count >= (columns?.count ?? width) * (rows?.count ?? height) * channels else { return }
        area.forEachSample(width: width, height: height, channels: channels, rows: rows, columns: columns) { i, _ in
            pixels[i] = Float(value(at: Double(pixels[i])))
        }
    }
}
