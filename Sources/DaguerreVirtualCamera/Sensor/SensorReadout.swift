// One exposure and readout of the simulated sensor (SPEC C4, R1): light from the optical image,
// integrated over the exposure along the camera's motion, row by row as a rolling shutter reads
// it; then shot noise, fixed-pattern noise, read noise before and after the analog gain, full
// well, black level and the 10-bit ADC stored in 14 bits. Our own code (no library simulates a
// sensor); tuned to a few ns per photosite so a 12 MP still takes well under 100 ms.
import DaguerreCore
import DaguerreFormats
import Dispatch
import Foundation

/// Everything one readout needs.
struct ReadoutRequest: Sendable {
    var sensor: SensorModel
    var optical: OpticalImage
    /// Mode pixels per full-resolution pixel (motion is given in full-resolution pixels).
    var motionScale: Double
    var lux: Double
    var exposure: Double
    var iso: Double
    var startTime: Double
    var motion: CameraMotion
    var stabilized: Bool
    var stabilizationReduction: Double
    var seed: UInt64
    var frameIndex: UInt64
    /// Extra light from a flash pulse: the optical image lit by the flash's light, and the pulse's
    /// exposure (lux-seconds) at one metre, which falls off with the square of the distance.
    var flash: FlashPulse?
    /// Discs moving in front of the scene, with their camera response per lux (R, G, B).
    var objects: [(object: MovingObject, response: SIMD3<Float>)] = []
    /// The share of the 4:3 field's width and height this mode sees (16:9 crops the height).
    var fieldSpan = SIMD2<Double>(1, 1)
}

enum SensorReadout {
    /// Reads one frame. Deterministic for (seed, frameIndex): every row has its own noise stream.
    static func read(_ q: ReadoutRequest) throws(DaguerreError) -> BayerImage {
        let s = q.sensor
        let w = s.width
        let h = s.height
        let count = w * h
        let gain = s.analogGain(iso: q.iso)
        let dnPerElectron = Float(gain / s.electronsPerDN)
        let ePerLuxSecond = Float(s.electronsPerLuxSecond)
        let black = Float(s.blackLevelDN)
        let maxDN = Float((1 << s.adcBits) - 1)
        let scale = UInt16(s.storedScale)
        let fullWell = Float(s.fullWellElectrons)
        let readVar = Float(s.readNoiseElectrons * s.readNoiseElectrons)
        let post = Float(s.postGainReadNoiseDN)
        let prnu = Float(s.prnu)
        let dsnu = Float(s.dsnuElectrons)
        let table = GaussianTable.shared.values
        let channel = s.filterColors
        let exposure = Float(q.exposure)
        var samples = [UInt16](repeating: 0, count: count)
        samples.withUnsafeMutableBufferPointer { out in
            let dst = UnsafeTransfer(out.baseAddress!)
            table.withUnsafeBufferPointer { tbl in
                let t = UnsafeTransfer(UnsafeMutablePointer(mutating: tbl.baseAddress!))
                q.optical.planes[0].withUnsafeBufferPointer { p0 in
                    q.optical.planes[1].withUnsafeBufferPointer { p1 in
                        q.optical.planes[2].withUnsafeBufferPointer { p2 in
                            // Safety: read-only pointers into arrays that outlive the `WorkerPool.forEach` using them.
                            let shared = UnsafeTransfer([p0.baseAddress!, p1.baseAddress!, p2.baseAddress!])
                            WorkerPool.forEach(h) { y in
                                let planes = shared.value
                                let rowStart = q.startTime + Double(y) / Double(h) * s.readoutTime
                                let taps = motionTaps(q, rowStart: rowStart)
                                var noise = SplitMix64(seed: q.seed, q.frameIndex, UInt64(y))
                                var uniform = SplitMix64(seed: q.seed ^ 0x5EED, q.frameIndex, UInt64(y))
                                let row = dst.value + y * w
                                let gauss = UnsafePointer(t.value)
                                // The row's light: each tap is one shifted, bilinear copy of the two
                                // planes this row's CFA colours read.
                                let light = UnsafeMutablePointer<Float>.allocate(capacity: w)
                                defer { light.deallocate() }
                                light.initialize(repeating: 0, count: w)
                                for (tap, time) in zip(taps.offsets, taps.times) {
                                    accumulate(tap, y: y, into: light, planes: planes, cfa: channel, w: w, h: h)
                                    for object in q.objects {
                                        overlay(
                                            object.object, response: object.response, tap: tap, time: time, y: y, into: light,
                                            planes: planes, cfa: channel, w: w, h: h, span: q.fieldSpan)
                                    }
                                }
                                // Mean electrons: ambient light over the exposure, plus a flash pulse.
                                let weight = taps.weight * ePerLuxSecond * exposure
                                for x in 0..<w { light[x] *= weight }
                                if let flash = q.flash {
                                    let pulse = Float(flash.luxSecondsAtOneMetre) * ePerLuxSecond
                                    for x in 0..<w {
                                        let i = y * w + x
                                        let d = max(q.optical.distance[i], 0.1)
                                        light[x] += flash.optical.planes[channel.color(x: x, y: y)][i] * pulse / (d * d)
                                    }
                                }
                                let readSigma = readVar.squareRoot()
                                let base = y * w
                                // Photosites in pairs (every mode is an even number wide): one hash gives
                                // both photosites' fixed patterns, one 64-bit draw both their noise.
                                var x = 0
                                while x < w {
                                    let fixed = fixedPattern(s.patternSeed, (base + x) >> 1)
                                    let draw = noise.next()
                                    for k in 0..<2 {
                                        let f = fixed >> UInt64(32 * k)
                                        let d = draw >> UInt64(32 * k)
                                        var mean = light[x + k] * (1 + prnu * gauss[Int(f & 0xFFF)]) + dsnu * gauss[Int((f >> 16) & 0xFFF)]
                                        mean = min(max(mean, 0), fullWell)
                                        let shot = gauss[Int(d & 0xFFF)]
                                        let read = gauss[Int((d >> 16) & 0xFFF)]
                                        var electrons: Float
                                        if mean < 12 {
                                            electrons = Float(poisson(Double(mean), &uniform)) + readSigma * shot
                                        } else {
                                            electrons = mean + (mean + readVar).squareRoot() * shot
                                        }
                                        electrons = min(electrons, fullWell)
                                        let dn = electrons * dnPerElectron + post * read + black
                                        // Rounded to an integer code by the 1.5·2²³ trick (no trap checks; clamped first).
                                        let code = UInt16(truncatingIfNeeded: (min(max(dn, 0), maxDN) + 12_582_912).bitPattern)
                                        row[x + k] = code &* scale
                                    }
                                    x += 2
                                }
                            }
                        }
                    }
                }
            }
        }
        let storedBlack = s.blackLevelDN * Double(s.storedScale)
        var mosaic = try BayerImage(
            width: w, height: h, pattern: s.pattern, bitsPerSample: s.storedBits, samples: samples,
            blackLevel: [storedBlack, storedBlack, storedBlack, storedBlack],
            whiteLevel: Int(maxDN) * Int(s.storedScale))
        mosaic.xTrans = s.xTrans
        return mosaic
    }

    /// The positions a row's photosites sample during its exposure (in mode pixels) and the
    /// weight of each: one tap when the image moves less than a quarter pixel, otherwise one
    /// bilinear tap per pixel of path (at least two, at most 32), which samples the smear
    /// without gaps.
    static func motionTaps(_ q: ReadoutRequest, rowStart: Double) -> (offsets: [SIMD2<Double>], times: [Double], weight: Float) {
        let r = q.stabilizationReduction
        let start = q.motion.displacement(at: rowStart, stabilized: q.stabilized, reduction: r) * q.motionScale
        var path = 0.0
        var previous = start
        for k in 1...8 {
            let p = q.motion.displacement(at: rowStart + q.exposure * Double(k) / 8, stabilized: q.stabilized, reduction: r) * q.motionScale
            path += ((p - previous) * (p - previous)).sum().squareRoot()
            previous = p
        }
        // Moving objects need taps along their own paths too (in mode pixels).
        for o in q.objects {
            let travel =
                o.object.velocity * q.exposure * SIMD2(Double(q.sensor.width) / q.fieldSpan.x, Double(q.sensor.height) / q.fieldSpan.y)
            path = max(path, (travel * travel).sum().squareRoot())
        }
        let light = Float(q.lux) * Float(q.motion.lightFactor(at: rowStart + q.exposure / 2))
        if path < 0.25 { return ([start], [rowStart + q.exposure / 2], light) }
        let n = Int(min(32, max(2, path.rounded(.up) + 1)))
        let times = (0..<n).map { rowStart + q.exposure * (Double($0) + 0.5) / Double(n) }
        let offsets = times.map { q.motion.displacement(at: $0, stabilized: q.stabilized, reduction: r) * q.motionScale }
        return (offsets, times, light / Float(n))
    }

    /// Replaces one tap's scene light with a moving disc's where the disc covers row `y`.
    static func overlay(
        _ o: MovingObject, response: SIMD3<Float>, tap: SIMD2<Double>, time: Double, y: Int,
        into light: UnsafeMutablePointer<Float>, planes: [UnsafePointer<Float>], cfa: SensorFilterColors, w: Int, h: Int,
        span: SIMD2<Double>
    ) {
        let p = o.position(at: time)
        // Field → mode pixels (centred crop), then the camera's shift (the image moves against it).
        let cx = (p.x - 0.5) / span.x * Double(w) + Double(w) / 2 - 0.5 - tap.x
        let cy = (p.y - 0.5) / span.y * Double(h) + Double(h) / 2 - 0.5 - tap.y
        let radius = o.radius / span.x * Double(w)
        let dy = Double(y) - cy
        guard abs(dy) < radius else { return }
        let half = (radius * radius - dy * dy).squareRoot()
        let x0 = max(0, Int((cx - half).rounded(.up)))
        let x1 = min(w - 1, Int((cx + half).rounded(.down)))
        guard x0 <= x1 else { return }
        let sy = min(max(Double(y) + tap.y, 0), Double(h - 1))
        let y0 = Int(sy)
        let y1 = min(y0 + 1, h - 1)
        let fy = Float(sy - Double(y0))
        let fx0 = tap.x.rounded(.down)
        let ix = Int(fx0)
        let fx = Float(tap.x - fx0)
        for x in x0...x1 {
            let c = cfa.color(x: x, y: y)
            let plane = planes[c]
            let a = min(max(x + ix, 0), w - 1)
            let b = min(a + 1, w - 1)
            let top = plane[y0 * w + a] + (plane[y0 * w + b] - plane[y0 * w + a]) * fx
            let bottom = plane[y1 * w + a] + (plane[y1 * w + b] - plane[y1 * w + a]) * fx
            light[x] += response[c] - (top + (bottom - top) * fy)
        }
    }

    /// Adds one tap's light to `light`: the planes of the row's CFA colours (two on a Bayer
    /// row, three on an X-Trans row), shifted by `tap` (mode pixels) with bilinear weights,
    /// edges clamped.
    static func accumulate(
        _ tap: SIMD2<Double>, y: Int, into light: UnsafeMutablePointer<Float>, planes: [UnsafePointer<Float>], cfa: SensorFilterColors,
        w: Int, h: Int
    ) {
        let sy = min(max(Double(y) + tap.y, 0), Double(h - 1))
        let y0 = Int(sy)
        let y1 = min(y0 + 1, h - 1)
        let fy = Float(sy - Double(y0))
        let fx0 = tap.x.rounded(.down)
        let ix = Int(fx0)
        let fx = Float(tap.x - fx0)
        let w00 = (1 - fx) * (1 - fy)
        let w01 = fx * (1 - fy)
        let w10 = (1 - fx) * fy
        let w11 = fx * fy
        if fx == 0, fy == 0 {
            // A whole-pixel shift (always, on a tripod): one load per photosite.
            for phase in 0..<cfa.period {
                let r0 = planes[cfa.color(x: phase, y: y)] + y0 * w
                var x = phase
                while x < w {
                    light[x] += r0[min(max(x + ix, 0), w - 1)]
                    x += cfa.period
                }
            }
            return
        }
        for phase in 0..<cfa.period {
            let plane = planes[cfa.color(x: phase, y: y)]
            let r0 = plane + y0 * w
            let r1 = plane + y1 * w
            // Columns whose source pair lies inside the row need no clamping.
            let lo = max(0, -ix)
            let hi = min(w, w - 1 - ix)
            var x = phase
            while x < w {
                let a: Int
                let b: Int
                if x >= lo && x < hi {
                    a = x + ix
                    b = a + 1
                } else {
                    a = min(max(x + ix, 0), w - 1)
                    b = min(a + 1, w - 1)
                }
                light[x] += w00 * r0[a] + w01 * r0[b] + w10 * r1[a] + w11 * r1[b]
                x += cfa.period
            }
        }
    }

    /// A per-photosite hash (the MurmurHash3 finalizer) for the fixed patterns.
    @inline(__always)
    static func fixedPattern(_ seed: UInt64, _ i: Int) -> UInt64 {
        var z = UInt64(truncatingIfNeeded: i) &+ seed &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        z = (z ^ (z >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return z ^ (z >> 33)
    }

    /// An exact Poisson deviate for small means (Knuth's product of uniforms).
    static func poisson(_ mean: Double, _ rng: inout SplitMix64) -> Int {
        let limit = exp(-mean)
        var k = 0
        var p = 1.0
        repeat {
            k += 1
            p *= rng.uniform()
        } while p > limit && k < 200
        return k - 1
    }
}

/// A flash pulse: the scene lit by the flash's own light, and the pulse's exposure at 1 m.
struct FlashPulse: Sendable {
    var optical: OpticalImage
    var luxSecondsAtOneMetre: Double
}
