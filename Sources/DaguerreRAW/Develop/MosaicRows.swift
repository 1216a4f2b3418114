// The rows of a Bayer mosaic a develop reads (SPEC X2, X6): the whole mosaic when it is in
// memory, or the band a streamed develop has decoded from the file (``StreamedMosaic``).
import DaguerreCore
import DaguerreFormats

/// Rows `firstRow ..< firstRow + rows` of a mosaic `width` photosites wide, addressed by their
/// row number in the whole mosaic, so a stage reads a band exactly as it would read the whole.
///
/// ```swift
/// try mosaic.samples.withUnsafeBufferPointer { s in
///     let rows = MosaicRows(whole: s.baseAddress!, width: mosaic.width, height: mosaic.height)
///     print(rows.row(17)[40])                  // photosite (40, 17)
/// }
/// ```
struct MosaicRows: @unchecked Sendable {
    /// Row `firstRow`'s first photosite. Safety: valid while the buffer's owner keeps it (the
    /// develop call, or `withUnsafeBufferPointer`'s closure); read-only here.
    let samples: UnsafePointer<UInt16>
    let firstRow: Int, rows: Int, width: Int

    init(samples: UnsafePointer<UInt16>, firstRow: Int, rows: Int, width: Int) {
        self.samples = samples
        self.firstRow = firstRow
        self.rows = rows
        self.width = width
    }

    /// A whole mosaic's samples.
    init(whole samples: UnsafePointer<UInt16>, width: Int, height: Int) {
        self.init(samples: samples, firstRow: 0, rows: height, width: width)
    }

    /// The mosaic rows held.
    var range: Range<Int> { firstRow..<(firstRow + rows) }

    /// Mosaic row `y` (which must be held).
    @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt16> { samples + (y - firstRow) * width }

    /// Whether every row of `needed` is held: stages check it before reading a band, and a
    /// miss is an error, never a read outside the buffer.
    func check(holds needed: Range<Int>, for stage: String) throws(DaguerreError) {
        guard needed.isEmpty || (needed.lowerBound >= firstRow && needed.upperBound <= firstRow + rows) else {
            throw .processorFailed(name: stage, reason: "needs mosaic rows \(needed) but only \(range) are decoded")
        }
    }
}
