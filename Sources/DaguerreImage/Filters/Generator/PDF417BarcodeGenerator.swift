import CZintShim
import DaguerreCore

/// A PDF417 barcode (CIPDF417BarcodeGenerator; ISO/IEC 15438) of `message`'s bytes, encoded by
/// libzint, compact (truncated) PDF417 with `compactStyle`. Drawn as Core Image draws codes: one
/// pixel per module across, each row as tall as libzint makes it (3 modules), black on white,
/// with a one-module white border. Every layout parameter may be absent:
/// - `correctionLevel` 0–8 (absent: libzint's choice for the message's length);
/// - `dataColumns` and `rows` fix the layout (libzint refuses a message that does not fit);
/// - otherwise, when any of `minWidth`, `maxWidth`, `minHeight`, `maxHeight` (the symbol's size
///   in pixels, border included) or `preferredAspectRatio` (width / height) is given, every
///   column count from 1 to 30 is tried and the one whose symbol fits the size limits and comes
///   closest to the aspect ratio (or, without one, the narrowest that fits) is drawn; none
///   fitting is a typed error.
/// libzint chooses the compaction modes (text, byte, numeric) itself, as the standard allows,
/// so `compactionMode` and `alwaysSpecifyCompaction` are accepted and checked but do not change
/// the symbol.
///
/// ```swift
/// let code = try PDF417BarcodeGenerator(message: Array("Daguerre 1839".utf8), dataColumns: 4).outputImage()
/// ```
public struct PDF417BarcodeGenerator: Filter {
    public var message: [UInt8]?
    public var minWidth: Double?
    public var maxWidth: Double?
    public var minHeight: Double?
    public var maxHeight: Double?
    public var dataColumns: Double?
    public var rows: Double?
    public var preferredAspectRatio: Double?
    public var compactionMode: Double?
    public var compactStyle = false
    public var correctionLevel: Double?
    public var alwaysSpecifyCompaction = false

    public init() {}
    public init(message: [UInt8]? = nil, dataColumns: Double? = nil, rows: Double? = nil, correctionLevel: Double? = nil) {
        self.message = message
        self.dataColumns = dataColumns
        self.rows = rows
        self.correctionLevel = correctionLevel
    }

    public static let declaration = FilterDeclaration<Self>(
        name: "PDF417BarcodeGenerator", displayName: "PDF417 Barcode Generator", categories: [.generator, .stillImage, .builtIn],
        description: "A PDF417 barcode of the message, one pixel per module across.",
        parameters: [
            .data(\.message, "inputMessage", "The bytes to encode (by name also a string, as UTF-8)."),
            .optionalInteger(\.minWidth, "inputMinWidth", "The narrowest symbol wanted, in pixels.", min: 56, max: 583),
            .optionalInteger(\.maxWidth, "inputMaxWidth", "The widest symbol wanted, in pixels.", min: 56, max: 583),
            .optionalInteger(\.minHeight, "inputMinHeight", "The shortest symbol wanted, in pixels.", min: 13, max: 283),
            .optionalInteger(\.maxHeight, "inputMaxHeight", "The tallest symbol wanted, in pixels.", min: 13, max: 283),
            .optionalInteger(\.dataColumns, "inputDataColumns", "The data columns.", min: 1, max: 30),
            .optionalInteger(\.rows, "inputRows", "The rows.", min: 3, max: 90),
            .optionalNumber(\.preferredAspectRatio, "inputPreferredAspectRatio", "The width / height wanted.", min: 0.01, max: 100),
            .optionalInteger(\.compactionMode, "inputCompactionMode", "0–3 (libzint chooses the compaction itself).", min: 0, max: 3),
            .boolean(\.compactStyle, "inputCompactStyle", "Draw compact (truncated) PDF417."),
            .optionalInteger(\.correctionLevel, "inputCorrectionLevel", "The error correction level, 0–8.", min: 0, max: 8),
            .boolean(\.alwaysSpecifyCompaction, "inputAlwaysSpecifyCompaction", "Accepted; libzint chooses the compaction itself."),
        ])

    public func outputImage(_: ValidatedParameters) throws(DaguerreError) -> Image {
        let message = self.message ?? []
        let symbology = compactStyle ? CZINT_PDF417_COMPACT : CZINT_PDF417
        let level = correctionLevel.map { Int32($0.rounded()) } ?? ZintSymbol.automatic
        let fixedRows = rows.map { Int32($0.rounded()) } ?? ZintSymbol.automatic
        func encode(columns: Int32) throws(DaguerreError) -> ZintSymbol {
            try ZintSymbol.encode(message, symbology: symbology, options: (level, columns, fixedRows), for: Self.self, key: \.message)
        }
        /// The symbol's size in pixels, border included.
        func size(_ s: ZintSymbol) -> (width: Double, height: Double) {
            (Double(s.width + 2), Double(s.rows * Self.rowHeight(s) + 2))
        }
        let constrained = [minWidth, maxWidth, minHeight, maxHeight, preferredAspectRatio].contains { $0 != nil }
        var symbol: ZintSymbol
        if let dataColumns {
            symbol = try encode(columns: Int32(dataColumns.rounded()))
        } else if constrained {
            var best: (symbol: ZintSymbol, score: Double)?
            for columns in Int32(1)...30 {
                guard let s = try? encode(columns: columns) else { continue }
                let (w, h) = size(s)
                guard w >= (minWidth ?? 0), w <= (maxWidth ?? .infinity), h >= (minHeight ?? 0), h <= (maxHeight ?? .infinity) else {
                    continue
                }
                let score = preferredAspectRatio.map { abs(w / h - $0) } ?? w
                if best == nil || score < best!.score { best = (s, score) }
            }
            guard let found = best?.symbol else {
                _ = try encode(columns: ZintSymbol.automatic)
                throw Self.invalid(\.maxWidth, "no layout of the message fits the size limits; relax them or shorten the message")
            }
            symbol = found
        } else {
            symbol = try encode(columns: ZintSymbol.automatic)
        }
        let height = Self.rowHeight(symbol)
        return ModuleBitmap(width: symbol.width, height: symbol.rows * height, dark: symbol.stretched(rowsTo: height), quietX: 1, quietY: 1)
            .image(name: "pdf417")
    }

    /// How many pixels tall one row is drawn: libzint's row height in modules (3 for PDF417).
    static func rowHeight(_ s: ZintSymbol) -> Int { max(1, Int(s.rowHeight.rounded())) }
}
