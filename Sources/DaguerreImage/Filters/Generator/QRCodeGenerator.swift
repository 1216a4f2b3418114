import CQREncode
import DaguerreCore
import Foundation

/// A QR code (CIQRCodeGenerator; ISO/IEC 18004) of `message`'s bytes at the correction level
/// L (7 %), M (15 %), Q (25 %) or H (30 %), encoded by libqrencode in the smallest version that
/// holds it (8-bit mode). Drawn as Core Image draws it: one pixel per module, black on white,
/// with a one-module white border; scale it up with a nearest-neighbour transform to print.
/// An empty message, one too long for version 40 at that level, or an unknown level is a
/// typed error.
///
/// ```swift
/// let code = try QRCodeGenerator(message: Array("https://example.com".utf8), correctionLevel: "H").outputImage()
/// ```
public struct QRCodeGenerator: Filter {
    public var message: [UInt8]?
    public var correctionLevel: String = "M"

    public init() {}
    public init(message: [UInt8]? = nil, correctionLevel: String = Self.defaults.correctionLevel) {
        self.message = message
        self.correctionLevel = correctionLevel
    }

    /// libqrencode's level for each of Core Image's letters.
    static let levels: [String: QRecLevel] = ["L": QR_ECLEVEL_L, "M": QR_ECLEVEL_M, "Q": QR_ECLEVEL_Q, "H": QR_ECLEVEL_H]

    public static let declaration = FilterDeclaration<Self>(
        name: "QRCodeGenerator", displayName: "QR Code Generator", categories: [.generator, .stillImage, .builtIn],
        description: "A QR code of the message, one pixel per module.",
        parameters: [
            .data(\.message, "inputMessage", "The bytes to encode (by name also a string, as UTF-8)."),
            .string(\.correctionLevel, "inputCorrectionLevel", "L, M, Q or H: 7, 15, 25 or 30 % of the code can be restored."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let symbol = try Self.encode(message, level: correctionLevel, refusing: Self.self, message: \.message, level: \.correctionLevel)
        let n = symbol.width
        return ModuleBitmap(width: n, height: n, dark: symbol.modules.map { $0 & 1 == 1 }, quietX: 1, quietY: 1).image(name: "qrCode")
    }

    /// libqrencode's symbol for `message` at the level letter `level`: its width in modules and
    /// each module's byte, row by row (bit 0 dark; bit 6 a finder pattern or its separator, and
    /// the other bits the other function patterns, as libqrencode documents them). An empty or
    /// too long message, or an unknown level, is `F`'s typed error naming the parameter.
    static func encode<F: Filter>(
        _ message: [UInt8]?, level: String, refusing: F.Type, message messageKey: PartialKeyPath<F>, level levelKey: PartialKeyPath<F>
    ) throws(DaguerreError) -> (width: Int, modules: [UInt8]) {
        guard let message, !message.isEmpty else { throw F.invalid(messageKey, "the message is empty; give at least one byte") }
        guard let qrLevel = levels[level.uppercased()] else { throw F.invalid(levelKey, "'\(level)' is not a level; use L, M, Q or H") }
        let encoded = message.withUnsafeBufferPointer { QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, qrLevel) }
        guard let code = encoded else {
            var reason = "libqrencode could not encode it (errno \(errno))"
            if errno == ERANGE { reason = "\(message.count) bytes do not fit in a QR code (version 40) at level \(level)" }
            throw F.invalid(messageKey, reason + "; shorten the message or use a lower correction level")
        }
        defer { QRcode_free(code) }
        let n = Int(code.pointee.width)
        return (n, Array(UnsafeBufferPointer(start: code.pointee.data, count: n * n)))
    }
}
