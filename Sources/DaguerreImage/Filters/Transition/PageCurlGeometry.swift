import DaguerreCore
import Foundation

/// The page curl both page-curl transitions share (SPEC I4), in Daguerre's coordinates (y down,
/// pixel centres at half-integers), all geometry in double precision.
///
/// The curl moves along m = (cos angle, sin angle). A pixel centre p projects to s = p·m; over
/// the time the curl line runs like a ``SwipeGeometry`` edge from the extent's lowest projection
/// s₀ to its highest s₁ plus R + W, e(t) = s₀ + t·(s₁ − s₀ + R + W), with R the radius and W
/// the shadow's reach (0 without a shadow). Behind the line (x = e − s > 0) the page has lifted
/// and rolled round a cylinder of radius R lying on the line: the page point u (unrolled
/// distance behind the line) is at angle φ = u/R, projected at x = R·sin φ, until φ = π (the
/// cylinder's top); beyond it the page lies flat, face down, at height 2R, projected at
/// x = π·R − u (over the page still flat ahead of the line). At p the page point at unrolled
/// distance u is P(u) = p + (x − u)·m. So, from the top:
/// - x < 0: the back of the page at u = π·R − x, P = p + (2x − π·R)·m, over the flat page
///   (the image's pixel at p);
/// - 0 ≤ x ≤ R: the back of the page on the upper half, φ₂ = π − asin(x/R), u = R·φ₂, over the
///   front of the page on the lower half, φ₁ = asin(x/R), u = R·φ₁, over the target;
/// - x > R: the target.
/// The front at P is the image restricted to the extent's whole pixels (the page) sampled
/// bilinearly (transparent off the page, so the page's lifted edges are soft); the back at P is
/// the backside image (the image when absent) restricted to the page and sampled bilinearly at
/// the mirrored point (X₀ + X₁ − Pₓ, P_y), X₀ and X₁ the page's left and right pixel edges, as
/// the back of a sheet is its front mirrored left to right. Layers are composited source-over
/// on premultiplied working-space values: out = top + (1 − top.α)·(under + (1 − under.α)·target).
///
/// With a shading image, each curled layer (cylinder and face-down page) has its red, green and
/// blue multiplied by the shading image's, clamped to [0, 1], read bilinearly along the middle
/// row of a lit sphere: at (c.x + n·(w − 1)/2, c.y), c the centre of the shading image's extent
/// (the page extent when infinite), w its width, and n the visible face's normal along m: +x/R
/// on the lower half, −x/R on the upper half, 0 on the face-down page.
///
/// With a shadow of reach W and amount A, the target at pixel centres inside the shadow's
/// rectangle (x ≥ 0) is darkened as if under black of opacity d = A for x ≤ R, falling linearly
/// to 0 at x = R + W: target′ = target·(1 − d) + (0, 0, 0, d).
struct PageCurlGeometry: Sendable {
    let cos: Double
    let sin: Double
    let edge: Double
    let radius: Double
    /// The page: the extent's whole pixels.
    let page: IntRect

    init(extent: Rect, angle: Double, radius: Double, trail: Double, time: Double) {
        let (c, s) = (Foundation.cos(angle), Foundation.sin(angle))
        let projections = [
            (extent.minX, extent.minY), (extent.maxX, extent.minY), (extent.minX, extent.maxY), (extent.maxX, extent.maxY),
        ].map { $0.0 * c + $0.1 * s }
        let (s0, s1) = (projections.min() ?? 0, projections.max() ?? 0)
        self.cos = c
        self.sin = s
        self.radius = radius
        self.page = extent.integral
        self.edge = s0 + min(max(time, 0), 1) * (s1 - s0 + radius + trail)
    }

    /// The shadow a curl casts on the target: how far past the cylinder it reaches, how dark it
    /// is, and the rectangle it falls in.
    struct Shadow: Sendable {
        let reach: Double
        let amount: Double
        let extent: Rect
    }

    /// The numbers the output depends on, for a node's digest and its description.
    var numbers: [Double] { [cos, sin, edge, radius, Double(page.x), Double(page.y), Double(page.width), Double(page.height)] }

    /// The point mirrored left to right within the page (where the back of the page reads its
    /// image).
    @inline(__always) func mirrored(_ p: SIMD2<Double>) -> SIMD2<Double> { SIMD2(Double(page.x + page.maxX) - p.x, p.y) }

    /// The page-space box the page points seen over `rect` lie in (flat, on the cylinder, or
    /// reflected face down about s = e − π·R/2), or nil when it cannot be bounded.
    func pageBox(for rect: Rect) -> Rect? {
        let m = SIMD2(cos, sin)
        let roll = Double.pi * radius
        var points: [SIMD2<Double>] = []
        for corner in [SIMD2(rect.minX, rect.minY), SIMD2(rect.maxX, rect.minY), SIMD2(rect.minX, rect.maxY), SIMD2(rect.maxX, rect.maxY)] {
            let s = corner.x * cos + corner.y * sin
            points += [corner, corner - roll * m, corner + (2 * edge - roll - 2 * s) * m]
        }
        let box = Warp.bounds(points)
        guard [box.minX, box.minY, box.maxX, box.maxY].allSatisfy(\.isFinite) else { return nil }
        return box.insetBy(dx: -2, dy: -2)
    }

    /// The page curl from `image` to `target` over `extent` (see the type's definition).
    static func image(
        name: String, image: Image, target: Image, backside: Image?, shading: Image?, shadow: Shadow?, extent: Rect,
        geometry g: PageCurlGeometry
    ) -> Image {
        let pageRect = Rect(g.page)
        let front = image.cropped(to: pageRect)
        let back = (backside ?? image).cropped(to: pageRect)
        var inputs = [front.node, target.node, back.node]
        // The shading image's line: its centre and half-size (the page's when it is infinite).
        let shaded = shading.map { !$0.extent.isEmpty } ?? false
        let line = shading.map { $0.extent.isInfinite ? extent : $0.extent } ?? extent
        let shadingCentre = SIMD2(line.midX, line.midY)
        let shadingReach = SIMD2(max(0, line.width - 1) / 2, 0)
        if let shading, shaded { inputs.append(shading.node) }
        let numbers =
            g.numbers + [shaded ? 1 : 0] + [shadingCentre.x, shadingCentre.y, shadingReach.x, shadingReach.y]
            + (shadow.map { [$0.reach, $0.amount, $0.extent.minX, $0.extent.minY, $0.extent.maxX, $0.extent.maxY] } ?? [])
        let m = SIMD2(g.cos, g.sin)
        let radius = g.radius
        let roll = Double.pi * radius
        let node = SamplingNode(
            name: name, inputs: inputs, extent: extent,
            parameters: numbers.map { String(format: "%.6g", $0) }.joined(separator: " "), outputFormat: nil,
            digest: { d in d.add(numbers) },
            roi: { i, rect in
                switch i {
                case 0: return g.pageBox(for: rect) ?? pageRect
                case 2:
                    guard let box = g.pageBox(for: rect) else { return pageRect }
                    let flip = Double(g.page.x + g.page.maxX)
                    return Rect(minX: flip - box.maxX, minY: box.minY, maxX: flip - box.minX, maxY: box.maxY)
                case 3:
                    let (dx, dy) = (abs(shadingReach.x) + 2, abs(shadingReach.y) + 2)
                    return Rect(
                        minX: shadingCentre.x - dx, minY: shadingCentre.y - dy, maxX: shadingCentre.x + dx, maxY: shadingCentre.y + dy)
                default: return rect
                }
            }
        ) { samplers, dest in
            let p = SIMD2(Double(dest.x), Double(dest.y))
            let x = g.edge - (p.x * g.cos + p.y * g.sin)
            // A curled layer, shaded for the face whose normal along m is n.
            @inline(__always) func shade(_ layer: SIMD4<Float>, _ n: Double) -> SIMD4<Float> {
                guard shaded else { return layer }
                let f = Warp.bilinear(samplers[3], shadingCentre + n * shadingReach)
                let k = SIMD4(min(max(f.x, 0), 1), min(max(f.y, 0), 1), min(max(f.z, 0), 1), 1)
                return layer * k
            }
            @inline(__always) func backAt(_ offset: Double, _ n: Double) -> SIMD4<Float> {
                shade(Warp.bilinear(samplers[2], g.mirrored(p + offset * m)), n)
            }
            var t = SIMD4<Float>.zero
            if x >= 0 {
                t = samplers[1].read(x: Int(p.x.rounded(.down)), y: Int(p.y.rounded(.down)))
                if let shadow, p.x >= shadow.extent.minX, p.x < shadow.extent.maxX, p.y >= shadow.extent.minY,
                    p.y < shadow.extent.maxY
                {
                    let beyond = x - radius
                    let reach = beyond <= 0 ? 1 : (shadow.reach > 0 ? max(0, 1 - beyond / shadow.reach) : 0)
                    let d = Float(shadow.amount * reach)
                    t = t * (1 - d) + SIMD4(0, 0, 0, d)
                }
            }
            guard x <= radius else { return t }
            let top: SIMD4<Float>
            let under: SIMD4<Float>
            if x < 0 {
                top = backAt(2 * x - roll, 0)
                under = samplers[0].read(x: Int(p.x.rounded(.down)), y: Int(p.y.rounded(.down)))
            } else {
                let phi = asin(min(x / radius, 1))
                top = backAt(x - radius * (Double.pi - phi), -x / radius)
                let lower = shade(Warp.bilinear(samplers[0], p + (x - radius * phi) * m), x / radius)
                under = lower + t * (1 - lower.w)
            }
            return top + under * (1 - top.w)
        }
        return Image(node)
    }
}
