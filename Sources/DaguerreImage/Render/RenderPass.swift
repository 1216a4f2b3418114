import DaguerreCore
import Synchronization

/// One run of the band/tile scheduler over a graph: the source sessions it opened and the
/// colour converters it built. A materialized node's input is rendered by a pass of its own.
final class RenderPass: Sendable {
    let env: RenderEnvironment
    private let sessions: Mutex<[ObjectIdentifier: UnsafeTransfer<SourceSession>]>
    private let converters = Mutex<[ObjectIdentifier: SourceConverter]>([:])

    init(env: RenderEnvironment, sessions: [ObjectIdentifier: SourceSession]) {
        self.env = env
        self.sessions = Mutex(sessions.mapValues { UnsafeTransfer($0) })
    }

    func session(for node: FileSourceNode) -> SourceSession? {
        sessions.withLock { $0[ObjectIdentifier(node)]?.value }
    }

    /// The converter from a source's stored format and space into the working space.
    func converter(for node: ImageNode, format: PixelFormat, alpha: PixelBuffer.AlphaMode, space: ColorSpace?) throws(DaguerreError)
        -> SourceConverter
    {
        let key = ObjectIdentifier(node)
        if let c = converters.withLock({ $0[key] }) { return c }
        let c = try SourceConverter(format: format, alpha: alpha, space: space, working: env.workingSpace)
        converters.withLock { $0[key] = c }
        return c
    }
}
