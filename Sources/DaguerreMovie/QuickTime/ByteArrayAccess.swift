// Typed-throws access to an array's bytes (the standard library's Array.withUnsafeBytes
// rethrows an untyped error, which a `throws(DaguerreError)` function cannot pass on).
import DaguerreCore
import DaguerreFormats

extension Array {
    /// `withUnsafeBytes` whose closure throws a typed error, passed on as that type.
    ///
    /// ```swift
    /// try samples.withTypedBytes { (raw) throws(DaguerreError) in try sink.write(raw) }
    /// ```
    func withTypedBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeBufferPointer { (p) throws(E) -> R in try body(UnsafeRawBufferPointer(p)) }
    }
}
