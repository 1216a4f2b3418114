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
        guard let message, !message.isEmpty else { throw Self.invalid(\.message, "the message is empty; give at least one byte") }
        guard let level = Self.levels[correctionLevel.uppercased()] else {
            throw Self.invalid(\.correctionLevel, "'\(correctionLevel)' is not a level; use L, M, Q or H")
        }
        let encoded = message.withUnsafeBufferPointer { QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, level) }
        guard let code = encoded else {
            var reason = "libqrencode could not encode it (errno \(errno))"
            if errno == ERANGE { reason = "\(message.count) bytes do not fit in a QR code (version 40) at level \(correctionLevel)" }
            throw Self.invalid(\.message, reason + "; shorten the message or use a lower correction level")
        }
        defer { QRcode_free(code) }
        let n = Int(code.pointee.width)
        let modules = UnsafeBufferPointer(start: code.pointee.data, count: n * n)
        let dark = modules.map { ($0 & 1) == 1 }
        return ModuleBitmap(width: n, height: n, dark: dark, quietX: 1, quietY: 1).image(name: "qrCode")
    }
}
