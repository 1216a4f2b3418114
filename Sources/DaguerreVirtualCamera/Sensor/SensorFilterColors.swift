// The colour filter over each photosite of the simulated sensor (SPEC R1, X6): a 2×2 Bayer
// block or Fujifilm's 6×6 X-Trans block, repeated.
import DaguerreCore

/// Which colour (0 red, 1 green, 2 blue) each photosite of a sensor reads: its filter array's
/// repeating block, row-major.
///
/// ```swift
/// let bayer = SensorFilterColors(pattern: .rggb, xTrans: nil)
/// bayer.color(x: 1, y: 0)                 // 1 (green)
/// SensorFilterColors(pattern: .rggb, xTrans: .standard).period   // 6
/// ```
public struct SensorFilterColors: Sendable, Equatable {
    /// The side of the repeating block: 2 (Bayer) or 6 (X-Trans).
    public let period: Int
    /// The block's colours, row-major.
    public let colors: [Int]

    /// The X-Trans block when there is one, else the Bayer pattern's 2×2 block.
    public init(pattern: BayerPattern, xTrans: XTransPattern?) {
        if let xTrans {
            period = 6
            colors = xTrans.cfaPattern.map(Int.init)
        } else {
            period = 2
            colors = pattern.cfaPattern.map(Int.init)
        }
    }

    /// The colour read at photosite (x, y) (both ≥ 0).
    @inline(__always) public func color(x: Int, y: Int) -> Int { colors[(y % period) * period + x % period] }
}
