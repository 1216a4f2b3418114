// DNG opcode lists (DNG 1.4 §7): parsed into typed opcodes; GainMap and WarpRectilinear can be
// applied, the rest are handed over as they are (SPEC R6).
import DaguerreCore

/// Which processing stage an opcode list belongs to.
public enum DNGOpcodeStage: Int, Sendable, Equatable {
    /// OpcodeList1: on the raw data as read.
    case raw = 1
    /// OpcodeList2: after linearization (black/white mapping), before demosaic.
    case linearized = 2
    /// OpcodeList3: after demosaic.
    case demosaiced = 3

    var tag: TIFFTagID { switch self { case .raw: .opcodeList1; case .linearized: .opcodeList2; case .demosaiced: .opcodeList3 } }
}

/// One opcode list.
///
/// ```swift
/// for list in dng.opcodeLists where list.stage == .linearized {
///     for case let .gainMap(map) in list.opcodes { map.apply(to: &plane, width: w, height: h) }
/// }
/// ```
public struct DNGOpcodeList: Sendable, Equatable {
    public var stage: DNGOpcodeStage
    public var opcodes: [DNGOpcode]
    public init(stage: DNGOpcodeStage, opcodes: [DNGOpcode]) { self.stage = stage; self.opcodes = opcodes }

    /// Opcode lists are always big-endian, whatever the file's byte order (DNG 1.4 §7).
    public init(stage: DNGOpcodeStage, parsing b: [UInt8]) throws(DaguerreError) {
        self.stage = stage
        var r = BigEndianCursor(b, format: "DNG opcode list")
        let count = Int(try r.u32())
        guard count <= 4096 else { throw .corruptData(format: "DNG opcode list", detail: "it claims \(count) opcodes", path: nil) }
        var ops: [DNGOpcode] = []
        for _ in 0..<count {
            let id = try r.u32(), version = try r.u32(), flags = try r.u32(), size = Int(try r.u32())
            let params = try r.bytes(size)
            let optional = flags & 1 != 0
            switch id {
            case 9: ops.append(.gainMap(try DNGGainMap(parsing: params)))
            case 1: ops.append(.warpRectilinear(try DNGWarpRectilinear(parsing: params)))
            default: ops.append(.other(id: id, dngVersion: version, optional: optional, parameters: params))
            }
        }
        opcodes = ops
    }

    /// The list's bytes (for writing).
    public func encoded() -> [UInt8] {
        var w = BigEndianWriter()
        w.u32(UInt32(opcodes.count))
        for op in opcodes {
            let (id, params, optional): (UInt32, [UInt8], Bool) = switch op {
            case let .gainMap(g): (9, g.encoded(), false)
            case let .warpRectilinear(wr): (1, wr.encoded(), false)
            case let .other(id, _, opt, p): (id, p, opt)
            }
            w.u32(id); w.u32(0x0103_0000); w.u32(optional ? 1 : 0); w.u32(UInt32(params.count)); w.bytes += params
        }
        return w.bytes
    }
}

/// A parsed opcode.
public enum DNGOpcode: Sendable, Equatable {
    case gainMap(DNGGainMap)
    case warpRectilinear(DNGWarpRectilinear)
    /// Any other opcode, with its raw parameters (its id names it: DNG 1.4 Table 7-1).
    case other(id: UInt32, dngVersion: UInt32, optional: Bool, parameters: [UInt8])

    public var name: String {
        switch self {
        case .gainMap: return "GainMap"
        case .warpRectilinear: return "WarpRectilinear"
        case let .other(id, _, _, _):
            let names: [UInt32: String] = [2: "WarpFisheye", 3: "FixVignetteRadial", 4: "FixBadPixelsConstant", 5: "FixBadPixelsList",
                                           6: "TrimBounds", 7: "MapTable", 8: "MapPolynomial", 10: "DeltaPerRow", 11: "DeltaPerColumn",
                                           12: "ScalePerRow", 13: "ScalePerColumn"]
            return names[id] ?? "Opcode\(id)"
        }
    }
}

/// Reads big-endian values with bounds checks.
struct BigEndianCursor {
    let b: [UInt8]
    var p = 0
    let format: String
    init(_ b: [UInt8], format: String) { self.b = b; self.format = format }
    mutating func bytes(_ n: Int) throws(DaguerreError) -> [UInt8] {
        guard n >= 0, n <= b.count - p else { throw .truncated(format: format, path: nil) }
        defer { p += n }
        return Array(b[p..<p + n])
    }
    mutating func u32() throws(DaguerreError) -> UInt32 {
        let v = try bytes(4)
        return UInt32(v[0]) << 24 | UInt32(v[1]) << 16 | UInt32(v[2]) << 8 | UInt32(v[3])
    }
    mutating func f32() throws(DaguerreError) -> Float { Float(bitPattern: try u32()) }
    mutating func f64() throws(DaguerreError) -> Double {
        let hi = UInt64(try u32()), lo = UInt64(try u32())
        return Double(bitPattern: hi << 32 | lo)
    }
}

struct BigEndianWriter {
    var bytes: [UInt8] = []
    mutating func u32(_ v: UInt32) { bytes += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    mutating func f32(_ v: Float) { u32(v.bitPattern) }
    mutating func f64(_ v: Double) { u32(UInt32(v.bitPattern >> 32)); u32(UInt32(v.bitPattern & 0xFFFF_FFFF)) }
}
