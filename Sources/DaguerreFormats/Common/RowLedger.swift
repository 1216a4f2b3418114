import DaguerreCore

/// The bookkeeping every streaming encoder shares: how many rows were written, and the
/// argument checks of `writeRows` and `finish`. Whether the encoder is still open is its C
/// handle's to say (it is released when the encoder finishes or aborts).
struct RowLedger {
    let format: String
    let height: Int
    let rowBytes: Int
    private(set) var written = 0

    init(format: String, height: Int, rowBytes: Int) {
        self.format = format
        self.height = height
        self.rowBytes = rowBytes
    }

    /// Throws unless `count` rows of stride `bytesPerRow` may be written now.
    func checkWrite(count: Int, bytesPerRow: Int, open: Bool) throws(DaguerreError) {
        guard open else {
            throw .invalidArgument(what: "\(format)Encoder.writeRows", problem: "the encoder was finished or aborted")
        }
        guard count >= 0, written + count <= height else {
            throw .invalidArgument(what: "\(count) more rows", problem: "\(written) of \(height) were already written")
        }
        guard bytesPerRow >= rowBytes else {
            throw .invalidArgument(what: "bytesPerRow \(bytesPerRow)", problem: "must be at least \(rowBytes)")
        }
    }
    mutating func advance(_ count: Int) { written += count }

    /// Throws unless every row was written; the caller aborts the file first.
    func checkComplete(open: Bool, destination: String) throws(DaguerreError) {
        guard open else {
            throw .invalidArgument(what: "\(format)Encoder.finish", problem: "the encoder was already finished or aborted")
        }
        guard written == height else {
            throw .invalidArgument(
                what: "\(format) \(destination)", problem: "only \(written) of \(height) rows were written; the file was not created")
        }
    }
}
