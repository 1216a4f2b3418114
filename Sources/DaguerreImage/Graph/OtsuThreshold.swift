/// Otsu's method (SPEC I4; ColorThresholdOtsu): the threshold that best splits a histogram of
/// values on [0, 1] into two classes, the one maximising the between-class variance
/// w₀·w₁·(μ₀ − μ₁)² over the splits between neighbouring bins. The threshold is the centre of the
/// last bin of the lower class (the first of equals), as scikit-image's `threshold_otsu` gives it.
///
/// ```swift
/// let t = OtsuThreshold.threshold(counts)   // counts: 256 bins over [0, 1]
/// ```
enum OtsuThreshold {
    static let bins = 256

    static func threshold(_ counts: [Double]) -> Double {
        let n = counts.count
        guard n > 1 else { return 0.5 }
        let centres = (0..<n).map { (Double($0) + 0.5) / Double(n) }
        var best = 0
        var bestVariance = -Double.infinity
        // Running totals of the lower class; the upper class is what remains.
        let total = counts.reduce(0, +)
        let totalMoment = zip(counts, centres).reduce(0) { $0 + $1.0 * $1.1 }
        var weight = 0.0
        var moment = 0.0
        for k in 0..<(n - 1) {
            weight += counts[k]
            moment += counts[k] * centres[k]
            let upper = total - weight
            guard weight > 0, upper > 0 else { continue }
            let difference = moment / weight - (totalMoment - moment) / upper
            let variance = weight * upper * difference * difference
            if variance > bestVariance {
                bestVariance = variance
                best = k
            }
        }
        return centres[best]
    }
}
