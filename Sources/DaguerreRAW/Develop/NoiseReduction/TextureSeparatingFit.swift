// The noise a raw file's photosites carry, told apart from fine scene texture that looks like
// it (SPEC X3: noise reduction from an estimate when the DNG has no NoiseProfile). The flattest
// blocks of a photograph still hold texture at the finest scale: film grain in a scan, foliage,
// fabric. Where its variance grows with the square of the level, as the photo-response
// non-uniformity term of the EMVA 1288 sensor model does, and the sensor's temporal noise grows
// with the level itself (shot noise) from a floor (read noise), fitting the three terms and
// keeping only the temporal two reduces how much texture noise reduction smooths away at low
// noise. A sensor's own photo-response non-uniformity has the same form, so it is left as it is
// too. Our own code: a three-term non-negative least squares over a dozen bins, for which no
// Debian library is worth a dependency.

/// The bins' variances fitted as σ² = S·x + O + T·x², each term non-negative, weighted by
/// count/σ² squared (each bin's relative error, ``NoiseEstimator/weight(count:variance:floor:)``);
/// the noise is S·x + O.
///
/// The fit tries every subset of the three terms that holds T, solves its weighted least
/// squares (columns scaled to unit diagonal; a pivot under 1e-12 of the largest is singular),
/// and takes the one with the least residual among those whose terms are all non-negative. It
/// is kept only when it explains enough more than the two-term fit of versions 1 to 5
/// (``NoiseEstimator/fit(bins:)``), which is the result otherwise: for the bins of white noise,
/// the weighted residual times 8 (a bin's variance is a mean of `count` blocks' means of 16
/// squared Haar coefficients: relative variance 2/(16·count)) follows a χ² law, and T must
/// lower it by more than ``significance`` (χ² of one degree of freedom at p = 0.001). A
/// sensor's noise alone, with no texture at the finest scale, so keeps the two-term fit 999
/// times in 1 000. ``NoiseEstimator`` then uses the separated fits only where the planes agree
/// on the noise (``NoiseEstimator/agree(_:)``).
///
/// ```swift
/// let fit = TextureSeparatingFit(bins: NoiseEstimator.bins(blocks))
/// fit.noise.sigma(at: 0.18)     // the temporal noise at 18 % grey
/// fit.texture                    // T: the texture's variance per unit of x²
/// ```
struct TextureSeparatingFit: Sendable, Equatable {
    /// The temporal noise, S·x + O.
    var noise: NoiseModel
    /// T, the fine texture's variance over x².
    var texture: Double

    /// χ² of one degree of freedom at p = 0.001: the least fall in 8 × the weighted residual for
    /// which the texture term is kept.
    static let significance = 10.83

    init(bins: [NoiseEstimator.Bin]) {
        let usable = bins.filter { $0.variance.isFinite && $0.level.isFinite && $0.count > 0 }
        guard !usable.isEmpty else {
            (noise, texture) = (.zero, 0)
            return
        }
        let floor = NoiseEstimator.weightFloor(usable.map(\.variance))
        let rows = usable.map { bin in
            (x: bin.level, v: bin.variance, w: NoiseEstimator.weight(count: bin.count, variance: bin.variance, floor: floor))
        }
        func residual(_ model: NoiseModel, texture: Double) -> Double {
            rows.reduce(0) { sum, row in
                let r = row.v - (model.scale * row.x + model.offset + texture * row.x * row.x)
                return sum + row.w * r * r
            }
        }
        // The weighted least squares of the terms `terms` (0 S, 1 O, 2 T), nil unless every
        // coefficient comes out finite and non-negative.
        func solve(_ terms: [Int]) -> (model: NoiseModel, texture: Double, residual: Double)? {
            func column(_ term: Int, _ x: Double) -> Double { term == 0 ? x : term == 1 ? 1 : x * x }
            let n = terms.count
            var a = [Double](repeating: 0, count: n * n)
            var b = [Double](repeating: 0, count: n)
            for row in rows {
                for i in 0..<n {
                    let ci = column(terms[i], row.x)
                    b[i] += row.w * ci * row.v
                    for j in 0..<n { a[i * n + j] += row.w * ci * column(terms[j], row.x) }
                }
            }
            guard let c = Self.solveSymmetric(a, b, n), c.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
            var k = [0.0, 0.0, 0.0]
            for (i, term) in terms.enumerated() { k[term] = c[i] }
            let model = NoiseModel(scale: k[0], offset: k[1])
            return (model, k[2], residual(model, texture: k[2]))
        }
        // Without the texture term: the two-term fit, as versions 1 to 5 make it.
        let temporal = NoiseEstimator.fit(bins: usable)
        let textured = [[0, 1, 2], [0, 2], [1, 2], [2]].filter { $0.count <= rows.count }.compactMap(solve)
            .min { $0.residual < $1.residual }
        guard let textured, 8 * (residual(temporal, texture: 0) - textured.residual) > Self.significance else {
            (noise, texture) = (temporal, 0)
            return
        }
        (noise, texture) = (textured.model, textured.texture)
    }

    /// The solution of the n×n symmetric system a·c = b, or nil when it is singular: the columns
    /// are scaled to a unit diagonal (the terms' sums span dozens of orders of magnitude), then
    /// Gaussian elimination with partial pivoting, a pivot under 1e-12 counting as zero.
    static func solveSymmetric(_ a: [Double], _ b: [Double], _ n: Int) -> [Double]? {
        guard n > 0, a.count == n * n, b.count == n else { return nil }
        let scale = (0..<n).map { i in a[i * n + i] > 0 && a[i * n + i].isFinite ? 1 / a[i * n + i].squareRoot() : 0 }
        guard scale.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
        var m = [Double](repeating: 0, count: n * n)
        var r = [Double](repeating: 0, count: n)
        for i in 0..<n {
            r[i] = b[i] * scale[i]
            for j in 0..<n { m[i * n + j] = a[i * n + j] * scale[i] * scale[j] }
        }
        for k in 0..<n {
            guard let p = (k..<n).max(by: { abs(m[$0 * n + k]) < abs(m[$1 * n + k]) }), abs(m[p * n + k]) > 1e-12 else { return nil }
            if p != k {
                for j in 0..<n { m.swapAt(k * n + j, p * n + j) }
                r.swapAt(k, p)
            }
            for i in (k + 1)..<n {
                let f = m[i * n + k] / m[k * n + k]
                for j in k..<n { m[i * n + j] -= f * m[k * n + j] }
                r[i] -= f * r[k]
            }
        }
        var c = [Double](repeating: 0, count: n)
        for k in stride(from: n - 1, through: 0, by: -1) {
            var s = r[k]
            for j in (k + 1)..<n { s -= m[k * n + j] * c[j] }
            c[k] = s / m[k * n + k]
        }
        return zip(c, scale).map { $0 * $1 }
    }
}
