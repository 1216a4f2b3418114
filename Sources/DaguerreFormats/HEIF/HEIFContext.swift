// One libheif context over a file's bytes, and libheif's errors as DaguerreErrors.
import CHeif
import DaguerreCore

/// A libheif context that has parsed a HEIF file's boxes, alive for one scoped call.
///
/// libheif reads the bytes in place (`heif_context_read_from_memory_without_copy`), so the
/// context exists only inside ``with(bytes:limits:path:_:)``, while the array's storage is
/// pinned; `body` must not keep it.
///
/// ```swift
/// let count = try HEIFContext.with(bytes: bytes, limits: .default, path: nil) { ctx in
///     Int(heif_context_get_number_of_top_level_images(ctx.pointer))
/// }
/// ```
struct HEIFContext {
    let pointer: OpaquePointer
    let path: String?

    /// libheif's one-time set-up (its header asks for `heif_init` before use; it registers the
    /// built-in decoders), run once by Swift's lazy static before the first context, whatever
    /// thread asks first. Never undone (`heif_deinit`), so contexts may be made at any time.
    static let initialized: Bool = heif_init(nil).code == heif_error_Ok

    /// Parses `bytes` with libheif, runs `body` on the context and frees it. Images larger than
    /// `limits.maxDimension` on a side are refused by libheif while it parses.
    static func with<R>(
        bytes: [UInt8], limits: Limits, path: String?, _ body: (HEIFContext) throws(DaguerreError) -> R
    ) throws(DaguerreError) -> R {
        _ = initialized
        guard let ctx = heif_context_alloc() else {
            throw .tooLarge(what: "HEIF context (libheif could not allocate it)", value: 0, limit: 0)
        }
        defer { heif_context_free(ctx) }
        heif_context_set_maximum_image_size_limit(ctx, Int32(clamping: limits.maxDimension))
        let result: Result<R, DaguerreError> = bytes.withUnsafeBytes { raw in
            let context = HEIFContext(pointer: ctx, path: path)
            let read = heif_context_read_from_memory_without_copy(ctx, raw.baseAddress, raw.count, nil)
            if let error = DaguerreError.heif(read, path: path) { return .failure(error) }
            do throws(DaguerreError) { return .success(try body(context)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The primary image's handle, released after `body`.
    func withPrimaryImage<R>(_ body: (OpaquePointer) throws(DaguerreError) -> R) throws(DaguerreError) -> R {
        var handle: OpaquePointer?
        if let error = DaguerreError.heif(heif_context_get_primary_image_handle(pointer, &handle), path: path) { throw error }
        guard let handle else { throw .corruptData(format: "HEIF", detail: "libheif found no primary image", path: path) }
        defer { heif_image_handle_release(handle) }
        return try body(handle)
    }
}

extension DaguerreError {
    /// The typed error for a libheif call's result, or nil when it succeeded.
    ///
    /// libheif's categories map onto Daguerre's: damaged or cut-short input, a feature or codec
    /// libheif lacks, its security limits (sizes), a decoder failure (a damaged HEVC stream).
    ///
    /// ```swift
    /// if let error = DaguerreError.heif(heif_decode_image(handle, &image, space, chroma, nil), path: p) { throw error }
    /// ```
    static func heif(_ e: heif_error, path: String?) -> DaguerreError? {
        guard e.code != heif_error_Ok else { return nil }
        let message = e.message.map { String(cString: $0) } ?? "no message"
        switch e.code {
        case heif_error_Input_does_not_exist:
            return .io(operation: "read", path: path ?? "(memory)", reason: message)
        case heif_error_Invalid_input where e.subcode == heif_suberror_End_of_data:
            return .truncated(format: "HEIF", path: path)
        case heif_error_Unsupported_filetype:
            return .corruptData(format: "HEIF", detail: "libheif does not recognise it as a HEIF file (\(message))", path: path)
        case heif_error_Unsupported_feature:
            return .unsupported(
                feature: "HEIF: \(message)",
                hint:
                    "libheif (the library Daguerre reads HEIF with) cannot decode this file; convert it to JPEG or PNG with the tool that made it."
            )
        case heif_error_Memory_allocation_error:
            return .tooLarge(what: "HEIF image memory (libheif: \(message))", value: 0, limit: 0)
        case heif_error_Decoder_plugin_error:
            return .corruptData(
                format: "HEIF", detail: "the image decoder failed (\(message)); its coded image data is damaged", path: path)
        default:
            return .corruptData(format: "HEIF", detail: "libheif: \(message)", path: path)
        }
    }
}
