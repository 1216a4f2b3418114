// The X-Trans demosaic (SPEC X2 for Fujifilm's 6×6 colour filter): directional colour-difference
// interpolation, refined over passes, in the spirit of Markesteijn's method for X-Trans (dcraw,
// LibRaw, darktable and RawTherapee's 1- and 3-pass) but our own design, for a perceptual domain
// and floats:
//
// 1. A first estimate of every colour everywhere: each missing colour is a weighted mean of its
//    photosites in the 5×5 around (weights 1-2-3-2-1 in each direction).
// 2. Each pass then (a) rebuilds green at every red and blue photosite from four directions
//    (horizontal, vertical, both diagonals): along a direction, the colour difference green −
//    own colour is read at the nearest green photosite on each side (within three) and
//    interpolated by distance; the four estimates are mixed with weights 1 / (ε + g)², g the
//    estimate's variation along the direction summed over the 3×3 around, so an edge is
//    followed, not crossed; (b) rebuilds red and blue where they are missing from the colour
//    difference red − green (blue − green) at the photosites of that colour within √5, each
//    weighted by closeness and by how alike its green is to this pixel's.
//
// Every pass uses the previous one's estimates (each pass's red and blue sharpen the next one's
// green). Three passes are the full develop, one is the draft. On the L protocol with the X-Trans
// pattern (DemosaicQualityTests) three passes score far above LibRaw's Markesteijn 3-pass.
//
// The algorithm works on one window of the mosaic at a time (already linearized, white balanced
// and encoded in the demosaic domain) and produces its interior; which windows, on which thread,
// is the develop's (``XTransDevelop``).
import DaguerreCore
import Foundation

/// Demosaics windows of an X-Trans mosaic.
///
/// ```swift
/// let d = XTransDemosaic(pattern: .standard, passes: 3)
/// let ws = XTransDemosaic.Workspace()
/// d.run(ws, width: 300, height: 292, originX: 0, originY: 0)   // ws.mosaic filled first
/// // ws.plane(0), ws.plane(1), ws.plane(2): red, green, blue, valid `d.halo` in from each edge
/// ```
struct XTransDemosaic: Sendable {
    let pattern: XTransPattern
    /// 3 for the full develop, 1 for the draft.
    let passes: Int
    /// How far in from a window's edges its result is valid: 2 for the first estimate, 5 per pass.
    var halo: Int { Self.halo(passes: passes) }
    static func halo(passes: Int) -> Int { 2 + 5 * passes }

    /// Weights 1 / (ε + variation)²: ε keeps flat areas a plain mean of the directions.
    static let epsilon: Float = 1e-4
    /// The four directions as (dx, dy).
    static let directions = [(1, 0), (0, 1), (1, 1), (-1, 1)]

    /// Per position of the 6×6 block: what the steps read around it (offsets in photosites).
    struct Tables: Sendable {
        /// The colour of each position.
        var color = [Int](repeating: 0, count: 36)
        /// The first estimate: per position and colour, photosites of that colour and weights (summing to 1).
        var first = [[[(dx: Int, dy: Int, w: Float)]]](repeating: [[], [], []], count: 36)
        /// Green's directions: per position and direction, steps to the nearest green each way
        /// (0: none within three) and the weights of the two sides.
        var green = [[(plus: Int, minus: Int, wPlus: Float, wMinus: Float)]](repeating: [], count: 36)
        /// Red (0) and blue (1): per position, photosites of the colour within √5 and their
        /// closeness weights.
        var difference = [[[(dx: Int, dy: Int, w: Float)]]](repeating: [[], []], count: 36)

        init(_ p: XTransPattern) {
            for pos in 0..<36 {
                let (x, y) = (pos % 6, pos / 6)
                let own = p.color(x: x, y: y)
                color[pos] = own
                for c in 0..<3 where c != own {
                    var taps: [(dx: Int, dy: Int, w: Float)] = []
                    for dy in -2...2 {
                        for dx in -2...2 where p.color(x: x + dx, y: y + dy) == c {
                            taps.append((dx, dy, Float((3 - abs(dx)) * (3 - abs(dy)))))
                        }
                    }
                    let sum = taps.reduce(Float(0)) { $0 + $1.w }
                    first[pos][c] = taps.map { ($0.dx, $0.dy, $0.w / sum) }
                }
                if own != 1 {
                    green[pos] = XTransDemosaic.directions.map { (sx, sy) in
                        let plus = (1...3).first { p.color(x: x + $0 * sx, y: y + $0 * sy) == 1 } ?? 0
                        let minus = (1...3).first { p.color(x: x - $0 * sx, y: y - $0 * sy) == 1 } ?? 0
                        switch (plus, minus) {
                        case (0, 0): return (0, 0, 0, 0)
                        case (0, _): return (0, minus, 0, 1)
                        case (_, 0): return (plus, 0, 1, 0)
                        default:
                            let sum = Float(plus + minus)
                            return (plus, minus, Float(minus) / sum, Float(plus) / sum)
                        }
                    }
                }
                for (slot, c) in [0, 2].enumerated() where c != own {
                    var reach = 5
                    var taps: [(dx: Int, dy: Int, w: Float)] = []
                    while taps.count < 2, reach <= 13 {
                        taps = []
                        for dy in -3...3 {
                            for dx in -3...3 where dx * dx + dy * dy <= reach && p.color(x: x + dx, y: y + dy) == c {
                                taps.append((dx, dy, Float(exp(-Double(dx * dx + dy * dy) / 4))))
                            }
                        }
                        reach += 3
                    }
                    difference[pos][slot] = taps
                }
            }
        }
    }

    let tables: Tables

    init(pattern: XTransPattern, passes: Int) {
        self.pattern = pattern
        self.passes = max(1, passes)
        tables = Tables(pattern)
    }

    /// A window's planes: the encoded mosaic, red, green, blue, four variations and a scratch
    /// plane, reused from window to window (one per worker).
    final class Workspace: @unchecked Sendable {
        // Safety: one worker uses a workspace at a time (the develop hands one to each).
        private(set) var storage: UnsafeMutablePointer<Float>?
        private(set) var planeSize = 0
        private var capacity = 0
        static let planes = 9

        init() {}
        deinit { storage?.deallocate() }

        /// Room for windows of `count` pixels.
        func reserve(_ count: Int) {
            planeSize = count
            guard count * Self.planes > capacity else { return }
            storage?.deallocate()
            capacity = count * Self.planes
            storage = .allocate(capacity: capacity)
            storage!.initialize(repeating: 0, count: capacity)
        }

        /// The mosaic plane, filled by the caller: row-major, the window's width apart.
        var mosaic: UnsafeMutablePointer<Float> { storage! }
        /// Colour `c` (0 red, 1 green, 2 blue).
        func plane(_ c: Int) -> UnsafeMutablePointer<Float> { storage! + (1 + c) * planeSize }
        func variation(_ d: Int) -> UnsafeMutablePointer<Float> { storage! + (4 + d) * planeSize }
        var scratch: UnsafeMutablePointer<Float> { storage! + 8 * planeSize }
    }

    /// The tables' taps as flat offsets for windows `width` wide, for the pixel loops.
    struct FlatTaps {
        /// Per position × 3 colours (first estimate) or × 2 (red, blue differences): where its taps start and end.
        var start: [Int32] = [], offset: [Int32] = [], weight: [Float] = []

        init(_ lists: [[[(dx: Int, dy: Int, w: Float)]]], width: Int) {
            for perPosition in lists {
                for taps in perPosition {
                    start.append(Int32(offset.count))
                    for tap in taps {
                        offset.append(Int32(tap.dy * width + tap.dx))
                        weight.append(tap.w)
                    }
                }
            }
            start.append(Int32(offset.count))
        }
    }

    /// Demosaics the window in `ws` (its mosaic plane `width` × `height`, whose top-left
    /// photosite is (originX, originY) of the mosaic, for the pattern's phase): afterwards its
    /// colour planes hold the result at every pixel ``halo`` or more from the window's edges.
    func run(_ ws: Workspace, width w: Int, height h: Int, originX: Int, originY: Int) {
        guard w > 2 * halo, h > 2 * halo else { return }
        let phase = pattern.shifted(x: originX, y: originY)
        let t = phase == pattern ? tables : Tables(phase)
        let first = FlatTaps(t.first, width: w)
        let difference = FlatTaps(t.difference, width: w)
        var greenSteps = [Int32](repeating: 0, count: 36 * 8)
        var greenWeights = [Float](repeating: 0, count: 36 * 8)
        for pos in 0..<36 where t.color[pos] != 1 {
            for d in 0..<4 {
                let k = t.green[pos][d]
                greenSteps[pos * 8 + 2 * d] = Int32(k.plus)
                greenSteps[pos * 8 + 2 * d + 1] = Int32(k.minus)
                greenWeights[pos * 8 + 2 * d] = k.wPlus
                greenWeights[pos * 8 + 2 * d + 1] = k.wMinus
            }
        }
        let colors = t.color.map(Int32.init)
        let steps = Self.directions.map { $0.1 * w + $0.0 }
        first.start.withUnsafeBufferPointer { fs in
            first.offset.withUnsafeBufferPointer { fo in
                first.weight.withUnsafeBufferPointer { fw in
                    difference.start.withUnsafeBufferPointer { ds in
                        difference.offset.withUnsafeBufferPointer { dof in
                            difference.weight.withUnsafeBufferPointer { dw in
                                greenSteps.withUnsafeBufferPointer { gs in
                                    greenWeights.withUnsafeBufferPointer { gw in
                                        colors.withUnsafeBufferPointer { col in
                                            let taps = Taps(
                                                firstStart: fs.baseAddress!, firstOffset: fo.baseAddress!, firstWeight: fw.baseAddress!,
                                                differenceStart: ds.baseAddress!, differenceOffset: dof.baseAddress!,
                                                differenceWeight: dw.baseAddress!, greenSteps: gs.baseAddress!,
                                                greenWeights: gw.baseAddress!, colors: col.baseAddress!, steps: steps)
                                            run(ws, width: w, height: h, taps: taps)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The flat tables' addresses, for the duration of one window.
    private struct Taps {
        let firstStart: UnsafePointer<Int32>, firstOffset: UnsafePointer<Int32>, firstWeight: UnsafePointer<Float>
        let differenceStart: UnsafePointer<Int32>, differenceOffset: UnsafePointer<Int32>, differenceWeight: UnsafePointer<Float>
        let greenSteps: UnsafePointer<Int32>, greenWeights: UnsafePointer<Float>
        let colors: UnsafePointer<Int32>
        let steps: [Int]
    }

    private func run(_ ws: Workspace, width w: Int, height h: Int, taps t: Taps) {
        let m = ws.mosaic
        let r = ws.plane(0)
        let g = ws.plane(1)
        let b = ws.plane(2)
        let s0 = t.steps[0]
        let s1 = t.steps[1]
        let s2 = t.steps[2]
        let s3 = t.steps[3]

        // 1. The first estimate, 2 in from the edges.
        for y in 2..<(h - 2) {
            let row = (y % 6) * 6
            var pos = row + 2 % 6
            for x in 2..<(w - 2) {
                let i = y * w + x
                let own = Int(t.colors[pos])
                let planes = (r, g, b)
                let ownPlane = own == 0 ? planes.0 : own == 1 ? planes.1 : planes.2
                ownPlane[i] = m[i]
                for c in 0..<3 where c != own {
                    var sum: Float = 0
                    let k = pos * 3 + c
                    for j in Int(t.firstStart[k])..<Int(t.firstStart[k + 1]) { sum += t.firstWeight[j] * m[i + Int(t.firstOffset[j])] }
                    (c == 0 ? r : c == 1 ? g : b)[i] = sum
                }
                pos = pos == row + 5 ? row : pos + 1
            }
        }
        var valid = 2
        for _ in 0..<passes {
            // 2a. Each direction's variation, summed over the 3×3: read 1 further in than the
            // current estimate's area, summed 1 further still.
            let edge = valid + 1
            let sc = ws.scratch
            for d in 0..<4 {
                let s = t.steps[d]
                let v = ws.variation(d)
                for y in edge..<(h - edge) {
                    let base = y * w
                    for x in edge..<(w - edge) {
                        let i = base + x
                        v[i] = abs(g[i + s] - g[i - s]) + 0.5 * (abs(r[i + s] - r[i - s]) + abs(b[i + s] - b[i - s]))
                    }
                }
                for y in edge..<(h - edge) {
                    let base = y * w
                    for x in (edge + 1)..<(w - edge - 1) { sc[base + x] = v[base + x - 1] + v[base + x] + v[base + x + 1] }
                }
                for y in (edge + 1)..<(h - edge - 1) {
                    let base = y * w
                    for x in (edge + 1)..<(w - edge - 1) { v[base + x] = sc[base + x - w] + sc[base + x] + sc[base + x + w] }
                }
            }
            // 2b. Green at red and blue photosites, 3 further in than the estimate's area.
            let greenEdge = valid + 3
            let v0 = ws.variation(0)
            let v1 = ws.variation(1)
            let v2 = ws.variation(2)
            let v3 = ws.variation(3)
            for y in greenEdge..<(h - greenEdge) {
                let row = (y % 6) * 6
                var pos = row + greenEdge % 6
                for x in greenEdge..<(w - greenEdge) {
                    defer { pos = pos == row + 5 ? row : pos + 1 }
                    let own = t.colors[pos]
                    guard own != 1 else { continue }
                    let i = y * w + x
                    let ownPlane = own == 0 ? r : b
                    var sum: Float = 0
                    var weights: Float = 0
                    @inline(__always) func direction(_ d: Int, _ s: Int, _ variation: Float) {
                        let plus = Int(t.greenSteps[pos * 8 + 2 * d])
                        let minus = Int(t.greenSteps[pos * 8 + 2 * d + 1])
                        guard plus | minus != 0 else { return }
                        let qp = i + plus * s
                        let qm = i - minus * s
                        let diff =
                            t.greenWeights[pos * 8 + 2 * d] * (g[qp] - ownPlane[qp]) + t.greenWeights[pos * 8 + 2 * d + 1]
                            * (g[qm] - ownPlane[qm])
                        let e = Self.epsilon + variation
                        let wd = 1 / (e * e)
                        sum += wd * (m[i] + diff)
                        weights += wd
                    }
                    direction(0, s0, v0[i])
                    direction(1, s1, v1[i])
                    direction(2, s2, v2[i])
                    direction(3, s3, v3[i])
                    if weights > 0 { g[i] = sum / weights }
                }
            }
            // 2c. Red and blue where missing, 2 further in.
            let colourEdge = greenEdge + 2
            for y in colourEdge..<(h - colourEdge) {
                let row = (y % 6) * 6
                var pos = row + colourEdge % 6
                for x in colourEdge..<(w - colourEdge) {
                    let own = t.colors[pos]
                    let i = y * w + x
                    let gi = g[i]
                    @inline(__always) func rebuild(_ slot: Int, _ target: UnsafeMutablePointer<Float>) {
                        let k = pos * 2 + slot
                        var sum: Float = 0
                        var weights: Float = 0
                        for j in Int(t.differenceStart[k])..<Int(t.differenceStart[k + 1]) {
                            let q = i + Int(t.differenceOffset[j])
                            let wq = t.differenceWeight[j] / (Self.epsilon + abs(g[q] - gi))
                            sum += wq * (m[q] - g[q])
                            weights += wq
                        }
                        target[i] = gi + sum / weights
                    }
                    if own != 0 { rebuild(0, r) }
                    if own != 2 { rebuild(1, b) }
                    pos = pos == row + 5 ? row : pos + 1
                }
            }
            valid = colourEdge
        }
    }
}
