import DaguerreCore

/// How a CompositeOperation filter combines its source (`inputImage`, W3C's Cs) with its
/// background (`inputBackgroundImage`, the backdrop Cb) (SPEC I4). Works on the working space's
/// premultiplied linear values, as Core Image's kernels do.
///
/// Blend modes follow W3C *Compositing and Blending Level 1*: with unpremultiplied colours
/// Cs = cs/αs and Cb = cb/αb (0 where α is 0) and a blend function B(Cb, Cs), the blended source
/// Cs' = (1 − αb)·Cs + αb·B(Cb, Cs) is composited source-over, which in premultiplied form is
///
///     co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs),   αo = αs + αb − αs·αb
///
/// over the union of the two extents. The separable B are W3C's (multiply … exclusion); the
/// non-separable ones (hue, saturation, color, luminosity) use W3C's Lum (0.3, 0.59, 0.11),
/// ClipColor, SetLum, Sat and SetSat. W3C does not define the Photoshop-style modes Core Image adds;
/// Apple describes them as a mix "blended with the background according to the PDF basic
/// compositing formula", so they use the same outer formula with these B (clamped to [0, 1] as
/// the common definitions are):
///
///     subtract     max(0, Cb − Cs)
///     divide       Cs > 0 ? min(1, Cb / Cs) : (Cb > 0 ? 1 : 0)
///     linear burn  max(0, Cb + Cs − 1)
///     linear dodge min(1, Cb + Cs)
///     pin light    Cs ≤ 0.5 ? min(Cb, 2·Cs) : max(Cb, 2·Cs − 1)
///     linear light clamp(Cb + 2·Cs − 1, 0, 1)
///     vivid light  Cs ≤ 0.5 ? ColorBurn(Cb, 2·Cs) : ColorDodge(Cb, 2·Cs − 1)   (W3C's burn and dodge)
///
/// Porter–Duff operators use co = Fa·cs + Fb·cb on all four premultiplied channels. The
/// component operators, which W3C does not define, act on all four premultiplied channels
/// with no source-over step (as `CIBlendKernel`'s componentAdd/Multiply/Max/Min are named):
/// addition cs + cb (alpha at most 1), multiply cs·cb, maximum max(cs, cb), minimum min(cs, cb).
enum BlendFormula: String, Sendable {
    // W3C separable blend modes
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight, difference, exclusion
    // W3C non-separable blend modes
    case hue, saturation, color, luminosity
    // Photoshop-style blend modes (same outer formula)
    case subtract, divide, linearBurn, linearDodge, pinLight, linearLight, vividLight
    // Porter–Duff operators
    case sourceIn, sourceOut, sourceAtop
    // Component operators
    case componentAdd, componentMultiply, componentMax, componentMin

    /// The extent of the result: where it can be other than transparent.
    func extent(source: Rect, background: Rect) -> Rect {
        switch self {
        case .sourceIn, .componentMultiply: source.intersection(background)
        case .sourceOut: source
        case .sourceAtop: background
        default: source.union(background)
        }
    }

    /// `source` combined with `background` by this formula.
    func composite(_ source: Image, over background: Image) -> Image {
        let formula = self
        return Image(
            PointwiseNode(
                name: rawValue, inputs: [source.node, background.node],
                extent: extent(source: source.extent, background: background.extent), digest: { $0.add(formula.rawValue) }
            ) { span in formula.apply(span) })
    }

    private func apply(_ span: PixelSpan) {
        switch self {
        case .multiply: Self.blend(span) { b, s in b * s }
        case .screen: Self.blend(span) { b, s in b + s - b * s }
        case .overlay: Self.blend(span) { b, s in Self.hardLight(s, b) }
        case .darken: Self.blend(span) { b, s in pointwiseMin(b, s) }
        case .lighten: Self.blend(span) { b, s in pointwiseMax(b, s) }
        case .colorDodge: Self.blend(span) { b, s in Self.perChannel(b, s, Self.colorDodge) }
        case .colorBurn: Self.blend(span) { b, s in Self.perChannel(b, s, Self.colorBurn) }
        case .hardLight: Self.blend(span) { b, s in Self.hardLight(b, s) }
        case .softLight: Self.blend(span) { b, s in Self.perChannel(b, s, Self.softLight) }
        case .difference: Self.blend(span) { b, s in pointwiseMax(b - s, s - b) }
        case .exclusion: Self.blend(span) { b, s in b + s - 2 * b * s }
        case .hue: Self.blend(span) { b, s in Self.setLum(Self.setSat(s, Self.sat(b)), Self.lum(b)) }
        case .saturation: Self.blend(span) { b, s in Self.setLum(Self.setSat(b, Self.sat(s)), Self.lum(b)) }
        case .color: Self.blend(span) { b, s in Self.setLum(s, Self.lum(b)) }
        case .luminosity: Self.blend(span) { b, s in Self.setLum(b, Self.lum(s)) }
        case .subtract: Self.blend(span) { b, s in pointwiseMax(b - s, .zero) }
        case .divide: Self.blend(span) { b, s in Self.perChannel(b, s, Self.divide) }
        case .linearBurn: Self.blend(span) { b, s in pointwiseMax(b + s - 1, .zero) }
        case .linearDodge: Self.blend(span) { b, s in pointwiseMin(b + s, SIMD3(repeating: 1)) }
        case .pinLight: Self.blend(span) { b, s in Self.perChannel(b, s, Self.pinLight) }
        case .linearLight: Self.blend(span) { b, s in pointwiseMin(pointwiseMax(b + 2 * s - 1, .zero), SIMD3(repeating: 1)) }
        case .vividLight: Self.blend(span) { b, s in Self.perChannel(b, s, Self.vividLight) }
        case .sourceIn: Self.combine(span) { s, b in s * b.w }
        case .sourceOut: Self.combine(span) { s, b in s * (1 - b.w) }
        case .sourceAtop: Self.combine(span) { s, b in s * b.w + b * (1 - s.w) }
        case .componentAdd:
            Self.combine(span) { s, b in
                let sum = s + b
                return SIMD4(sum.x, sum.y, sum.z, min(sum.w, 1))
            }
        case .componentMultiply: Self.combine(span) { s, b in s * b }
        case .componentMax: Self.combine(span) { s, b in pointwiseMax(s, b) }
        case .componentMin: Self.combine(span) { s, b in pointwiseMin(s, b) }
        }
    }

    /// co = f(cs, cb) on premultiplied pixels.
    @inline(__always) private static func combine(_ span: PixelSpan, _ f: (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>) {
        let s = span.pixels
        let b = span.input(1)
        for i in 0..<span.count { s[i] = f(s[i], b[i]) }
    }

    /// W3C's blend then source-over, with `blend(Cb, Cs)` on unpremultiplied colours.
    @inline(__always) private static func blend(_ span: PixelSpan, _ blend: (SIMD3<Float>, SIMD3<Float>) -> SIMD3<Float>) {
        let s = span.pixels
        let b = span.input(1)
        for i in 0..<span.count {
            let src = s[i]
            let dst = b[i]
            let sa = src.w
            let ba = dst.w
            let cs = SIMD3(src.x, src.y, src.z)
            let cb = SIMD3(dst.x, dst.y, dst.z)
            var out = cs * (1 - ba) + cb * (1 - sa)
            if sa > 0, ba > 0 { out += (sa * ba) * blend(cb / ba, cs / sa) }
            s[i] = SIMD4(out, sa + ba - sa * ba)
        }
    }

    @inline(__always) private static func perChannel(
        _ b: SIMD3<Float>, _ s: SIMD3<Float>, _ f: (Float, Float) -> Float
    ) -> SIMD3<Float> {
        SIMD3(f(b.x, s.x), f(b.y, s.y), f(b.z, s.z))
    }

    // MARK: Separable blend functions B(Cb, Cs)

    @inline(__always) private static func hardLight(_ b: SIMD3<Float>, _ s: SIMD3<Float>) -> SIMD3<Float> {
        let low = b * (2 * s)
        let s2 = 2 * s - 1
        let high = b + s2 - b * s2
        return low.replacing(with: high, where: s .> 0.5)
    }
    @inline(__always) private static func colorDodge(_ b: Float, _ s: Float) -> Float {
        if b == 0 { return 0 }
        if s >= 1 { return 1 }
        return min(1, b / (1 - s))
    }
    @inline(__always) private static func colorBurn(_ b: Float, _ s: Float) -> Float {
        if b >= 1 { return 1 }
        if s <= 0 { return 0 }
        return 1 - min(1, (1 - b) / s)
    }
    @inline(__always) private static func softLight(_ b: Float, _ s: Float) -> Float {
        if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
        let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
        return b + (2 * s - 1) * (d - b)
    }
    @inline(__always) private static func divide(_ b: Float, _ s: Float) -> Float {
        if s > 0 { return min(1, b / s) }
        return b > 0 ? 1 : 0
    }
    @inline(__always) private static func vividLight(_ b: Float, _ s: Float) -> Float {
        s <= 0.5 ? colorBurn(b, 2 * s) : colorDodge(b, 2 * s - 1)
    }
    @inline(__always) private static func pinLight(_ b: Float, _ s: Float) -> Float {
        s <= 0.5 ? min(b, 2 * s) : max(b, 2 * s - 1)
    }

    // MARK: Non-separable helpers (W3C §10.2)

    @inline(__always) private static func lum(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }
    @inline(__always) private static func sat(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }

    @inline(__always) private static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = lum(c)
        let n = c.min()
        let x = c.max()
        var out = c
        if n < 0, l - n > 0 { out = l + (out - l) * (l / (l - n)) }
        if x > 1, x - l > 0 { out = l + (out - l) * ((1 - l) / (x - l)) }
        return out
    }
    @inline(__always) private static func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
        clipColor(c + (l - lum(c)))
    }
    /// W3C's SetSat: the smallest component goes to 0, the largest to `s`, the middle one in proportion.
    @inline(__always) private static func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let lo = c.min()
        let range = c.max() - lo
        guard range > 0 else { return .zero }
        return (c - lo) * (s / range)
    }
}
