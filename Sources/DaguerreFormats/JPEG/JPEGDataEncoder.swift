// Whole-image JPEG encoding into memory (libjpeg-turbo through CDaguerreCodecs, on an
// open_memstream FILE*): EXIF thumbnails, DNG previews, Motion Photo primaries.
import CDaguerreCodecs
import DaguerreCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Encodes an RGB8 or L8 ``PixelBuffer`` to JPEG bytes in memory.
///
/// Files go through ``JPEGEncoder`` (streamed, atomic); this is for small images that end up
/// inside other files, such as the 160×120 EXIF thumbnail of IFD1 (SPEC P12).
///
/// ```swift
/// let thumb = try JPEGDataEncoder.encode(smallRGB, quality: 0.8)
/// ```
public enum JPEGDataEncoder {
    public static func encode(
        _ buffer: PixelBuffer, quality: Double = 0.9, segments: [JPEGSegment] = [],
        iccProfile: [UInt8]? = nil
    ) throws(DaguerreError) -> [UInt8] {
        guard buffer.format == .rgb8 || buffer.format == .l8 else {
            throw .unsupported(feature: "in-memory JPEG from \(buffer.format)", hint: "Convert the buffer to RGB8 or L8 first.")
        }
        let options = EncoderOptions(
            format: .jpeg, width: buffer.width, height: buffer.height, rowFormat: buffer.format,
            iccProfile: iccProfile, quality: quality)
        let markers = try JPEGSegment.bridged(segments)
        let q = try JPEGEncoder.libjpegQuality(quality)
        var pointer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&pointer, &size) else {
            throw .io(operation: "open a memory stream for", path: "JPEG data", reason: String(cString: strerror(errno)))
        }
        let handle = JPEGEncoder.create(
            stream, options: options, quality: q,
            markers: markers)
        var status = handle.map { dag_jpeg_encoder_status($0) } ?? DAG_IO
        if status == DAG_OK, let h = handle {
            status = buffer.withUnsafeBytes { raw in
                dag_jpeg_encoder_write(h, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.bytesPerRow, UInt32(buffer.height))
            }
            if status == DAG_OK { status = dag_jpeg_encoder_finish(h) }
        }
        let message = handle.map { String(cString: dag_jpeg_encoder_message($0)) } ?? "out of memory"
        dag_jpeg_encoder_destroy(handle)
        fclose(stream)
        defer { free(pointer) }
        guard status == DAG_OK, let p = pointer else {
            throw .corruptData(format: "JPEG", detail: "the encoder failed: \(message)", path: nil)
        }
        return p.withMemoryRebound(to: UInt8.self, capacity: size) { Array(UnsafeBufferPointer(start: $0, count: size)) }
    }
}
