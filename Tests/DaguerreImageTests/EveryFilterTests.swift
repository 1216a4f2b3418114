import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// What every registered filter owes, checked over the registry, so a new filter is covered by
/// adding it there: complete, consistent attributes; its defaults render; a render in small
/// tiles equals a render in one tile bit for bit; NaN and ±infinity in any numeric parameter
/// are refused with a typed error.
@Suite struct EveryFilterTests {
    static let names = FilterRegistry.all.map(\.name)

    /// 160×160 (NinePart's default breakpoints reach 150), smooth ramps with a fine pattern, and a
    /// band of partly transparent pixels so the alpha paths run too.
    static func makeInput() throws -> Image {
        let w = 160
        let h = 160
        var rng = SeededRandom(seed: 7)
        var buffer = try PixelBuffer(width: w, height: h, format: .rgbaf)
        let bpr = buffer.bytesPerRow
        buffer.withUnsafeMutableBytes { raw in
            for y in 0..<h {
                for x in 0..<w {
                    let a: Float = x >= 130 ? [0, 0.25, 0.5, 1][(x + y) % 4] : 1
                    let rgb = SIMD3<Float>(Float(x) / Float(w) * 1.1, 0.3 + 0.4 * rng.unit(), Float(y) / Float(h)) * a
                    raw.storeBytes(of: SIMD4(rgb.x, rgb.y, rgb.z, a), toByteOffset: y * bpr + x * 16, as: SIMD4<Float>.self)
                }
            }
        }
        return Image(buffer: buffer, colorSpace: .extendedLinearSRGB)
    }

    /// The test input for every image parameter, and a message for every data one (a code's).
    static func inputs(_ d: FilterDescriptor) throws -> [String: FilterValue] {
        let input = try makeInput()
        var values: [String: FilterValue] = [:]
        for p in d.parameters where p.kind == .image { values[p.key] = .image(input) }
        // A palette or a set of seeds is an N×1 strip of colours (Palettize compares every pixel
        // with each; KMeans makes a cluster of each).
        for key in ["inputPaletteImage", "inputMeans"] where values[key] != nil {
            values[key] = .image(input.cropped(to: Rect(x: 0, y: 0, width: 8, height: 1)))
        }
        for p in d.parameters where p.kind == .data { values[p.key] = .data(Array("Daguerre 1839".utf8)) }
        for p in d.parameters where p.kind == .barcodeDescriptor { values[p.key] = .barcodeDescriptor(.example) }
        for p in d.parameters where p.kind == .attributedText {
            values[p.key] = .attributedText(
                AttributedText([.init("Dague", fontSize: 14), .init("rre\n1839", fontSize: 20, color: .white)]))
        }
        return values
    }

    /// Renders `values` in tiles of `tile` (width, height), cropping an infinite result.
    static func render(_ d: FilterDescriptor, _ values: [String: FilterValue], tile: (Int, Int)) throws -> PixelBuffer {
        var image = try d.apply(values)
        if image.extent.isInfinite { image = image.cropped(to: Rect(x: -5, y: -3, width: 170, height: 165)) }
        let context = try Context(options: .init(tileWidth: tile.0, tileHeight: tile.1))
        return try context.createBuffer(image, format: .rgbaf, colorSpace: .extendedLinearSRGB)
    }

    @Test(arguments: names)
    func attributesAreCompleteAndConsistent(name: String) throws {
        let d = try FilterRegistry.descriptor(named: name)
        #expect(!d.displayName.isEmpty && !d.description.isEmpty && !d.categories.isEmpty, "\(name)")
        #expect(Set(d.parameters.map(\.key)).count == d.parameters.count, "\(name): a key is declared twice")
        // SDK 26's filters name their keys without the prefix (`extent`, `maximumDistance`).
        let catalogueKeys = Set(FilterCatalogue.entry(named: name)?.inputs.map(\.key) ?? [])
        for p in d.parameters {
            let what = "\(name).\(p.key)"
            #expect(
                p.key.hasPrefix("input") || catalogueKeys.contains(p.key),
                "\(what): Core Image keys start with 'input', unless the catalogue names them otherwise")
            #expect(!p.description.isEmpty, "\(what) has no description")
            if let lo = p.min, let hi = p.max { #expect(lo <= hi, "\(what): min \(lo) > max \(hi)") }
            if let lo = p.sliderMin, let hi = p.sliderMax { #expect(lo <= hi, "\(what): slider \(lo)…\(hi)") }
            for s in [p.sliderMin, p.sliderMax].compactMap({ $0 }) {
                #expect(s >= (p.min ?? -.infinity) && s <= (p.max ?? .infinity), "\(what): slider end \(s) outside the hard range")
            }
            guard ![.image, .data, .barcodeDescriptor].contains(p.kind) else {
                #expect(p.defaultValue == nil, "\(what): an image, a message or a code has no default")
                continue
            }
            // An optional number (an Aztec code's layers) has none: the filter chooses.
            if p.isOptional {
                #expect(p.defaultValue == nil, "\(what): an optional parameter has no default")
                continue
            }
            let value = try #require(p.defaultValue, "\(what) has no default")
            // The default is a valid value of the declared kind...
            do { _ = try d.apply(try Self.inputs(d).merging([p.key: value]) { $1 }) } catch {
                Issue.record("\(what): default \(value) is refused: \(error)")
            }
            // ... and inside the range.
            let numbers: [Double]
            switch value {
            case .number(let v): numbers = [v]
            case .vector(let v):
                numbers = v
                if let n = p.count { #expect(v.count == n, "\(what): default has \(v.count) components, declared \(n)") }
            default: numbers = []
            }
            for v in numbers { #expect(v >= (p.min ?? -.infinity) && v <= (p.max ?? .infinity), "\(what): default \(v) outside the range") }
        }
    }

    @Test(arguments: names)
    func defaultsRender(name: String) throws {
        let d = try FilterRegistry.descriptor(named: name)
        let out = try Self.render(d, try Self.inputs(d), tile: (512, 64))
        #expect(out.width > 0 && out.height > 0)
        var nonFinite = 0
        for y in 0..<out.height { for x in 0..<out.width where !pixelF(out, x, y).x.isFinite { nonFinite += 1 } }
        #expect(nonFinite == 0, "\(name): \(nonFinite) non-finite pixels with the defaults")
    }

    /// With the defaults, and with every scalar a tenth into its slider range (defaults are often
    /// the identity, which adds no node).
    @Test(arguments: names)
    func tiledRenderEqualsWholeRender(name: String) throws {
        let d = try FilterRegistry.descriptor(named: name)
        var moved = try Self.inputs(d)
        for p in d.parameters where p.kind == .scalar {
            if let lo = p.sliderMin, let hi = p.sliderMax { moved[p.key] = .number(lo + 0.1 * (hi - lo)) }
        }
        for (label, values) in [("defaults", try Self.inputs(d)), ("scalars moved", moved)] {
            let whole = try Self.render(d, values, tile: (4096, 4096))
            let tiled = try Self.render(d, values, tile: (16, 4))
            #expect(whole.width == tiled.width && whole.height == tiled.height)
            let a = tight(whole).bytes
            let b = tight(tiled).bytes
            let differing = zip(a, b).count(where: { $0 != $1 })
            #expect(differing == 0, "\(name), \(label): \(differing) of \(a.count) bytes differ between 16×4 tiles and one tile")
        }
    }

    /// NaN, +∞ and −∞ in each component of each numeric parameter: a typed error naming the
    /// parameter, never a crash or a render.
    @Test(arguments: names)
    func nonFiniteNumbersAreRefused(name: String) throws {
        let d = try FilterRegistry.descriptor(named: name)
        let images = try Self.inputs(d)
        for p in d.parameters where ![.image, .boolean, .colorSpace, .string, .data, .attributedText, .barcodeDescriptor].contains(p.kind) {
            let shape: [Double]
            switch p.defaultValue {
            case nil where p.isOptional: shape = [Double](repeating: 1, count: p.count ?? 1)
            case .number(let v)?: shape = [v]
            case .vector(let v)?: shape = v
            case .color?: shape = [0.5, 0.5, 0.5, 1]
            case .transform?: shape = [1, 0, 0, 1, 0, 0]
            case .rect?: shape = [0, 0, 10, 10]
            default:
                Issue.record("\(name).\(p.key): no numeric default to vary")
                continue
            }
            for bad in [Double.nan, .infinity, -.infinity] {
                for i in shape.indices {
                    var v = shape
                    v[i] = bad
                    let value: FilterValue = p.kind == .scalar || p.kind == .angle || p.kind == .integer ? .number(bad) : .vector(v)
                    do {
                        _ = try d.apply(images.merging([p.key: value]) { $1 })
                        Issue.record("\(name).\(p.key) = \(value) accepted")
                    } catch {
                        guard case .invalidParameter(let filter, let key, _) = error else {
                            Issue.record("\(name).\(p.key): got \(error)")
                            continue
                        }
                        #expect(filter == d.name && key == p.key, "\(name).\(p.key): the error names \(filter).\(key)")
                    }
                }
            }
        }
    }

    /// The typed API goes through the same checks as the by-name one.
    @Test func typedValuesAreCheckedToo() throws {
        let input = try Self.makeInput()
        let cases: [(any Filter, String)] = [
            (GaussianBlur(radius: .nan), "inputRadius"), (ExposureAdjust(ev: .infinity), "inputEV"),
            (ColorMatrix(r: [1, 0, 0, -.infinity]), "inputRVector"), (ToneCurve(points: [[0, 0], [.nan, 0.25]]), "inputPoint1"),
            (ColorClamp(maxComponents: [1, 1, 1]), "inputMaxComponents"), (SepiaTone(intensity: -1), "inputIntensity"),
            (SourceOverCompositing(), "inputBackgroundImage"),
        ]
        for (filter, key) in cases {
            do {
                _ = try input.applying(filter)
                Issue.record("\(filter) accepted")
            } catch {
                guard case .invalidParameter(_, let k, _) = error else {
                    Issue.record("\(filter): got \(error)")
                    continue
                }
                #expect(k == key, "\(filter): the error names \(k)")
            }
        }
        // A filter applied to an image it cannot take says so.
        #expect(throws: DaguerreError.self) { _ = try input.applying(ConstantColor()) }
    }

    /// What a filter is told by name, it holds as typed values, and the other way round.
    @Test func byNameAndTypedValuesAgree() throws {
        let typed = RadialGradient(center: [30, 40], radius0: 2, radius1: 50, color0: .black, color1: .white)
        #expect(typed.values["inputCenter"].map { "\($0)" } == "[30 40]")
        #expect(typed.values["inputRadius1"].map { "\($0)" } == "50")
        let named = try RadialGradient.descriptor.apply(typed.values)
        #expect(named.digest == (try typed.outputImage()).digest)
        #expect(ToneCurve(points: [[0, 0.1]]).points == [[0, 0.1], [0.25, 0.25], [0.5, 0.5], [0.75, 0.75], [1, 1]])
    }
}
