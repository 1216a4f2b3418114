// Lens distortion correction from the DNG's WarpRectilinear opcode (OpcodeList3, DNG 1.4 §7;
// SPEC X3 "lens correction", X6), as an engine warp on the developed image, so it streams like
// every other stage. Our own code: no Debian library applies DNG opcodes.
import DaguerreCore
import DaguerreFormats
import DaguerreImage

/// Where the developed image sits in the opcode's coordinates: the opcode works on the whole
/// demosaiced stage-3 image (the ActiveArea), our image is the DefaultCrop inside it, possibly
/// at half size.
struct OpcodeFrame: Sendable, Hashable {
    /// The crop's origin inside the active area, and the active area's size, in photosites.
    var originX: Double, originY: Double, width: Double, height: Double
    /// Photosites per developed pixel (1, or 2 on the half-size path).
    var pixelScale: Double
}

/// Applies WarpRectilinear per colour plane: one warp when all planes share coefficients, else
/// one per plane (lateral chromatic aberration), recombined.
///
/// ```swift
/// let corrected = try LensWarp(warp, frame: frame).apply(to: developed)
/// ```
struct LensWarp: Sendable {
    let warp: DNGWarpRectilinear
    let frame: OpcodeFrame

    init(_ warp: DNGWarpRectilinear, frame: OpcodeFrame) {
        self.warp = warp
        self.frame = frame
    }

    /// dest (engine coordinates, pixel centres at +0.5) → source, for one plane's coefficients
    /// k = [kr0…kr3, kt0, kt1], centre (cx, cy) and normalization m in photosites.
    @inline(__always) static func source(_ p: SIMD2<Float>, _ v: KernelValues) -> SIMD2<Float> {
        let s = v.float(at: 0)
        let ox = v.float(at: 1)
        let oy = v.float(at: 2)
        let cx = v.float(at: 3)
        let cy = v.float(at: 4)
        let m = v.float(at: 5)
        let x = p.x * s - 0.5 + ox
        let y = p.y * s - 0.5 + oy
        let dx = (x - cx) / m
        let dy = (y - cy) / m
        let r2 = dx * dx + dy * dy
        let f = v.float(at: 6) + r2 * (v.float(at: 7) + r2 * (v.float(at: 8) + r2 * v.float(at: 9)))
        let kt0 = v.float(at: 10)
        let kt1 = v.float(at: 11)
        let sx = f * dx + 2 * kt0 * dx * dy + kt1 * (r2 + 2 * dx * dx)
        let sy = f * dy + kt0 * (r2 + 2 * dy * dy) + 2 * kt1 * dx * dy
        // Sources beyond the image read its edge pixels, as the opcode's reference does.
        let qx = (cx + sx * m - ox + 0.5) / s
        let qy = (cy + sy * m - oy + 0.5) / s
        return SIMD2(min(max(qx, 0.5), v.float(at: 12) - 0.5), min(max(qy, 0.5), v.float(at: 13) - 0.5))
    }
    static let kernel = WarpKernel(name: "dngWarpRectilinear") { ctx in source(ctx.destCoord, ctx.values) }
    static let pickPlanes = ColorKernel(name: "dngWarpPlanes") { ctx in
        SIMD4(ctx.pixel(at: 0).x, ctx.pixel(at: 1).y, ctx.pixel(at: 2).z, ctx.pixel(at: 0).w)
    }

    func arguments(plane: Int, extent: Rect) -> [KernelArgument] {
        let k = warp.planes[min(plane, warp.planes.count - 1)]
        let cx = warp.centerX * (frame.width - 1)
        let cy = warp.centerY * (frame.height - 1)
        let m = max(
            max(cx, frame.width - 1 - cx) * max(cx, frame.width - 1 - cx)
                + max(cy, frame.height - 1 - cy) * max(cy, frame.height - 1 - cy), 1e-12
        ).squareRoot()
        return ([frame.pixelScale, frame.originX, frame.originY, cx, cy, m] + k.radial + k.tangential + [extent.width, extent.height]).map {
            .float(Float($0))
        }
    }

    func apply(to image: Image) throws(DaguerreError) -> Image {
        guard !warp.planes.isEmpty, warp.planes.allSatisfy({ $0.radial.count == 4 && $0.tangential.count == 2 }) else {
            throw .corruptData(format: "DNG WarpRectilinear", detail: "a plane lacks its 4 radial and 2 tangential coefficients", path: nil)
        }
        let extent = image.extent
        guard extent.minX == 0, extent.minY == 0, !extent.isInfinite else {
            throw .invalidArgument(
                what: "lens correction of an image at \(extent)", problem: "needs the develop's own extent, starting at the origin")
        }
        func warped(_ plane: Int) -> Image {
            let args = arguments(plane: plane, extent: extent)
            let values = KernelValues(args)
            return Self.kernel.apply(
                extent: extent, roiCallback: { _, r in Self.footprint(of: r, values: values).intersection(extent) },
                image: image, arguments: args)
        }
        let distinct = Set(warp.planes.map { $0.radial + $0.tangential }).count > 1
        guard distinct else { return warped(0) }
        return Self.pickPlanes.apply(extent: extent, arguments: [.image(warped(0)), .image(warped(1)), .image(warped(2))])
    }

    /// The source rectangle a destination rectangle reads: its border mapped through the warp
    /// (radial models map borders to borders), plus the bilinear margin.
    static func footprint(of r: Rect, values: KernelValues) -> Rect {
        guard !r.isEmpty, !r.isInfinite else { return r }
        var lo = SIMD2<Float>(repeating: .infinity)
        var hi = SIMD2<Float>(repeating: -.infinity)
        let n = 16
        for i in 0...n {
            let t = Float(i) / Float(n)
            let xs = Float(r.minX) + t * Float(r.width)
            let ys = Float(r.minY) + t * Float(r.height)
            for p in [SIMD2(xs, Float(r.minY)), SIMD2(xs, Float(r.maxY)), SIMD2(Float(r.minX), ys), SIMD2(Float(r.maxX), ys)] {
                let q = source(p, values)
                guard q.x.isFinite, q.y.isFinite else { continue }
                lo = pointwiseMin(lo, q)
                hi = pointwiseMax(hi, q)
            }
        }
        guard lo.x <= hi.x, lo.y <= hi.y else { return r }
        return Rect(minX: Double(lo.x) - 2, minY: Double(lo.y) - 2, maxX: Double(hi.x) + 2, maxY: Double(hi.y) + 2)
    }
}

extension DNGImage {
    /// OpcodeList2's gain maps (lens shading), applied to the linearized mosaic.
    var gainMaps: [DNGGainMap] {
        opcodeLists.filter { $0.stage == .linearized }.flatMap(\.opcodes).compactMap { if case .gainMap(let g) = $0 { g } else { nil } }
    }

    /// The first WarpRectilinear of OpcodeList3 (applied after demosaicking), if any.
    var lensWarp: DNGWarpRectilinear? {
        for list in opcodeLists where list.stage == .demosaiced {
            for case .warpRectilinear(let w) in list.opcodes { return w }
        }
        return nil
    }
}
