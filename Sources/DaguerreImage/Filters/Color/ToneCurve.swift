import DaguerreCore

/// A tone curve through five points (CIToneCurve), on perceptual (sRGB-curve) values of each
/// channel. The curve is a monotone cubic (Fritsch–Carlson), so it never overshoots between
/// points. Outside the first and last points it holds their outputs, or with `extrapolate`
/// (Core Image's inputExtrapolate, for extended-range values) continues along its end slopes.
///
/// ```swift
/// let sCurve = try image.applying(ToneCurve(points: [[0, 0], [0.25, 0.2], [0.5, 0.5], [0.75, 0.8], [1, 1]]))
/// ```
public struct ToneCurve: Filter {
    public var inputImage: Image?
    public var point0: [Double] = [0, 0]
    public var point1: [Double] = [0.25, 0.25]
    public var point2: [Double] = [0.5, 0.5]
    public var point3: [Double] = [0.75, 0.75]
    public var point4: [Double] = [1, 1]
    public var extrapolate = false

    /// The five points as a list: setting fewer leaves the others, extra points are ignored.
    public var points: [[Double]] {
        get { Self.pointProperties.map { self[keyPath: $0] } }
        set { for (property, p) in zip(Self.pointProperties, newValue) { self[keyPath: property] = p } }
    }
    static let pointProperties: [WritableKeyPath<Self, [Double]> & Sendable] = [\.point0, \.point1, \.point2, \.point3, \.point4]

    public init() {}
    public init(inputImage: Image? = nil, points: [[Double]] = Self.defaults.points, extrapolate: Bool = Self.defaults.extrapolate) {
        self.inputImage = inputImage
        self.points = points
        self.extrapolate = extrapolate
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "ToneCurve", displayName: "Tone Curve", categories: [.colorAdjustment, .video, .stillImage, .builtIn],
        description: "Maps perceptual channel values through a smooth monotone curve through five points.",
        parameters: [.image(\.inputImage)]
            + pointProperties.enumerated().map { i, property in
                .offset(property, "inputPoint\(i)", "Curve point \(i) (input, output).", min: -10, max: 10)
            } + [
                .boolean(
                    \.extrapolate, "inputExtrapolate", "Continue the curve along its end slopes outside its points (else hold the ends).")
            ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let input = try required(\.inputImage)
        let pts = points.map { SIMD2($0[0], $0[1]) }
        for i in 1..<5 where pts[i].x <= pts[i - 1].x {
            throw Self.invalid(Self.pointProperties[i], "input values must increase from point to point")
        }
        // The identity curve (the default) changes nothing: no node at all.
        if pts.allSatisfy({ abs($0.x - $0.y) < 1e-12 }) { return input }
        let lut = MonotoneCubic(points: pts).table(count: 1024)
        let curve = PerceptualCurve.shared
        let x0 = Float(pts[0].x)
        let x1 = Float(pts[4].x)
        let slope0 = extrapolate ? Float((lut[1] - lut[0]) * 1023 / Double(x1 - x0)) : 0
        let slope1 = extrapolate ? Float((lut[1023] - lut[1022]) * 1023 / Double(x1 - x0)) : 0
        let table = FloatTable(lut.map(Float.init))
        return Image(
            PointwiseNode(
                name: "toneCurve", inputs: [input.node], extent: input.extent,
                parameters: pts.map { "(\($0.x), \($0.y))" }.joined(separator: " ") + (extrapolate ? " extrapolated" : ""),
                digest: { d in
                    for p in pts { d.add([p.x, p.y]) }
                    d.add(extrapolate ? 1 : 0)
                }
            ) { span in
                let tab = table.values
                let x0 = x0
                let x1 = x1
                let slope0 = slope0
                let slope1 = slope1
                @inline(__always) func f(_ e: Float) -> Float {
                    if !(e > x0) { return tab[0] + (e.isNaN ? 0 : e - x0) * slope0 }
                    if e >= x1 { return tab[1023] + (e - x1) * slope1 }
                    let t = (e - x0) / (x1 - x0) * 1023
                    let i = min(Int(t), 1022)
                    let w = t - Float(i)
                    return tab[i] + (tab[i + 1] - tab[i]) * w
                }
                SpanMath.forEachUnpremultiplied(span) { v in
                    let e = curve.encode(v)
                    return curve.decode(SIMD4(f(e.x), f(e.y), f(e.z), v.w))
                }
            })
    }
}

/// Fritsch–Carlson monotone cubic interpolation through increasing points.
struct MonotoneCubic {
    let xs: [Double], ys: [Double], m: [Double]
    init(points: [SIMD2<Double>]) {
        xs = points.map(\.x)
        ys = points.map(\.y)
        let n = xs.count
        var d = [Double](repeating: 0, count: n - 1)
        for i in 0..<(n - 1) { d[i] = (ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) }
        var m = [Double](repeating: 0, count: n)
        m[0] = d[0]
        m[n - 1] = d[n - 2]
        for i in 1..<(n - 1) { m[i] = d[i - 1] * d[i] <= 0 ? 0 : (d[i - 1] + d[i]) / 2 }
        for i in 0..<(n - 1) {
            if d[i] == 0 {
                m[i] = 0
                m[i + 1] = 0
                continue
            }
            let a = m[i] / d[i]
            let b = m[i + 1] / d[i]
            let s = a * a + b * b
            if s > 9 {
                let t = 3 / s.squareRoot()
                m[i] = t * a * d[i]
                m[i + 1] = t * b * d[i]
            }
        }
        self.m = m
    }
    func value(_ x: Double) -> Double {
        var i = 0
        while i < xs.count - 2 && x > xs[i + 1] { i += 1 }
        let h = xs[i + 1] - xs[i]
        let t = (x - xs[i]) / h
        let t2 = t * t
        let t3 = t2 * t
        return (2 * t3 - 3 * t2 + 1) * ys[i] + (t3 - 2 * t2 + t) * h * m[i] + (-2 * t3 + 3 * t2) * ys[i + 1] + (t3 - t2) * h * m[i + 1]
    }
    /// Samples over [x₀, x₄].
    func table(count: Int) -> [Double] {
        (0..<count).map { value(xs[0] + (xs[xs.count - 1] - xs[0]) * Double($0) / Double(count - 1)) }
    }
}
