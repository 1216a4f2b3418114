import DaguerreCore

/// Where the accordion's rows come from at one time (see ``AccordionFoldTransition``).
struct AccordionFold: Sendable, CustomStringConvertible {
    /// The first row of the flat bottom part, and of the folded band above it.
    let flatTop: Double
    let foldTop: Double
    /// The image's top edge and the folded part's height in the image (H) and on screen (h).
    let imageTop: Double
    let folded: Double
    let height: Double
    /// The height of one panel on screen, and the darkening of the panels facing away.
    let panel: Double
    let dark: Float

    init(extent e: Rect, bottomHeight: Double, folds: Int, shadow: Double, time: Double) {
        let bottom = min(max(bottomHeight, 0), e.height)
        folded = e.height - bottom
        height = folded * (1 - time)
        flatTop = e.maxY - bottom
        foldTop = flatTop - height
        imageTop = e.minY
        panel = height / Double(2 * max(folds, 1))
        let c = 1 - time
        dark = Float(1 - shadow * (1 - c * c).squareRoot())
    }

    /// The image row (as a coordinate) that screen coordinate y shows: the folded band stretched
    /// back to its full height, the flat part unmoved, and the band's top above it.
    @inline(__always) func source(_ y: Double) -> Double {
        if y >= flatTop { return y }
        if y <= foldTop || height <= 0 { return imageTop }
        return imageTop + (y - foldTop) * folded / height
    }

    /// The factor for a row of the folded band: 1 on the panels facing the viewer, the darkening
    /// on every second panel (alpha kept).
    @inline(__always) func shade(_ y: Double) -> SIMD4<Float> {
        let k = panel > 0 ? Int(((y - foldTop) / panel).rounded(.down)) : 0
        return k % 2 == 1 ? SIMD4(dark, dark, dark, 1) : SIMD4(repeating: 1)
    }

    var numbers: [Double] { [flatTop, foldTop, imageTop, folded, height, panel, Double(dark)] }
    var description: String { numbers.map { String(format: "%.6g", $0) }.joined(separator: " ") }
}
