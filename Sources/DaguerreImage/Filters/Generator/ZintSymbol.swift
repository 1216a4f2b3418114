import CZintShim
import DaguerreCore

/// A code symbol encoded by libzint (SPEC I4; the Aztec, Code 128 and PDF417 generators): its
/// modules, one byte each, row by row, and how tall zint draws one row in modules.
///
/// ```swift
/// let symbol = try ZintSymbol.encode(Array("Daguerre".utf8), symbology: CZINT_CODE128, for: Code128BarcodeGenerator.self, key: \.message)
/// ```
struct ZintSymbol: Sendable {
    let width: Int
    let rows: Int
    let rowHeight: Double
    let dark: [Bool]

    /// The longest message any of these symbologies holds (PDF417: 1850 text characters, Aztec:
    /// 3832 digits); longer ones are refused before libzint sees them.
    static let maximumBytes = 4096

    /// An option left to libzint.
    static let automatic = Int32(CZINT_AUTOMATIC)

    /// Encodes `message` in binary mode; libzint's refusal becomes a typed error on `key`.
    static func encode<F: Filter>(
        _ message: [UInt8], symbology: Int32, options: (Int32, Int32, Int32) = (automatic, automatic, automatic), for _: F.Type,
        key: PartialKeyPath<F>
    ) throws(DaguerreError) -> ZintSymbol {
        guard !message.isEmpty else { throw F.invalid(key, "the message is empty; give at least one byte") }
        guard message.count <= maximumBytes else {
            throw F.invalid(key, "\(message.count) bytes are more than any of these codes holds (\(maximumBytes)); shorten the message")
        }
        var o = czint_options(symbology: symbology, option1: options.0, option2: options.1, option3: options.2)
        var modules: UnsafeMutablePointer<UInt8>?
        var (width, rows): (Int32, Int32) = (0, 0)
        var rowHeight: Float = 1
        var error = [CChar](repeating: 0, count: 128)
        let status = message.withUnsafeBufferPointer { bytes in
            czint_encode(&o, bytes.baseAddress, Int32(bytes.count), &modules, &width, &rows, &rowHeight, &error, Int32(error.count))
        }
        defer { czint_free(modules) }
        guard status == 0, let modules, width > 0, rows > 0 else {
            let text = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw F.invalid(
                key, "libzint could not encode it (\(text.isEmpty ? "error \(status)" : text)); check the message and the options")
        }
        let count = Int(width) * Int(rows)
        let dark = (0..<count).map { modules[$0] != 0 }
        return ZintSymbol(width: Int(width), rows: Int(rows), rowHeight: Double(rowHeight), dark: dark)
    }

    /// The modules with each row repeated `height` times.
    func stretched(rowsTo height: Int) -> [Bool] {
        var out: [Bool] = []
        out.reserveCapacity(width * rows * height)
        for r in 0..<rows {
            let row = dark[(r * width)..<((r + 1) * width)]
            for _ in 0..<height { out.append(contentsOf: row) }
        }
        return out
    }
}
