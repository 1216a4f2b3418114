// DNG opcode lists (DNG 1.4 §7): parsed into typed opcodes; GainMap, WarpRectilinear, MapTable
// and MapPolynomial can be applied, the rest are handed over as they are (SPEC R6).
import DaguerreCore

/// Which processing stage an opcode list belongs to.
public enum DNGOpcodeStage: Int, Sendable, Equatable {
    /// OpcodeList1: on the raw data as read.
    case raw = 1
    /// OpcodeList2: after linearization (black/white mapping), before demosaic.
    case linearized = 2
    /// OpcodeList3: after demosaic.
    case demosaiced = 3

    var tag: TIFFTagID {
        switch self {
        case .raw: .opcodeList1
        case .linearized: .opcodeList2
        case .demosaiced: .opcodeList3
        }
    }
}

/// One opcode list.
///
/// ```swift
/// for list in dng.opcodeLists where list.stage == .linearized {
///     for op in list.opcodes where !op.apply(to: &plane, width: w, height: h, channels: 1) { print("not applied:", op.name) }
/// }
/// ```
public struct DNGOpcodeList: Sendable, Equatable {
    public var stage: DNGOpcodeStage
    public var opcodes: [DNGOpcode]
    /// Each opcode's flags word as read (bit 0 optional, bit 1 skippable for previews), so a
    /// list read from a file is written back with them; opcodes past its end (added by the
    /// caller) get 0, or `.other`'s own optional flag.
    public var flags: [UInt32] = []
    public init(stage: DNGOpcodeStage, opcodes: [DNGOpcode]) {
        self.stage = stage
        self.opcodes = opcodes
    }

    /// Opcode lists are always big-endian, whatever the file's byte order (DNG 1.4 §7).
    public init(stage: DNGOpcodeStage, parsing b: [UInt8]) throws(DaguerreError) {
        self.stage = stage
        var r = ByteReader(b, truncated: "DNG opcode list")
        let count = Int(try r.u32())
        guard count <= 4096 else { throw .corruptData(format: "DNG opcode list", detail: "it claims \(count) opcodes", path: nil) }
        var ops: [DNGOpcode] = []
        for _ in 0..<count {
            let id = try r.u32()
            let version = try r.u32()
            let flags = try r.u32()
            let size = Int(try r.u32())
            let params = try r.read(size)
            let optional = flags & 1 != 0
            self.flags.append(flags)
            switch id {
            case 9: ops.append(.gainMap(try DNGGainMap(parsing: params)))
            case 1: ops.append(.warpRectilinear(try DNGWarpRectilinear(parsing: params)))
            case 7: ops.append(.mapTable(try DNGMapTable(parsing: params)))
            case 8: ops.append(.mapPolynomial(try DNGMapPolynomial(parsing: params)))
            default: ops.append(.other(id: id, dngVersion: version, optional: optional, parameters: params))
            }
        }
        opcodes = ops
    }

    /// The list's bytes (for writing).
    public func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.u32(UInt32(opcodes.count))
        for (i, op) in opcodes.enumerated() {
            // The typed opcodes all date from DNG 1.3 (Table 7-1); others keep the version read.
            let (id, params, version): (UInt32, [UInt8], UInt32) =
                switch op {
                case .gainMap(let g): (9, g.encoded(), 0x0103_0000)
                case .warpRectilinear(let wr): (1, wr.encoded(), 0x0103_0000)
                case .mapTable(let t): (7, t.encoded(), 0x0103_0000)
                case .mapPolynomial(let p): (8, p.encoded(), 0x0103_0000)
                case .other(let id, let v, _, let p): (id, p, v)
                }
            w.u32(id)
            w.u32(version)
            w.u32(flags(at: i))
            w.u32(UInt32(params.count))
            w.append(params)
        }
        return w.bytes
    }

    /// The flags word written for opcode `i`.
    public func flags(at i: Int) -> UInt32 {
        if i < flags.count { return flags[i] }
        if i < opcodes.count, case .other(_, _, let optional, _) = opcodes[i] { return optional ? 1 : 0 }
        return 0
    }

    /// Lists are equal when they write the same opcodes with the same flags.
    public static func == (a: Self, b: Self) -> Bool {
        a.stage == b.stage && a.opcodes == b.opcodes && a.opcodes.indices.allSatisfy { a.flags(at: $0) == b.flags(at: $0) }
    }
}

/// A parsed opcode.
public enum DNGOpcode: Sendable, Equatable {
    case gainMap(DNGGainMap)
    case warpRectilinear(DNGWarpRectilinear)
    case mapTable(DNGMapTable)
    case mapPolynomial(DNGMapPolynomial)
    /// Any other opcode, with its raw parameters (its id names it: DNG 1.4 Table 7-1).
    case other(id: UInt32, dngVersion: UInt32, optional: Bool, parameters: [UInt8])

    /// Applies the opcode to `pixels` (normalized samples, `channels` interleaved). Returns
    /// false, leaving them as they are, for opcodes handed over unapplied (`.other`).
    /// With `rows` and `columns`, `pixels` holds only that band and window of the image (a
    /// streaming develop); the warp, which moves pixels between rows and columns, is not
    /// applied to a part of the image (false).
    @discardableResult
    public func apply(to pixels: inout [Float], width: Int, height: Int, channels: Int, rows: Range<Int>? = nil, columns: Range<Int>? = nil)
        -> Bool
    {
        switch self {
        case .gainMap(let g): g.apply(to: &pixels, width: width, height: height, channels: channels, rows: rows, columns: columns)
        case .warpRectilinear(let w):
            guard rows == nil || rows == 0..<height, columns == nil || columns == 0..<width else { return false }
            pixels = w.apply(to: pixels, width: width, height: height, channels: channels)
        case .mapTable(let t): t.apply(to: &pixels, width: width, height: height, channels: channels, rows: rows, columns: columns)
        case .mapPolynomial(let m): m.apply(to: &pixels, width: width, height: height, channels: channels, rows: rows, columns: columns)
        case .other: return false
        }
        return true
    }

    public var name: String {
        switch self {
        case .gainMap: return "GainMap"
        case .warpRectilinear: return "WarpRectilinear"
        case .mapTable: return "MapTable"
        case .mapPolynomial: return "MapPolynomial"
        case .other(let id, _, _, _):
            let names: [UInt32: String] = [
                2: "WarpFisheye", 3: "FixVignetteRadial", 4: "FixBadPixelsConstant", 5: "FixBadPixelsList",
                6: "TrimBounds", 10: "DeltaPerRow", 11: "DeltaPerColumn",
                12: "ScalePerRow", 13: "ScalePerColumn",
            ]
            return names[id] ?? "Opcode\(id)"
        }
    }
}
