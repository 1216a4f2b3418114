// Rows a source lends the engine from its own memory (the RAW develop's chunks), read in place.

/// Rows lent by a ``RowSource``: `rows`, the first at `base`, `bytesPerRow` apart.
///
/// ```swift
/// for span in try source.lendRows(y: 256, count: 64) {
///     let row300 = span.rows.contains(300) ? span.row(300) : nil
/// }
/// source.releaseRows(below: 320)      // rows above 320 may now be reused
/// ```
public struct LentRows: @unchecked Sendable {
    // Safety: the rows are read-only to the borrower, and valid until it releases them.
    public let rows: Range<Int>
    public let base: UnsafeRawPointer
    public let bytesPerRow: Int

    public init(rows: Range<Int>, base: UnsafeRawPointer, bytesPerRow: Int) {
        self.rows = rows
        self.base = base
        self.bytesPerRow = bytesPerRow
    }

    /// Row `y`'s first byte (`y` in `rows`).
    public func row(_ y: Int) -> UnsafeRawPointer { base + (y - rows.lowerBound) * bytesPerRow }
}
