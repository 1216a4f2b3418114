import DaguerreCore
import Foundation

/// An already encoded code symbol, as a detector reads it back (CIBarcodeDescriptor; SPEC I4):
/// for a QR code (CIQRCodeDescriptor) its final codewords (data and error correction,
/// interleaved as the symbol holds them), version, mask and level. BarcodeGenerator draws it
/// again module for module. Aztec, PDF417 and Data Matrix descriptors are named so that a
/// refusal can say what it got; drawing them is not built. By name it is JSON:
/// `{"type": "qr", "payload": "40d446…", "version": 1, "mask": 2, "level": "M"}` (the payload in
/// hexadecimal).
///
/// ```swift
/// let d = BarcodeDescriptor.qr(errorCorrectedPayload: codewords, symbolVersion: 1, maskPattern: 2, errorCorrectionLevel: "M")
/// let code = try BarcodeGenerator(barcodeDescriptor: d).outputImage()
/// ```
public enum BarcodeDescriptor: Sendable, Hashable, CustomStringConvertible {
    case qr(errorCorrectedPayload: [UInt8], symbolVersion: Int, maskPattern: Int, errorCorrectionLevel: String)
    /// A symbology whose descriptor Daguerre can hold but not draw: "aztec", "pdf417", "dataMatrix".
    case other(type: String, errorCorrectedPayload: [UInt8])

    /// A QR code of "Daguerre 1839" (version 1, level M, mask 2), its codewords as python-qrcode
    /// computes them: for examples and the filter gallery.
    public static let example = BarcodeDescriptor.qr(
        errorCorrectedPayload: [
            64, 212, 70, 22, 119, 86, 87, 39, 38, 82, 3, 19, 131, 51, 144, 236, 212, 45, 230, 58, 154, 45, 126, 24, 79, 134,
        ], symbolVersion: 1, maskPattern: 2, errorCorrectionLevel: "M")

    public var description: String {
        switch self {
        case .qr(let p, let v, let m, let l): "QR version \(v), level \(l), mask \(m), \(p.count) codewords"
        case .other(let t, let p): "\(t), \(p.count) codewords"
        }
    }

    /// Reads the by-name form (see the type's documentation).
    public init(parsing text: String) throws(DaguerreError) {
        func bad(_ problem: String) -> DaguerreError {
            .invalidArgument(
                what: "Barcode descriptor",
                problem:
                    "\(problem); write JSON such as {\"type\": \"qr\", \"payload\": \"40d4…\", \"version\": 1, \"mask\": 2, \"level\": \"M\"}"
            )
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw bad("it is not a JSON object")
        }
        guard let hex = object["payload"] as? String, hex.count % 2 == 0, hex.count <= 2 * 4096 else {
            throw bad("\"payload\" is not an even number of hexadecimal digits (at most 4096 bytes)")
        }
        var payload: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { throw bad("\"payload\" has a character that is not hexadecimal") }
            payload.append(byte)
            index = next
        }
        switch object["type"] as? String {
        case "qr":
            // Whole numbers in range before any conversion to Int (which would trap on 1e300).
            func small(_ key: String) -> Int? {
                guard let v = (object[key] as? NSNumber)?.doubleValue, v == v.rounded(), abs(v) <= 1000 else { return nil }
                return Int(v)
            }
            guard let version = small("version"), let mask = small("mask"), let level = object["level"] as? String else {
                throw bad("a QR descriptor needs \"version\" and \"mask\" as whole numbers and \"level\" as a letter")
            }
            self = .qr(errorCorrectedPayload: payload, symbolVersion: version, maskPattern: mask, errorCorrectionLevel: level)
        case let type? where ["aztec", "pdf417", "dataMatrix"].contains(type):
            self = .other(type: type, errorCorrectedPayload: payload)
        default:
            throw bad("\"type\" is not qr, aztec, pdf417 or dataMatrix")
        }
    }
}
