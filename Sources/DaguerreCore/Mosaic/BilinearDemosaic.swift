// The bilinear demosaic (SPEC X2's fast method; the virtual camera's video path, C4): each
// missing colour is the mean of its nearest photosites of that colour in the 3×3 around it.
// One row kernel for the RAW develop's draft and version-1 paths and the video ISP. Our own
// code: a few additions per photosite, fused with the callers' own linearization.

/// What one CFA position is, for the bilinear demosaic.
///
/// ```swift
/// let site = BilinearSite(pattern: .rggb, x: 1, y: 0)      // .greenInRedRow
/// ```
package enum BilinearSite: Sendable, Equatable {
    case red, blue
    /// A green photosite with red to its left and right (blue above and below).
    case greenInRedRow
    /// A green photosite with blue to its left and right (red above and below).
    case greenInBlueRow

    package init(pattern: BayerPattern, x: Int, y: Int) {
        switch pattern.color(x: x, y: y) {
        case 0: self = .red
        case 2: self = .blue
        default: self = pattern.color(x: x + 1, y: y) == 0 ? .greenInRedRow : .greenInBlueRow
        }
    }
}

/// Interpolates one mosaic row into red, green and blue planes.
///
/// `up`, `mid` and `down` are the row above, the row and the row below, linearized, at the
/// row segment's first column, each readable from index −1 to `count` (the caller pads or
/// mirrors the edges). `first` and `second` are the sites of the segment's even and odd columns.
/// A photosite keeps its own value; a green's red and blue are the means of its two row and
/// two column neighbours; a red's or blue's green is the mean of its four row and column
/// neighbours (left, right, up, down, added in that order), and its blue or red the mean of its
/// four diagonal ones.
///
/// ```swift
/// BilinearDemosaic.row(up: u + 1, mid: m + 1, down: d + 1, count: w, first: .red, second: .greenInRedRow,
///                      red: r, green: g, blue: b)
/// ```
package enum BilinearDemosaic {
    package static func row(
        up: UnsafePointer<Float>, mid: UnsafePointer<Float>, down: UnsafePointer<Float>, count: Int,
        first: BilinearSite, second: BilinearSite,
        red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>, blue: UnsafeMutablePointer<Float>
    ) {
        // One simple loop per CFA position of the row, so each vectorizes.
        for (parity, site) in [(0, first), (1, second)] {
            var x = parity
            switch site {
            case .red, .blue:
                let own = site == .red ? red : blue
                let other = site == .red ? blue : red
                while x < count {
                    own[x] = mid[x]
                    green[x] = (mid[x - 1] + mid[x + 1] + up[x] + down[x]) * 0.25
                    other[x] = (up[x - 1] + up[x + 1] + down[x - 1] + down[x + 1]) * 0.25
                    x += 2
                }
            case .greenInRedRow, .greenInBlueRow:
                let inRow = site == .greenInRedRow ? red : blue
                let inColumn = site == .greenInRedRow ? blue : red
                while x < count {
                    green[x] = mid[x]
                    inRow[x] = (mid[x - 1] + mid[x + 1]) * 0.5
                    inColumn[x] = (up[x] + down[x]) * 0.5
                    x += 2
                }
            }
        }
    }
}
