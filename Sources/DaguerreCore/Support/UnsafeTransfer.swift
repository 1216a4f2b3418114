/// Carries a non-Sendable value (a raw pointer, a C handle) across a concurrency boundary.
///
/// Only for values whose safety the call site argues in a comment: typically a pointer into a
/// buffer where each worker writes a disjoint region, and the owner outlives the workers
/// (`WorkerPool`'s loops take `@Sendable` closures).
public struct UnsafeTransfer<Value>: @unchecked Sendable {
    public let value: Value
    @inlinable public init(_ value: Value) { self.value = value }
}
