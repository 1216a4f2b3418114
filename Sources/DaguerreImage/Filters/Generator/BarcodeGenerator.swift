import DaguerreCore

/// An already encoded code drawn again (CIBarcodeGenerator; SPEC I4): a QR descriptor's
/// codewords placed module for module at its version, with its mask and level (see
/// ``QRSymbolLayout``), drawn as the other code generators draw: one pixel per module, black on
/// white, with a one-module white border. A descriptor of another symbology is refused by name.
///
/// ```swift
/// let again = try BarcodeGenerator(barcodeDescriptor: detected).outputImage()
/// ```
public struct BarcodeGenerator: Filter {
    public var barcodeDescriptor: BarcodeDescriptor?

    public init() {}
    public init(barcodeDescriptor: BarcodeDescriptor?) { self.barcodeDescriptor = barcodeDescriptor }

    public static let declaration = FilterDeclaration<Self>(
        name: "BarcodeGenerator", displayName: "Barcode Generator", categories: [.generator, .stillImage, .builtIn],
        description: "Draws a code from its descriptor: the codewords a reader found, placed again.",
        parameters: [
            .barcodeDescriptor(
                \.barcodeDescriptor, "inputBarcodeDescriptor", "The code's descriptor (by name JSON; see BarcodeDescriptor).")
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        guard let descriptor = barcodeDescriptor else { throw Self.invalid(\.barcodeDescriptor, "no descriptor is given") }
        switch descriptor {
        case .qr(let payload, let version, let mask, let level):
            let symbol: QRSymbolLayout
            do { symbol = try QRSymbolLayout(version: version, level: level, mask: mask, codewords: payload) } catch {
                throw Self.invalid(\.barcodeDescriptor, "\(error.message): \(error.recovery)")
            }
            return ModuleBitmap(width: symbol.size, height: symbol.size, dark: symbol.dark, quietX: 1, quietY: 1).image(name: "barcode")
        case .other(let type, _):
            throw .unsupported(
                feature: "BarcodeGenerator for a \(type) descriptor",
                hint: "only QR descriptors are drawn from their codewords; encode the message with the \(type) generator instead")
        }
    }
}
