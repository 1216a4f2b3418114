import CDaguerreCodecs
import DaguerreCore

/// What JPEG and PNG encoding share: a C encoder handle from CDaguerreCodecs (setjmp glue
/// around libjpeg/libpng) writing into an ``EncoderDestination`` (an ``AtomicFile``, or memory), with the row bookkeeping of
/// ``RowLedger``. Subclasses validate their options, create the handle and describe their C
/// functions in a ``Bridge``; writing, finishing and abandoning are the same for both.
public class BridgedEncoder: ImageEncoder {
    /// The C entry points of one codec.
    struct Bridge {
        let format: String
        let status: (OpaquePointer) -> dag_status
        let message: (OpaquePointer) -> UnsafePointer<CChar>?
        let write: (OpaquePointer, UnsafePointer<UInt8>, Int, UInt32) -> dag_status
        let finish: (OpaquePointer) -> dag_status
        let destroy: (OpaquePointer?) -> Void
    }

    public let rowFormat: PixelFormat
    public let options: EncoderOptions
    let file: any EncoderDestination
    private var handle: OpaquePointer?
    private var ledger: RowLedger
    private let bridge: Bridge

    /// `create` makes the C encoder on the open temporary file; nil means memory ran out.
    init(
        destination: any EncoderDestination, options: EncoderOptions, bridge: Bridge,
        create: (UnsafeMutablePointer<FILE>) -> OpaquePointer?
    ) throws(DaguerreError) {
        self.rowFormat = options.rowFormat
        self.options = options
        self.bridge = bridge
        ledger = RowLedger(format: bridge.format, height: options.height, rowBytes: options.width * options.rowFormat.bytesPerPixel)
        file = destination
        guard let made = create(try file.stream()) else {
            file.abort()
            throw .tooLarge(what: "\(bridge.format) encoder memory", value: 0, limit: 0)
        }
        handle = made
        let status = bridge.status(made)
        if status != DAG_OK { throw fail(status) }
    }

    deinit {
        bridge.destroy(handle)
        // AtomicFile's own deinit removes the temporary file if `finish` did not succeed.
    }

    /// Abandons the file and returns the error for a failed C call.
    private func fail(_ status: dag_status) -> DaguerreError {
        var message = handle.map { bridgeMessage(bridge.message($0)) } ?? ""
        if let cause = file.failureCause { message += message.isEmpty ? cause : " (\(cause))" }
        abort()
        return .codec(status, format: bridge.format, message: message, path: file.destination, operation: "write")
    }

    public func writeRows(_ source: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(DaguerreError) {
        try ledger.checkWrite(count: count, bytesPerRow: bytesPerRow, open: handle != nil)
        guard let h = handle else { return }
        let status = bridge.write(h, source.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(count))
        if status != DAG_OK { throw fail(status) }
        ledger.advance(count)
    }

    public func finish() throws(DaguerreError) {
        do { try ledger.checkComplete(open: handle != nil, destination: file.destination) } catch {
            if handle != nil { abort() }
            throw error
        }
        guard let h = handle else { return }
        let status = bridge.finish(h)
        if status != DAG_OK { throw fail(status) }
        bridge.destroy(h)
        handle = nil
        try file.finish()
    }

    public func abort() {
        bridge.destroy(handle)
        handle = nil
        file.abort()
    }
}
