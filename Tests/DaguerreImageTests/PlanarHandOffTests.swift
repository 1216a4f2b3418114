import DaguerreCore
import Foundation
import Testing

@testable import DaguerreImage

/// A planar run reads planes straight from an 8-bit source and hands planes straight to an
/// 8-bit RGB output, with no transposes; both hand-offs give exactly what the interleaved path
/// gives (compared against it, libvips style).
@Suite struct PlanarHandOffTests {
    struct Rand {
        var s: UInt64
        mutating func next() -> UInt64 {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return s >> 33
        }
    }

    /// Planes of `n` floats.
    final class Planes {
        let n: Int
        let r, g, b, a: UnsafeMutablePointer<Float>
        init(_ n: Int) {
            self.n = n
            r = .allocate(capacity: n)
            g = .allocate(capacity: n)
            b = .allocate(capacity: n)
            a = .allocate(capacity: n)
        }
        var span: PlanarSpan { PlanarSpan(r: r, g: g, b: b, a: a, count: n) }
        deinit {
            r.deallocate()
            g.deallocate()
            b.deallocate()
            a.deallocate()
        }
    }

    @Test(
        arguments: [
            (PixelFormat.rgb8, PixelBuffer.AlphaMode.premultiplied), (.rgba8, .straight), (.rgba8, .premultiplied), (.l8, .premultiplied),
        ],
        [ColorSpace.sRGB, .displayP3])
    func sourcePlanesEqualInterleavedRows(source: (PixelFormat, PixelBuffer.AlphaMode), space: ColorSpace) throws {
        let (format, alpha) = source
        let conv = try SourceConverter(format: format, alpha: alpha, space: space, working: .extendedLinearSRGB)
        #expect(conv.convertsToPlanes)
        let n = 67
        var rng = Rand(s: 7)
        let bytes = (0..<(n * format.bytesPerPixel)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        var rows = [SIMD4<Float>](repeating: .zero, count: n)
        let planes = Planes(n)
        let opaque = bytes.withUnsafeBytes { src in
            rows.withUnsafeMutableBufferPointer { conv.convert(src.baseAddress!, count: n, into: $0.baseAddress!) }
            return conv.convertPlanar(src.baseAddress!, count: n, into: planes.span)
        }
        #expect(opaque == !format.hasAlpha)
        for i in 0..<n {
            let p = SIMD4(planes.r[i], planes.g[i], planes.b[i], planes.a[i])
            #expect(
                p.x.bitPattern == rows[i].x.bitPattern && p.y.bitPattern == rows[i].y.bitPattern
                    && p.z.bitPattern == rows[i].z.bitPattern && p.w.bitPattern == rows[i].w.bitPattern, "\(i): \(p) vs \(rows[i])")
        }
        // Formats outside the planar reader keep the interleaved path.
        #expect(try !SourceConverter(format: .rgb16, alpha: .premultiplied, space: space, working: .extendedLinearSRGB).convertsToPlanes)
    }

    @Test(arguments: [ColorSpace.sRGB, .displayP3, .extendedLinearSRGB])
    func outputFromPlanesEqualsInterleavedRows(destination: ColorSpace) throws {
        let conv = try OutputConverter(
            format: .rgb8, alpha: .none, destination: destination, working: .extendedLinearSRGB, workingFormat: .rgbah)
        #expect(conv.packsPlanes)
        #expect(
            try !OutputConverter(
                format: .rgba8, alpha: .straight, destination: destination, working: .extendedLinearSRGB, workingFormat: .rgbah
            ).packsPlanes)
        for opaque in [true, false] {
            let n = 131
            var rng = Rand(s: opaque ? 11 : 12)
            func value() -> Float { Float(Int(rng.next() % 4000)) / 2000 - 0.5 }  // −0.5 … 1.5
            let planes = Planes(n)
            var rows = [SIMD4<Float>](repeating: .zero, count: n)
            for i in 0..<n {
                let al: Float = opaque ? 1 : [0, 0.25, 0.5, 1][Int(rng.next() % 4)]
                planes.r[i] = value()
                planes.g[i] = value()
                planes.b[i] = value()
                planes.a[i] = al
                // What the planar run's interleave gives: premultiplied.
                rows[i] = SIMD4(planes.r[i] * al, planes.g[i] * al, planes.b[i] * al, al)
            }
            var want = [UInt8](repeating: 0, count: 3 * n)
            var got = [UInt8](repeating: 1, count: 3 * n)
            rows.withUnsafeMutableBufferPointer { px in
                want.withUnsafeMutableBytes { conv.convert(px.baseAddress!, count: n, into: $0.baseAddress!) }
            }
            let scratch = UnsafeMutablePointer<UInt16>.allocate(capacity: 3 * n)
            defer { scratch.deallocate() }
            got.withUnsafeMutableBytes { conv.convert(planes: planes.span, scratch: scratch, into: $0.baseAddress!) }
            #expect(got == want, "opaque \(opaque)")
        }
    }

    /// The benchmark's eight filters (scripts/bench --only fusion): the default ToneCurve is no
    /// node, and the rest form one planar run of seven kernels.
    static func benchmarkChain(_ i: Image) throws -> Image {
        try i.applying(ExposureAdjust(ev: 0.3))
            .applying(ColorMatrix(r: [0.9, 0.1, 0, 0], g: [0.05, 0.9, 0.05, 0], b: [0, 0.1, 0.9, 0]))
            .applying(ColorControls(saturation: 1.1))
            .applying(Vibrance(amount: 0.2))
            .applying(GammaAdjust(power: 0.95))
            .applying(TemperatureAndTint(neutral: [6000, 0]))
            .applying(ToneCurve())
            .applying(ColorClamp())
    }

    /// End to end: the benchmark's chain from an RGB8 source into RGB8 reads and packs planes;
    /// from a BGRA8 copy of the same bytes (which the planar reader does not take) it transposes
    /// in; into RGBA8 it transposes out. All give the same bytes, and the level-8 report says
    /// which way each went.
    @Test func fusedChainGivesTheSameBytesWithOrWithoutTransposes() throws {
        let context = try Context()
        let bgra = try context.createBuffer(try Kodak.image(4), format: .bgra8, colorSpace: .sRGB)
        var rgb = try PixelBuffer(width: bgra.width, height: bgra.height, format: .rgb8, colorSpace: .sRGB)
        let bpr = rgb.bytesPerRow
        rgb.withUnsafeMutableBytes { raw in
            for y in 0..<bgra.height {
                let s = bgra.rowAddress(y)
                let d = raw.baseAddress! + y * bpr
                for x in 0..<bgra.width {
                    d.storeBytes(of: s.load(fromByteOffset: 4 * x + 2, as: UInt8.self), toByteOffset: 3 * x, as: UInt8.self)
                    d.storeBytes(of: s.load(fromByteOffset: 4 * x + 1, as: UInt8.self), toByteOffset: 3 * x + 1, as: UInt8.self)
                    d.storeBytes(of: s.load(fromByteOffset: 4 * x, as: UInt8.self), toByteOffset: 3 * x + 2, as: UInt8.self)
                }
            }
        }
        func topLine(_ c: Context) throws -> String { try #require(c.lastRenderReport?.passes.first?.nodes.first) }

        let planar = try context.createBuffer(
            try Self.benchmarkChain(Image(buffer: rgb, colorSpace: .sRGB)), format: .rgb8, colorSpace: .sRGB)
        let planarLine = try topLine(context)
        #expect(
            planarLine.contains("[planar run of 7 kernels: source read into planes, output packed from planes: no transposes]"),
            "\(planarLine)")

        let transposedIn = try context.createBuffer(
            try Self.benchmarkChain(Image(buffer: bgra, colorSpace: .sRGB)), format: .rgb8, colorSpace: .sRGB)
        let inLine = try topLine(context)
        #expect(inLine.contains("one transpose in, output packed from planes"), "\(inLine)")

        let transposedOut = try context.createBuffer(
            try Self.benchmarkChain(Image(buffer: rgb, colorSpace: .sRGB)), format: .rgba8, colorSpace: .sRGB)
        let outLine = try topLine(context)
        #expect(outLine.contains("source read into planes, one transpose out"), "\(outLine)")

        var differing = 0
        for y in 0..<planar.height {
            let p = planar.rowAddress(y)
            let t = transposedIn.rowAddress(y)
            let o = transposedOut.rowAddress(y)
            for x in 0..<planar.width {
                for c in 0..<3 {
                    let v = p.load(fromByteOffset: 3 * x + c, as: UInt8.self)
                    if v != t.load(fromByteOffset: 3 * x + c, as: UInt8.self) || v != o.load(fromByteOffset: 4 * x + c, as: UInt8.self) {
                        differing += 1
                    }
                }
            }
        }
        #expect(differing == 0)
    }
}
