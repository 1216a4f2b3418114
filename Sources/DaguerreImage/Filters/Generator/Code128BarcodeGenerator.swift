import CZintShim
import DaguerreCore

/// A Code 128 barcode (CICode128BarcodeGenerator; ISO/IEC 15417) of `message`'s bytes, encoded by
/// libzint (it picks code sets A, B and C to keep the symbol short). Drawn as Core Image draws
/// it: one pixel per module, black bars on white, `barcodeHeight` pixels tall, with
/// `quietSpace` white pixels on each side (left, right, above and below); scale it up with a
/// nearest-neighbour transform to print. An empty message, or a byte Code 128 cannot carry, is
/// a typed error.
///
/// ```swift
/// let code = try Code128BarcodeGenerator(message: Array("DAGUERRE-1839".utf8)).outputImage()
/// ```
public struct Code128BarcodeGenerator: Filter {
    public var message: [UInt8]?
    public var quietSpace: Double = 10
    public var barcodeHeight: Double = 32

    public init() {}
    public init(
        message: [UInt8]? = nil, quietSpace: Double = Self.defaults.quietSpace, barcodeHeight: Double = Self.defaults.barcodeHeight
    ) {
        self.message = message
        self.quietSpace = quietSpace
        self.barcodeHeight = barcodeHeight
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "Code128BarcodeGenerator", displayName: "Code 128 Barcode Generator", categories: [.generator, .stillImage, .builtIn],
        description: "A Code 128 barcode of the message, one pixel per module.",
        parameters: [
            .data(\.message, "inputMessage", "The bytes to encode (by name also a string, as UTF-8)."),
            .integer(\.quietSpace, "inputQuietSpace", "White pixels on each side.", min: 0, max: 100),
            .integer(\.barcodeHeight, "inputBarcodeHeight", "The bars' height in pixels.", min: 1, max: 500),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let symbol = try ZintSymbol.encode(message ?? [], symbology: CZINT_CODE128, for: Self.self, key: \.message)
        let (height, quiet) = (Int(barcodeHeight.rounded()), Int(quietSpace.rounded()))
        return ModuleBitmap(width: symbol.width, height: height, dark: symbol.stretched(rowsTo: height), quietX: quiet, quietY: quiet)
            .image(name: "code128")
    }
}
