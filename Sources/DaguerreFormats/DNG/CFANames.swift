// How DNG's CFA colour codes read in messages (DNG 1.4, CFAPlaneColor), for refusals that name a
// layout (SPEC X6).
/// Names for CFA colours in messages: DNG's CFAPlaneColor codes (0 red, 1 green, 2 blue,
/// 3 cyan, 4 magenta, 5 yellow, 6 white).
///
/// ```swift
/// CFANames.describe([3, 5, 1, 4])    // "cyan, yellow, green, magenta"
/// ```
enum CFANames {
    static func name(_ code: UInt8) -> String {
        ["red", "green", "blue", "cyan", "magenta", "yellow", "white"].indices.contains(Int(code))
            ? ["red", "green", "blue", "cyan", "magenta", "yellow", "white"][Int(code)] : "colour \(code)"
    }

    /// A pattern's colours in order (the first 8, then an ellipsis).
    static func describe(_ cfa: [UInt8]) -> String {
        guard !cfa.isEmpty else { return "(no CFAPattern)" }
        return cfa.prefix(8).map(name).joined(separator: ", ") + (cfa.count > 8 ? ", …" : "")
    }

    /// The distinct colours of CFAPlaneColor.
    static func colours(_ planes: [UInt8]) -> String { planes.map(name).joined(separator: ", ") }
}
