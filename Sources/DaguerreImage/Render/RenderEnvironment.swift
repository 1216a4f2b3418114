import DaguerreCore
import Synchronization

/// What every tile of one `Context` render shares: the context's options, the buffers of
/// materialized nodes, and counters for the print tree.
final class RenderEnvironment: Sendable {
    let workingFormat: PixelFormat
    /// nil turns colour management off (I6): pixels pass through unconverted.
    let workingSpace: ColorSpace?
    let cache: IntermediateCache?
    let limits: Limits
    let materialized = Mutex<[ObjectIdentifier: MaterializedBuffer]>([:])
    let stats = RenderStats()

    init(workingFormat: PixelFormat, workingSpace: ColorSpace?, cache: IntermediateCache?, limits: Limits) {
        self.workingFormat = workingFormat
        self.workingSpace = workingSpace
        self.cache = cache
        self.limits = limits
    }

    func materializedBuffer(for node: ImageNode) -> MaterializedBuffer? {
        materialized.withLock { $0[ObjectIdentifier(node)] }
    }
}

/// A stored, immutable result of a materialized node: a processor output or a reduction.
final class MaterializedBuffer: @unchecked Sendable {
    // Safety: written once by the materializing code before any reader sees it; read-only after.
    let buffer: PixelBuffer
    let rect: IntRect
    init(buffer: PixelBuffer, rect: IntRect) {
        self.buffer = buffer
        self.rect = rect
    }
    var view: TileView {
        TileView(
            base: UnsafeMutableRawPointer(mutating: buffer.rowAddress(0)), rect: rect,
            bytesPerRow: buffer.bytesPerRow, format: buffer.format)
    }
    var byteCount: Int { buffer.byteCount }
}

/// Counters a render reports (print tree level 8, tests that prove caching, K2).
final class RenderStats: Sendable {
    let tiles = Atomic<Int>(0)
    let sourceRestarts = Atomic<Int>(0)
    let materializations = Atomic<Int>(0)
    let cacheHits = Atomic<Int>(0)
    /// Per-tile intermediates by node label: format and largest size, for the print tree.
    let intermediates = Mutex<[String: (PixelFormat, IntRect)]>([:])

    /// Per planar run (by its top node): rows made, rows read from the source as planes, rows
    /// a sink packed from planes. Added once per tile, for the print tree.
    struct PlanarRunRows: Sendable { var rows = 0, readAsPlanes = 0, packedFromPlanes = 0 }
    let planarRuns = Mutex<[ObjectIdentifier: PlanarRunRows]>([:])

    func notePlanarRun(_ top: ObjectIdentifier, rows: Int, readAsPlanes: Int, packedFromPlanes: Int) {
        planarRuns.withLock { d in
            var c = d[top] ?? PlanarRunRows()
            c.rows += rows
            c.readAsPlanes += readAsPlanes
            c.packedFromPlanes += packedFromPlanes
            d[top] = c
        }
    }

    func noteIntermediate(_ node: ImageNode, format: PixelFormat, rect: IntRect) {
        intermediates.withLock { d in
            let key = "\(node.label) \(node.digest)"
            if let old = d[key], old.1.area >= rect.area { return }
            d[key] = (format, rect)
        }
    }
}
