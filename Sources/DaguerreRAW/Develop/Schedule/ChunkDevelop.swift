// What the chunk schedule runs (SPEC X7; the algorithm apart from its schedule): a develop that
// turns bands of crop rows into interleaved RGB floats, keeping whatever carries from one band to
// the next. LMMSE-GW (Bayer) and the X-Trans develop are the two.
import DaguerreCore

/// A develop ``DevelopChunks`` schedules, one band at a time.
///
/// ```swift
/// let develop: any ChunkDevelop = XTransDevelop(mosaic: .whole(mosaic), settings: settings, passes: 3)
/// try develop.reserve(rows: 256, columns: width)
/// try develop.develop(rows: 0..<256, columns: 0..<width, into: chunk, bytesPerRow: width * 12, assistance: nil)
/// ```
protocol ChunkDevelop: AnyObject {
    /// Allocates what a band of `rows` × `columns` needs, before its pixels.
    func reserve(rows: Int, columns: Int) throws(DaguerreError)
    /// Develops crop rows `rows` × crop columns `columns` into `destination` (interleaved RGB
    /// floats, `bytesPerRow` apart), the develop's parallel loops offered to `assistance`.
    func develop(
        rows: Range<Int>, columns: Range<Int>, into destination: UnsafeMutableRawPointer, bytesPerRow: Int,
        assistance: WorkerPool.Assistance?
    ) throws(DaguerreError)
}
