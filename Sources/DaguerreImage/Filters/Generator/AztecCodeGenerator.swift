import CZintShim
import DaguerreCore

/// An Aztec code (CIAztecCodeGenerator; ISO/IEC 24778) of `message`'s bytes, encoded by libzint.
/// `correctionLevel` is the share of the symbol given to error correction, in percent: libzint
/// offers 10, 23, 36 and 50 % (each plus 3 codewords), and the smallest of those at or above the
/// percentage asked is used (50 % above it). `layers` fixes the size (1–4 compact, 1–32 full);
/// absent, the smallest symbol that holds the message is chosen, compact when `compactStyle` asks
/// for it (then the message must fit 4 compact layers). Drawn as Core Image draws codes: one
/// pixel per module, black on white, with a one-module white border. An empty message, one too
/// long for the size asked, or a compact symbol of more than 4 layers is a typed error.
///
/// ```swift
/// let code = try AztecCodeGenerator(message: Array("https://example.com".utf8), correctionLevel: 36).outputImage()
/// ```
public struct AztecCodeGenerator: Filter {
    public var message: [UInt8]?
    public var correctionLevel: Double = 23
    public var layers: Double?
    public var compactStyle = false

    public init() {}
    public init(
        message: [UInt8]? = nil, correctionLevel: Double = Self.defaults.correctionLevel, layers: Double? = nil,
        compactStyle: Bool = Self.defaults.compactStyle
    ) {
        self.message = message
        self.correctionLevel = correctionLevel
        self.layers = layers
        self.compactStyle = compactStyle
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "AztecCodeGenerator", displayName: "Aztec Code Generator", categories: [.generator, .stillImage, .builtIn],
        description: "An Aztec code of the message, one pixel per module.",
        parameters: [
            .data(\.message, "inputMessage", "The bytes to encode (by name also a string, as UTF-8)."),
            .integer(\.correctionLevel, "inputCorrectionLevel", "Error correction, in percent of the symbol.", min: 5, max: 95),
            .optionalInteger(\.layers, "inputLayers", "The symbol's layers (absent: the fewest that hold the message).", min: 1, max: 32),
            .boolean(\.compactStyle, "inputCompactStyle", "Use a compact symbol (up to 4 layers)."),
        ])

    /// libzint's level (1–4) for a percentage: the smallest of 10, 23, 36, 50 at or above it.
    static func zintLevel(_ percent: Double) -> Int32 {
        percent <= 10 ? 1 : percent <= 23 ? 2 : percent <= 36 ? 3 : 4
    }

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let level = Self.zintLevel(correctionLevel)
        let message = self.message ?? []
        var symbol: ZintSymbol
        if let layers {
            let n = Int32(layers.rounded())
            if compactStyle && n > 4 {
                throw Self.invalid(\.layers, "a compact Aztec code has 1 to 4 layers, not \(n); ask for fewer or a full-size symbol")
            }
            // libzint's size option: 1–4 compact, 5–36 full-size with 1–32 layers.
            symbol = try ZintSymbol.encode(
                message, symbology: CZINT_AZTEC, options: (level, compactStyle ? n : n + 4, ZintSymbol.automatic), for: Self.self,
                key: \.message)
        } else if compactStyle {
            var found: ZintSymbol?
            for n in Int32(1)...4 {
                if let s = try? ZintSymbol.encode(
                    message, symbology: CZINT_AZTEC, options: (level, n, ZintSymbol.automatic), for: Self.self, key: \.message)
                {
                    found = s
                    break
                }
            }
            guard let found else {
                _ = try ZintSymbol.encode(
                    message, symbology: CZINT_AZTEC, options: (level, ZintSymbol.automatic, ZintSymbol.automatic), for: Self.self,
                    key: \.message)
                throw Self.invalid(\.compactStyle, "the message does not fit a compact Aztec code (4 layers); turn compact style off")
            }
            symbol = found
        } else {
            symbol = try ZintSymbol.encode(
                message, symbology: CZINT_AZTEC, options: (level, ZintSymbol.automatic, ZintSymbol.automatic), for: Self.self,
                key: \.message)
        }
        return ModuleBitmap(width: symbol.width, height: symbol.rows, dark: symbol.dark, quietX: 1, quietY: 1).image(name: "aztecCode")
    }
}
