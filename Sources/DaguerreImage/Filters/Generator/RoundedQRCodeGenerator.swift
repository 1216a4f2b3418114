import CQREncode
import DaguerreCore
import Foundation

/// A QR code drawn with rounded shapes (CIRoundedQRCodeGenerator; SPEC I4): `message` encoded by
/// libqrencode at `correctionLevel` as ``QRCodeGenerator`` encodes it, drawn at `scale` pixels
/// per module with a one-module border, `color1` on `color0`, antialiased. New in SDK 26; Core
/// Image publishes neither the shapes nor defaults, so these are ours:
/// - `roundedData`: each dark data module a disc filling its cell (otherwise a square);
/// - `roundedMarkers`: the three finder patterns as squares (0), squares with rounded corners
///   (1: the outer ring's corners 1.5 modules, the inner ones 0.5), or circles (2), each keeping
///   the 1:1:3:1:1 proportions readers look for;
/// - `centerSpaceSize`: a square of that fraction of the symbol's side, centred, left empty for
///   a logo (data modules only); the error correction must restore what it hides, so pair it
///   with level H (30 %) and keep it small.
/// Its keys have no `input` prefix, as Core Image's.
///
/// ```swift
/// let code = try RoundedQRCodeGenerator(message: Array("https://example.com".utf8), correctionLevel: "H", centerSpaceSize: 0.2).outputImage()
/// ```
public struct RoundedQRCodeGenerator: Filter {
    public var message: [UInt8]?
    public var correctionLevel: String = "M"
    public var scale: Double = 10
    public var roundedMarkers: Double = 2
    public var roundedData = true
    public var centerSpaceSize: Double = 0
    public var color0: Color = .white
    public var color1: Color = .black

    public init() {}
    public init(
        message: [UInt8]? = nil, correctionLevel: String = Self.defaults.correctionLevel, scale: Double = Self.defaults.scale,
        roundedMarkers: Double = Self.defaults.roundedMarkers, roundedData: Bool = Self.defaults.roundedData,
        centerSpaceSize: Double = Self.defaults.centerSpaceSize, color0: Color = Self.defaults.color0, color1: Color = Self.defaults.color1
    ) {
        (self.message, self.correctionLevel, self.scale, self.roundedMarkers) = (message, correctionLevel, scale, roundedMarkers)
        (self.roundedData, self.centerSpaceSize, self.color0, self.color1) = (roundedData, centerSpaceSize, color0, color1)
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "RoundedQRCodeGenerator", displayName: "Rounded QR Code Generator", categories: [.generator, .stillImage, .builtIn],
        description: "A QR code of the message with rounded modules and finder patterns.",
        parameters: [
            .data(\.message, "message", "The bytes to encode (by name also a string, as UTF-8)."),
            .string(\.correctionLevel, "correctionLevel", "L, M, Q or H: 7, 15, 25 or 30 % of the code can be restored."),
            .scalar(\.scale, "scale", "Pixels per module.", min: 1, max: 100, sliderMax: 40),
            .integer(\.roundedMarkers, "roundedMarkers", "Finder patterns: 0 squares, 1 rounded squares, 2 circles.", min: 0, max: 2),
            .boolean(\.roundedData, "roundedData", "Draw data modules as discs."),
            .scalar(\.centerSpaceSize, "centerSpaceSize", "The empty centre, as a fraction of the symbol's side.", min: 0, max: 0.5),
            .color(\.color0, "color0", "The background."),
            .color(\.color1, "color1", "The modules."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let symbol = try QRCodeGenerator.encode(
            message, level: correctionLevel, refusing: Self.self, message: \.message, level: \.correctionLevel)
        let drawing = RoundedQRDrawing(
            size: symbol.width, modules: symbol.modules, scale: scale, markers: Int(roundedMarkers), roundedData: roundedData,
            centerSpace: centerSpaceSize)
        let side = (Double(symbol.width + 2) * scale).rounded(.up)
        let (c0, c1, digestNumbers) = (color0, color1, [scale, roundedMarkers, roundedData ? 1 : 0, centerSpaceSize])
        return Image(
            GeneratorNode(
                name: "roundedQRCode", extent: Rect(x: 0, y: 0, width: side, height: side),
                parameters: "\(symbol.width) modules at \(scale) px",
                digest: { d in
                    d.add(digestNumbers)
                    d.add([c0.red, c0.green, c0.blue, c0.alpha, c1.red, c1.green, c1.blue, c1.alpha])
                    d.add(c0.colorSpace)
                    d.add(c1.colorSpace)
                    symbol.modules.withUnsafeBytes { d.add(bytes: $0) }
                }
            ) { working in
                let (back, ink) = (c0.premultiplied(in: working), c1.premultiplied(in: working))
                return { span in
                    let y = Double(span.y) + 0.5
                    for i in 0..<span.count {
                        let k = drawing.coverage(x: Double(span.x + i) + 0.5, y: y)
                        span.pixels[i] = back + (ink - back) * k
                    }
                }
            })
    }
}

/// Where a rounded QR code is dark: each pixel's coverage from the signed distance (in pixels)
/// to the shape that covers it, clamp(½ − d, 0, 1).
struct RoundedQRDrawing: Sendable {
    let size: Int
    let dark: [Bool]
    let scale: Double
    let markers: Int
    let roundedData: Bool

    init(size: Int, modules: [UInt8], scale: Double, markers: Int, roundedData: Bool, centerSpace: Double) {
        self.size = size
        self.scale = scale
        self.markers = markers
        self.roundedData = roundedData
        let half = centerSpace * Double(size) / 2
        let mid = Double(size) / 2
        let inClear = { (x: Int, y: Int) -> Bool in
            guard half > 0 else { return false }
            let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
            return abs(cx - mid) < half && abs(cy - mid) < half
        }
        // Data modules (libqrencode's bit 1) under the empty centre are left light.
        dark = (0..<(size * size)).map { i in
            let m = modules[i]
            return m & 1 == 1 && !(m & 2 == 2 && inClear(i % size, i / size))
        }
    }

    func coverage(x px: Double, y py: Double) -> Float {
        // Module coordinates, the symbol starting one module in.
        let u = px / scale - 1
        let v = py / scale - 1
        let n = Double(size)
        for (cx, cy) in [(3.5, 3.5), (n - 3.5, 3.5), (3.5, n - 3.5)] where abs(u - cx) < 4 && abs(v - cy) < 4 {
            return RoundedBox.coverage(marker(u - cx, v - cy) * scale)
        }
        let (mx, my) = (Int(u.rounded(.down)), Int(v.rounded(.down)))
        guard mx >= 0, my >= 0, mx < size, my < size, dark[my * size + mx] else { return 0 }
        let (du, dv) = (u - Double(mx) - 0.5, v - Double(my) - 0.5)
        let d = roundedData ? (du * du + dv * dv).squareRoot() - 0.5 : max(abs(du), abs(dv)) - 0.5
        return RoundedBox.coverage(d * scale)
    }

    /// The signed distance, in modules, to a finder pattern's dark parts (a 7-module ring
    /// around a 3-module centre), (du, dv) from its centre.
    func marker(_ du: Double, _ dv: Double) -> Double {
        func shape(_ half: Double, _ radius: Double) -> Double {
            switch markers {
            case 2: return (du * du + dv * dv).squareRoot() - half
            default:
                let r = markers == 1 ? radius : 0
                let qx = abs(du) - (half - r)
                let qy = abs(dv) - (half - r)
                return (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot() + min(max(qx, qy), 0) - r
            }
        }
        let ring = max(shape(3.5, 1.5), -shape(2.5, 0.5))
        return min(ring, shape(1.5, 0.5))
    }
}
