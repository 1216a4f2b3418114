import DaguerreCore

/// One row segment in planar form: unpremultiplied colour channels and alpha, each contiguous,
/// so per-channel arithmetic vectorises eight pixels to an AVX register.
public struct PlanarSpan {
    public let r: UnsafeMutablePointer<Float>
    public let g: UnsafeMutablePointer<Float>
    public let b: UnsafeMutablePointer<Float>
    public let a: UnsafeMutablePointer<Float>
    public let count: Int
}

/// A colour kernel in planar form: transforms the span's channels in place.
public typealias PlanarFunction = @Sendable (PlanarSpan) -> Void

/// How a ``PlanarRowSource`` gave a row.
enum PlanarRead { case unavailable, opaque, premultiplied }

/// A producer that can write its rows straight into planes (file and buffer sources of 8-bit
/// samples), so the planar run above it needs no transpose in.
protocol PlanarRowSource: RowProducer {
    /// Columns `x ..< x + p.count` of row `y` into `p`'s planes: the values ``RowProducer/row(_:into:)``
    /// gives (premultiplied), bit for bit. `.opaque` when every alpha is 1; `.unavailable`
    /// (nothing written) when this row cannot be given so.
    func planes(_ y: Int, x: Int, into p: PlanarSpan) -> PlanarRead
}

/// A run of single-input colour kernels evaluated on planar rows (I3).
///
/// Point-wise rows are interleaved RGBA; kernels that compare a pixel's channels (vibrance),
/// look values up (gamma), or clamp them, are cheaper on planar rows, where plain per-channel
/// loops vectorise. A run of such kernels therefore transposes the row once into R, G, B, A
/// (dividing out alpha), runs every kernel, and transposes back (premultiplying): still one pass
/// and no intermediate, and consecutive 3×3 matrices fold into one.
struct PlanarChain {
    enum Stage {
        case matrix(Matrix3)
        case function(PlanarFunction)
    }

    /// Stages bottom to top, and the node under the run.
    let stages: [Stage]
    let base: ImageNode
    /// How many recipe nodes each stage stands for (a folded matrix stands for several).
    let nodesPerStage: [Int]
    /// How many recipe nodes the run covers, top to base.
    var nodeCount: Int { nodesPerStage.reduce(0, +) }

    /// The run of planar-capable nodes from `top` down, or nil if `top` is not one.
    init?(top: PointwiseNode, env: RenderEnvironment) {
        var found: [Stage] = []
        var node: ImageNode = top
        while node === top || env.materializedBuffer(for: node) == nil {
            if let p = node as? PointwiseNode, p.inputs.count == 1, p.declaredFormat == nil, p.planar != nil || p.linear != nil,
                p.extent == p.inputs[0].extent
            {
                found.append(p.linear.map { .matrix($0) } ?? .function(p.planar!))
            } else if node !== top, let c = node as? ColorMatchNode, let m = c.linearMatrix(in: env) {
                // An explicit match between linear spaces is a matrix too.
                found.append(.matrix(m))
            } else {
                break
            }
            node = node.inputs[0]
        }
        guard !found.isEmpty else { return nil }
        // Bottom to top, folding neighbouring matrices (the upper one applies last).
        var folded: [Stage] = []
        var counts: [Int] = []
        for s in found.reversed() {
            if case .matrix(let m) = s, case .matrix(let below)? = folded.last {
                folded[folded.count - 1] = .matrix(m * below)
                counts[counts.count - 1] += 1
            } else {
                folded.append(s)
                counts.append(1)
            }
        }
        stages = folded
        nodesPerStage = counts
        base = node
    }
}

final class PlanarChainProducer: RowProducer {
    let rect: IntRect, dod: IntRect
    let input: RowProducer
    /// The input when it can write planes itself (a source): then no transpose in.
    private let planarInput: PlanarRowSource?
    /// Every stage as a closure, in a plain buffer: iterating an array of enum payloads retained
    /// and released each closure for every row.
    private let functions: UnsafeMutableBufferPointer<PlanarFunction>
    let r: UnsafeMutablePointer<Float>, g: UnsafeMutablePointer<Float>, b: UnsafeMutablePointer<Float>, a: UnsafeMutablePointer<Float>
    /// For the level-8 report: the run's top node and, for this tile, the rows made, those read
    /// as planes and those a sink took as planes (counted by the renderer).
    private let top: ObjectIdentifier, stats: RenderStats
    private var rows = 0, rowsReadAsPlanes = 0
    var rowsPackedFromPlanes = 0

    init(rect: IntRect, dod: IntRect, input: RowProducer, stages: [PlanarChain.Stage], arena: Arena, top: ImageNode, stats: RenderStats) {
        self.rect = rect
        self.dod = dod
        self.input = input
        self.top = ObjectIdentifier(top)
        self.stats = stats
        planarInput = input as? PlanarRowSource
        functions = .allocate(capacity: stages.count)
        for (i, s) in stages.enumerated() {
            switch s {
            case .matrix(let m):
                let c = (0..<9).map { Float(m[$0 / 3, $0 % 3]) }
                (functions.baseAddress! + i).initialize(to: { span in PlanarChainProducer.apply(c, span) })
            case .function(let f):
                (functions.baseAddress! + i).initialize(to: f)
            }
        }
        let n = max(1, dod.width)
        r = arena.allocate(Float.self, count: n)
        g = arena.allocate(Float.self, count: n)
        b = arena.allocate(Float.self, count: n)
        a = arena.allocate(Float.self, count: n)
    }

    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        guard !dod.isEmpty, y >= dod.y, y < dod.maxY else {
            out.update(repeating: .zero, count: rect.width)
            return
        }
        let off = dod.x - rect.x
        let n = dod.width
        let p = out + off
        let span = planes(y, scratch: out)
        PlanarChainProducer.interleave(span.r, span.g, span.b, span.a, into: p, n)
        if off > 0 { out.update(repeating: .zero, count: off) }
        let tail = rect.maxX - dod.maxX
        if tail > 0 { (out + (dod.maxX - rect.x)).update(repeating: .zero, count: tail) }
    }

    /// Row `y` (inside `dod`) through the run, left in planes: unpremultiplied colour and alpha
    /// over `dod`'s columns. A sink that packs planes takes them from here, with no transpose
    /// out (``RenderSink/put(y:x:planes:scratch:)``); `row` interleaves them. `scratch` (`rect.width`
    /// pixels) receives the input row when the input cannot write planes.
    func planes(_ y: Int, scratch out: UnsafeMutablePointer<SIMD4<Float>>) -> PlanarSpan {
        let n = dod.width
        let r = self.r
        let g = self.g
        let b = self.b
        let a = self.a
        let span = PlanarSpan(r: r, g: g, b: b, a: a, count: n)
        rows += 1
        var read = PlanarRead.unavailable
        if let planarInput { read = planarInput.planes(y, x: dod.x, into: span) }
        if read == .unavailable {
            input.row(y, into: out)
            PlanarChainProducer.deinterleave(out + (dod.x - rect.x), r, g, b, a, n)
        } else {
            rowsReadAsPlanes += 1
        }
        if read != .opaque {
            // Opaque rows (photos) skip dividing out alpha; the test is an OR over alpha's bits.
            var notOne: UInt32 = 0
            for i in 0..<n { notOne |= a[i].bitPattern ^ 0x3F80_0000 }
            if notOne != 0 {
                for i in 0..<n {
                    let al = a[i]
                    let inv: Float = al > 0 ? 1 / al : 0
                    r[i] *= inv
                    g[i] *= inv
                    b[i] *= inv
                }
            }
        }
        for i in 0..<functions.count { functions[i](span) }
        return span
    }

    /// Interleaved RGBA → four planes, four pixels at a time (a 4×4 transpose in registers).
    @inline(__always) static func deinterleave(
        _ p: UnsafeMutablePointer<SIMD4<Float>>, _ r: UnsafeMutablePointer<Float>,
        _ g: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>,
        _ a: UnsafeMutablePointer<Float>, _ n: Int
    ) {
        var i = 0
        while i + 4 <= n {
            let v0 = p[i]
            let v1 = p[i + 1]
            let v2 = p[i + 2]
            let v3 = p[i + 3]
            UnsafeMutableRawPointer(r + i).storeBytes(of: SIMD4(v0.x, v1.x, v2.x, v3.x), as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(g + i).storeBytes(of: SIMD4(v0.y, v1.y, v2.y, v3.y), as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(b + i).storeBytes(of: SIMD4(v0.z, v1.z, v2.z, v3.z), as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(a + i).storeBytes(of: SIMD4(v0.w, v1.w, v2.w, v3.w), as: SIMD4<Float>.self)
            i += 4
        }
        while i < n {
            let v = p[i]
            r[i] = v.x
            g[i] = v.y
            b[i] = v.z
            a[i] = v.w
            i += 1
        }
    }

    /// Four planes → interleaved RGBA, premultiplying by alpha on the way.
    @inline(__always) static func interleave(
        _ r: UnsafeMutablePointer<Float>, _ g: UnsafeMutablePointer<Float>,
        _ b: UnsafeMutablePointer<Float>, _ a: UnsafeMutablePointer<Float>,
        into p: UnsafeMutablePointer<SIMD4<Float>>, _ n: Int
    ) {
        var i = 0
        while i + 4 <= n {
            let al = UnsafeRawPointer(a + i).load(as: SIMD4<Float>.self)
            let rr = UnsafeRawPointer(r + i).load(as: SIMD4<Float>.self) * al
            let gg = UnsafeRawPointer(g + i).load(as: SIMD4<Float>.self) * al
            let bb = UnsafeRawPointer(b + i).load(as: SIMD4<Float>.self) * al
            p[i] = SIMD4(rr.x, gg.x, bb.x, al.x)
            p[i + 1] = SIMD4(rr.y, gg.y, bb.y, al.y)
            p[i + 2] = SIMD4(rr.z, gg.z, bb.z, al.z)
            p[i + 3] = SIMD4(rr.w, gg.w, bb.w, al.w)
            i += 4
        }
        while i < n {
            let al = a[i]
            p[i] = SIMD4(r[i] * al, g[i] * al, b[i] * al, al)
            i += 1
        }
    }

    deinit {
        functions.baseAddress?.deinitialize(count: functions.count)
        functions.deallocate()
        if rows > 0 { stats.notePlanarRun(top, rows: rows, readAsPlanes: rowsReadAsPlanes, packedFromPlanes: rowsPackedFromPlanes) }
    }

    /// A row-major 3×3 matrix on the colour planes.
    static func apply(_ c: [Float], _ s: PlanarSpan) {
        let m0 = c[0]
        let m1 = c[1]
        let m2 = c[2]
        let m3 = c[3]
        let m4 = c[4]
        let m5 = c[5]
        let m6 = c[6]
        let m7 = c[7]
        let m8 = c[8]
        let r = s.r
        let g = s.g
        let b = s.b
        for i in 0..<s.count {
            let x = r[i]
            let y = g[i]
            let z = b[i]
            r[i] = (m0 * x).addingProduct(m1, y).addingProduct(m2, z)
            g[i] = (m3 * x).addingProduct(m4, y).addingProduct(m5, z)
            b[i] = (m6 * x).addingProduct(m7, y).addingProduct(m8, z)
        }
    }
}

/// Scalar maths written so LLVM vectorises the loops around it: bit operations and arithmetic
/// only, no checked conversions.
enum PlanarMath {
    /// max(a, b) as one maxps, `a > b ? a : b` (Swift.max compiles to a compare and a blend):
    /// the same as Swift.max(a, b) for every non-NaN pair, signed zeros included (both give b
    /// when a == b); a NaN `a` gives b.
    @inline(__always) static func max(_ a: Float, _ b: Float) -> Float { a > b ? a : b }
    /// min(a, b) as one minps, `b < a ? b : a`: exactly Swift.min(a, b), spelled out so it pairs
    /// with ``max(_:_:)``.
    @inline(__always) static func min(_ a: Float, _ b: Float) -> Float { b < a ? b : a }

    /// x ↦ sign(x)·|x|^g for one exponent g, by log2/exp2 polynomials with no division
    /// (least-squares fits on Chebyshev nodes: log2(1 + u) degree 5 on [0, 1) to 1.5e-5
    /// absolute, 2^f degree 4 on [−½, ½] to 3e-6 relative). Against libm, |x|^g is within
    /// about 1.4e-5·g relative for g up to a few (twenty times finer than half floats, the
    /// working format); ±0 gives ±0, subnormal x are read as if normal (results of the right
    /// order of magnitude). Tested against Foundation's `pow`.
    ///
    /// About 28 vector operations per eight values (the first version took about 32): g is
    /// folded into the log polynomial (y = e·g + g·p(u) is one FMA), the exponent is clamped as
    /// an integer, and 2^n is added to the exponent bits of 2^f rather than multiplied.
    struct SignedPower: Sendable {
        let g: Float
        /// g·(log2 polynomial), constant term first.
        let c0: Float, c1: Float, c2: Float, c3: Float, c4: Float, c5: Float

        init(_ g: Float) {
            self.g = g
            let d = Double(g)
            c0 = Float(1.4390929995432812e-05 * d)
            c1 = Float(1.4415920772065487 * d)
            c2 = Float(-0.7072534335743483 * d)
            c3 = Float(0.41156148231042833 * d)
            c4 = Float(-0.18983244652663192 * d)
            c5 = Float(0.04392862784792971 * d)
        }

        @inline(__always) func callAsFunction(_ x: Float) -> Float {
            let bits = x.bitPattern
            let sign = bits & 0x8000_0000
            let e = Float(Int32(bitPattern: (bits &<< 1) &>> 24) &- 127)  // unbiased exponent of |x|
            let u = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000) - 1  // mantissa − 1, in [0, 1)
            // Horner steps as FMAs (Swift never contracts a·b + c by itself).
            var p = c5
            p = c4.addingProduct(p, u)
            p = c3.addingProduct(p, u)
            p = c2.addingProduct(p, u)
            p = c1.addingProduct(p, u)
            p = c0.addingProduct(p, u)
            let y = p.addingProduct(e, g)  // g·log2|x|
            // exp2: round with the 1.5·2^23 trick, which also leaves n in the low mantissa bits
            // (|y| ≤ 129·g, far inside the trick's range).
            let shifted = y + 12_582_912
            let f = y - (shifted - 12_582_912)
            var q: Float = 0.00967603709830337
            q = Float(0.05592203564725779).addingProduct(q, f)
            q = Float(0.24022107355818462).addingProduct(q, f)
            q = Float(0.6931210339915476).addingProduct(q, f)
            q = Float(1.0000000754953546).addingProduct(q, f)
            // q·2^n by adding n to q's exponent bits (q is in [0.7, 1.42]): n clamped to
            // [−125, 127] on the integer bits (one vpmaxsd and one vpminsd) keeps the result
            // normal, so the addition is exact; shifting left by 23 drops the 1.5·2^23 and
            // leaves n·2^23 modulo 2^32. Results beyond the float range saturate near 2^127,
            // those below 2^−125 come out within half a stop of 2^−125.
            var nb = Int32(bitPattern: shifted.bitPattern)
            nb = nb < 0x4B40_0000 - 125 ? 0x4B40_0000 - 125 : nb
            nb = nb > 0x4B40_0000 + 127 ? 0x4B40_0000 + 127 : nb
            let result = Float(bitPattern: (q.bitPattern &+ (UInt32(bitPattern: nb) &<< 23)) | sign)
            // ±0 gives itself (a compare and a blend): the exponent field alone reads zero as
            // 2^−127, which made 0^0.01 0.41.
            return x == 0 ? x : result
        }

        /// Applies the power to `count` values in place.
        @inline(__always) func apply(_ p: UnsafeMutablePointer<Float>, _ count: Int) {
            for i in 0..<count { p[i] = self(p[i]) }
        }
    }
}
