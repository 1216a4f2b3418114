// Lens shading per photosite (SPEC X3, DNG 1.4 §7 GainMap, pipeline versions 3 and later): the
// factors OpcodeList2's gain maps give one sensor row, for the develop paths that multiply each
// photosite they read (the draft paths; the full develop shades its noise-reduction window).
import DaguerreCore
import DaguerreFormats

/// The gain maps' factors for a row of photosites.
///
/// ```swift
/// let f = LensShading.factors(maps, area: activeArea, row: 120, columns: 0..<4032)   // nil without maps
/// ```
enum LensShading {
    /// The factors for sensor row `y`, columns `columns` of a mosaic whose active area is
    /// `area` (1 where no map applies), or nil without maps.
    static func factors(_ maps: [DNGGainMap], area: IntRect, row y: Int, columns: Range<Int>) -> [Float]? {
        guard !maps.isEmpty else { return nil }
        var factors = [Float](repeating: 1, count: columns.count)
        factors.withUnsafeMutableBufferPointer { f in
            for map in maps {
                map.multiplyRow(
                    y - area.y, columns: (columns.lowerBound - area.x)..<(columns.upperBound - area.x),
                    width: area.width, height: area.height, into: f.baseAddress!)
            }
        }
        return factors
    }
}
