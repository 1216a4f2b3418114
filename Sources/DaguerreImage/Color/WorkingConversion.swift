import DaguerreCore

/// How pixels in a colour space relate to the working space (I2): the transfer curve, the 3×3
/// matrix in the direction asked, and, for LUT-based ICC profiles that have no analytic form,
/// the profile lcms2 runs (to or from linear sRGB, which the matrix then bridges).
///
/// Sources, outputs and explicit colour matches all build their conversion from this one rule;
/// each decides for itself what a missing matrix means (an error, or no conversion).
///
/// ```swift
/// let plan = WorkingConversion(space: .displayP3, working: .extendedLinearSRGB, direction: .toWorking)
/// plan.transfer   // .sRGB
/// ```
struct WorkingConversion {
    enum Direction: Sendable { case toWorking, fromWorking }

    let transfer: TransferFunction
    /// nil for grey spaces (achromatic: (l, l, l) is the same grey in every D65 RGB space) and
    /// when the working space has no RGB matrix.
    let matrix: Matrix3?
    /// The profile lcms2 must run, for `.icc` spaces.
    let profile: ICCProfile?

    init(space: ColorSpace, working: ColorSpace, direction: Direction) {
        func matrix(_ other: ColorSpace) -> Matrix3? {
            direction == .toWorking ? other.linearMatrix(to: working) : working.linearMatrix(to: other)
        }
        switch space.model {
        case .rgb(_, let t):
            transfer = t
            self.matrix = matrix(space)
            profile = nil
        case .gray(let t):
            transfer = t
            self.matrix = nil
            profile = nil
        case .icc(let p):
            transfer = .linear
            self.matrix = matrix(.extendedLinearSRGB)
            profile = p
        }
    }
}
