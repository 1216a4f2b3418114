// What the two develop sources (Bayer and LinearRaw) share as engine row sources (SPEC X2, X6):
// the column window the engine may ask for, and the check of a row request.
import DaguerreCore
import DaguerreImage

/// A develop source: a ``RowSource`` whose rows are developed on demand, restricted to the
/// columns the engine asks for.
///
/// ```swift
/// let cols = try source.setColumns(100..<600)     // clipped to the image
/// try source.checkRows(y: 0, count: 64)
/// ```
protocol DevelopSource: RowSource {
    var columns: Range<Int> { get set }
}

extension DevelopSource {
    func setColumns(_ requested: Range<Int>) throws(DaguerreError) -> Range<Int> {
        columns = max(0, requested.lowerBound)..<min(info.width, max(requested.upperBound, requested.lowerBound))
        return columns
    }

    /// Refuses rows outside the image, with the message both sources give.
    func checkRows(y: Int, count: Int) throws(DaguerreError) {
        guard y >= 0, count >= 0, y + count <= info.height else {
            throw .invalidArgument(what: "RAW rows \(y)..<\(y + count)", problem: "the image has \(info.height) rows")
        }
    }
}
