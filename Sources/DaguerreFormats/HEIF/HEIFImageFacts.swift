// What libheif says about a HEIF image handle: sizes, samples, colour, metadata, attached images.
import CHeif
import DaguerreCore

/// The facts ``HEIFFile`` reports, read from the primary image's libheif handle while its
/// context is alive (the handle does not outlive the call).
///
/// ```swift
/// let facts = try HEIFImageFacts(handle: primary, imageCount: 1, path: nil)
/// ```
struct HEIFImageFacts {
    var imageCount: Int
    var width = 0, height = 0, storedWidth = 0, storedHeight = 0
    var bitDepth = 8, chromaBitDepth = 8
    var hasAlpha = false, isPremultipliedAlpha = false
    var colorProfile = HEIFColorProfile.none
    var metadata: PhotoMetadata?
    var exifThumbnail: [UInt8]?
    var exif: [UInt8]?
    var xmp: XMPPacket?
    var thumbnails: [HEIFThumbnail] = []
    var auxiliaryImages: [HEIFAuxiliaryImage] = []
    var depthImages: [HEIFDepthImage] = []

    init(handle h: OpaquePointer, imageCount: Int, path: String?) throws(DaguerreError) {
        self.imageCount = imageCount
        width = Int(heif_image_handle_get_width(h))
        height = Int(heif_image_handle_get_height(h))
        storedWidth = Int(heif_image_handle_get_ispe_width(h))
        storedHeight = Int(heif_image_handle_get_ispe_height(h))
        bitDepth = Int(heif_image_handle_get_luma_bits_per_pixel(h))
        chromaBitDepth = Int(heif_image_handle_get_chroma_bits_per_pixel(h))
        guard width > 0, height > 0, bitDepth > 0 else {
            throw .corruptData(
                format: "HEIF", detail: "the primary image has no size or bit depth (\(width)×\(height), \(bitDepth) bits)", path: path)
        }
        hasAlpha = heif_image_handle_has_alpha_channel(h) != 0
        isPremultipliedAlpha = heif_image_handle_is_premultiplied_alpha(h) != 0
        colorProfile = Self.colorProfile(h)
        try readMetadata(h, path: path)
        thumbnails = Self.ids(h, heif_image_handle_get_number_of_thumbnails, heif_image_handle_get_list_of_thumbnail_IDs).compactMap { id in
            Self.withItem(h, id, heif_image_handle_get_thumbnail) { t in
                HEIFThumbnail(id: id, width: Int(heif_image_handle_get_width(t)), height: Int(heif_image_handle_get_height(t)))
            }
        }
        auxiliaryImages = Self.ids(
            h, { heif_image_handle_get_number_of_auxiliary_images($0, 0) },
            { heif_image_handle_get_list_of_auxiliary_image_IDs($0, 0, $1, $2) }
        ).compactMap { id in
            Self.withItem(h, id, heif_image_handle_get_auxiliary_image_handle) { a in
                var urn: UnsafePointer<CChar>?
                guard heif_image_handle_get_auxiliary_type(a, &urn).code == heif_error_Ok, let text = urn else { return nil }
                let type = String(cString: text)
                heif_image_handle_free_auxiliary_types(a, &urn)
                return HEIFAuxiliaryImage(
                    id: id, type: type, width: Int(heif_image_handle_get_width(a)), height: Int(heif_image_handle_get_height(a)),
                    bitDepth: Int(heif_image_handle_get_luma_bits_per_pixel(a)))
            }
        }
        depthImages = Self.ids(h, heif_image_handle_get_number_of_depth_images, heif_image_handle_get_list_of_depth_image_IDs).compactMap {
            id in
            Self.withItem(h, id, heif_image_handle_get_depth_image_handle) { d in
                var image = HEIFDepthImage(
                    id: id, width: Int(heif_image_handle_get_width(d)), height: Int(heif_image_handle_get_height(d)),
                    bitDepth: Int(heif_image_handle_get_luma_bits_per_pixel(d)))
                var info: UnsafePointer<heif_depth_representation_info>?
                if heif_image_handle_get_depth_image_representation_info(h, id, &info) != 0, let info {
                    defer { heif_depth_representation_info_free(info) }
                    let i = info.pointee
                    let kinds: [HEIFDepthImage.Representation] = [.uniformInverseZ, .uniformDisparity, .uniformZ, .nonuniformDisparity]
                    let k = Int(i.depth_representation_type.rawValue)
                    image.representation = kinds.indices.contains(k) ? kinds[k] : nil
                    if i.has_z_near != 0 { image.zNear = i.z_near }
                    if i.has_z_far != 0 { image.zFar = i.z_far }
                    if i.has_d_min != 0 { image.dMin = i.d_min }
                    if i.has_d_max != 0 { image.dMax = i.d_max }
                }
                return image
            }
        }
    }

    /// The `colr` property: ICC bytes, nclx code points, or none.
    private static func colorProfile(_ h: OpaquePointer) -> HEIFColorProfile {
        switch heif_image_handle_get_color_profile_type(h) {
        case heif_color_profile_type_prof, heif_color_profile_type_rICC:
            let n = heif_image_handle_get_raw_color_profile_size(h)
            guard n > 0, n < 64 << 20 else { return .none }
            var icc = [UInt8](repeating: 0, count: n)
            guard heif_image_handle_get_raw_color_profile(h, &icc).code == heif_error_Ok else { return .none }
            return .icc(icc)
        case heif_color_profile_type_nclx:
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            let read = heif_image_handle_get_nclx_color_profile(h, &nclx)
            // libheif hands over the profile it allocated even when it then fails on a code
            // point it does not know (unknown primaries): freed on both paths.
            defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
            guard read.code == heif_error_Ok, let nclx else { return .none }
            let c = nclx.pointee
            return .nclx(
                VideoColorProperties(
                    primaries: UInt16(truncatingIfNeeded: c.color_primaries.rawValue),
                    transfer: UInt16(truncatingIfNeeded: c.transfer_characteristics.rawValue),
                    matrix: UInt16(truncatingIfNeeded: c.matrix_coefficients.rawValue), fullRange: c.full_range_flag != 0))
        default:
            return .none
        }
    }

    /// EXIF (after the Exif item's 4-byte offset to the TIFF header) and XMP (a `mime` item of
    /// type application/rdf+xml), parsed by Daguerre's own EXIF and XMP readers.
    private mutating func readMetadata(_ h: OpaquePointer, path: String?) throws(DaguerreError) {
        for id in Self.ids(
            h, { heif_image_handle_get_number_of_metadata_blocks($0, nil) },
            { heif_image_handle_get_list_of_metadata_block_IDs($0, nil, $1, $2) })
        {
            let type = heif_image_handle_get_metadata_type(h, id).map { String(cString: $0) } ?? ""
            let contentType = heif_image_handle_get_metadata_content_type(h, id).map { String(cString: $0) } ?? ""
            guard type == "Exif" || (type == "mime" && contentType == "application/rdf+xml") else { continue }
            let n = heif_image_handle_get_metadata_size(h, id)
            guard n > 0, n < 64 << 20 else { continue }
            var block = [UInt8](repeating: 0, count: n)
            if let e = DaguerreError.heif(heif_image_handle_get_metadata(h, id, &block), path: path) { throw e }
            if type == "Exif", metadata == nil {
                guard block.count >= 4 else {
                    throw .corruptData(
                        format: "HEIF", detail: "the Exif item is \(block.count) bytes, too short for its header offset", path: path)
                }
                let offset = Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3])
                guard offset <= block.count - 4 else {
                    throw .corruptData(
                        format: "HEIF", detail: "the Exif item's TIFF header offset \(offset) is past its \(block.count) bytes", path: path)
                }
                // Some writers (ExoPlayer's motion photo sample among them) state offset 0 and
                // still put JPEG's "Exif\0\0" before the TIFF header: skip it too.
                var origin = 4 + offset
                if block[origin...].starts(with: JPEGSegment.exifIdentifier) { origin += JPEGSegment.exifIdentifier.count }
                do { (metadata, exifThumbnail) = try EXIFCodec.read(block: block, origin: origin) } catch {
                    throw error.at(path: path ?? "(memory)")
                }
                exif = Array(block[origin...])
            } else if type == "mime", xmp == nil {
                // Some writers end the packet with NUL padding.
                let text = String(decoding: block.prefix { $0 != 0 }, as: UTF8.self)
                do { xmp = try XMPPacket(parsing: text) } catch { throw error.at(path: path ?? "(memory)") }
            }
        }
    }

    /// The item IDs a count/list pair of libheif functions gives.
    private static func ids(
        _ h: OpaquePointer, _ count: (OpaquePointer) -> Int32, _ list: (OpaquePointer, UnsafeMutablePointer<heif_item_id>, Int32) -> Int32
    ) -> [heif_item_id] {
        let n = Int(count(h))
        guard n > 0, n < 1 << 16 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: n)
        let got = Int(list(h, &ids, Int32(n)))
        return Array(ids.prefix(max(0, min(got, n))))
    }

    /// `body` on the handle of an item attached to `h`, released afterwards; nil when libheif
    /// cannot open it (a dangling reference in a damaged file leaves the item out).
    private static func withItem<R>(
        _ h: OpaquePointer, _ id: heif_item_id, _ open: (OpaquePointer, heif_item_id, UnsafeMutablePointer<OpaquePointer?>) -> heif_error,
        _ body: (OpaquePointer) -> R?
    ) -> R? {
        var item: OpaquePointer?
        guard open(h, id, &item).code == heif_error_Ok, let item else { return nil }
        defer { heif_image_handle_release(item) }
        return body(item)
    }
}
