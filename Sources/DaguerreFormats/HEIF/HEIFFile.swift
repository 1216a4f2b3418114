// Reading a HEIF/HEIC still through libheif: what the file holds, and its primary image's pixels.
import CHeif
import DaguerreCore

/// A HEIF file (an iPhone's HEIC, a Samsung HEIC motion photo, an AVIF), read through libheif:
/// the primary image's size, depth, alpha and colour, its EXIF (with the Apple MakerNote's
/// Live Photo identifier) and XMP, and the thumbnails, auxiliary images and depth maps beside it.
///
/// Sizes are the displayed ones: libheif applies the `irot`, `imir` and `clap` transformations,
/// so ``width`` × ``height`` are what a viewer shows and the decoded pixels are upright.
/// ``storedWidth`` × ``storedHeight`` are the coded image's (`ispe`); when they are swapped,
/// the file rotates by a quarter turn. The EXIF orientation is informative only in HEIF (the
/// `irot` box is what turns the image): do not apply it to these pixels again.
///
/// ```swift
/// let file = try HEIFFile(path: "IMG_0001.HEIC")
/// print(file.width, file.height, file.colorProfile.summary)   // 3024 4032 ICC: Display P3
/// print(file.metadata?.livePhotoContentIdentifier ?? "not a Live Photo still")
/// let pixels = try file.decodePrimaryImage()                   // RGBA, 8 or 16 bits
/// ```
public struct HEIFFile: Sendable {
    /// The `ftyp` box's major brand (`heic`, `mif1`, `avif`, ...).
    public var majorBrand: String
    public var compatibleBrands: [String]
    /// Top-level images (not counting thumbnails, auxiliary images or grid tiles).
    public var imageCount: Int
    /// The primary image as displayed (after rotation, mirroring and cropping).
    public var width: Int
    public var height: Int
    /// The primary image as coded (its `ispe` property).
    public var storedWidth: Int
    public var storedHeight: Int
    /// Bits per luma and per chroma sample.
    public var bitDepth: Int
    public var chromaBitDepth: Int
    public var hasAlpha: Bool
    public var isPremultipliedAlpha: Bool
    public var colorProfile: HEIFColorProfile
    /// The EXIF fields, with the Apple MakerNote's content identifier.
    public var metadata: PhotoMetadata?
    /// The EXIF block as it is stored, from its TIFF header on: what ``HEIFWriteOptions/exif``
    /// takes to write it again, the camera's whole MakerNote included.
    public var exif: [UInt8]?
    /// The EXIF IFD1 thumbnail JPEG, when the EXIF block has one (HEIF thumbnails are items: ``thumbnails``).
    public var exifThumbnail: [UInt8]?
    public var xmp: XMPPacket?
    /// Thumbnail items of the primary image (their sizes).
    public var thumbnails: [HEIFThumbnail]
    /// Auxiliary images of the primary image, alpha and depth included.
    public var auxiliaryImages: [HEIFAuxiliaryImage]
    public var depthImages: [HEIFDepthImage]
    /// Where a motion photo's video is: Samsung's `mpvd` box, or the bytes after the last box.
    public var motionPhotoVideo: HEIFMotionPhotoVideo?
    /// The size of the file read.
    public var byteCount: Int

    private let bytes: [UInt8]
    private let path: String?
    private let limits: Limits

    /// The displayed size is the stored one turned a quarter (a 90° or 270° `irot`).
    public var isQuarterTurned: Bool { width == storedHeight && height == storedWidth && width != height }

    /// The colour space of the decoded pixels (``HEIFColorProfile/colorSpace``).
    public var colorSpace: ColorSpace? { colorProfile.colorSpace }

    /// Reads the file at `path` (errors name it).
    public init(path: String, limits: Limits = .default) throws(DaguerreError) {
        try self.init(bytes: ImageSource.readFile(path), path: path, limits: limits)
    }

    public init(bytes: [UInt8], limits: Limits = .default) throws(DaguerreError) {
        try self.init(bytes: bytes, path: nil, limits: limits)
    }

    /// True when `head` (a file's first bytes, the whole `ftyp` box) is a HEIF image file's:
    /// an `ftyp` box whose major brand is a HEIF image or sequence brand, or that lists `mif1`
    /// or `msf1` among its compatible brands (a QuickTime movie or an MP4 lists neither).
    public static func isHEIF(head: [UInt8]) -> Bool {
        guard head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) else { return false }
        let brands = Self.brands(head)
        let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1", "avif", "avis"]
        return heifBrands.contains(brands.major) || brands.compatible.contains("mif1") || brands.compatible.contains("msf1")
    }

    /// "HEIC" for HEVC brands, "AVIF" for AV1 ones, "HEIF" otherwise.
    public var formatName: String {
        let all = [majorBrand] + compatibleBrands
        if all.contains(where: { ["heic", "heix", "heim", "heis", "hevc", "hevx"].contains($0) }) { return "HEIC" }
        if all.contains(where: { ["avif", "avis"].contains($0) }) { return "AVIF" }
        return "HEIF"
    }

    private init(bytes: [UInt8], path: String?, limits: Limits) throws(DaguerreError) {
        self.bytes = bytes
        self.path = path
        self.limits = limits
        byteCount = bytes.count
        let brands = Self.brands(bytes)
        majorBrand = brands.major
        compatibleBrands = brands.compatible
        motionPhotoVideo = HEIFMotionPhotoVideo(locatingIn: bytes)
        var found: HEIFImageFacts?
        try HEIFContext.with(bytes: bytes, limits: limits, path: path) { (ctx) throws(DaguerreError) in
            let count = Int(heif_context_get_number_of_top_level_images(ctx.pointer))
            found = try ctx.withPrimaryImage { (h) throws(DaguerreError) in try HEIFImageFacts(handle: h, imageCount: count, path: path) }
        }
        guard let f = found else { throw .corruptData(format: "HEIF", detail: "libheif found no primary image", path: path) }
        imageCount = f.imageCount
        width = f.width
        height = f.height
        storedWidth = f.storedWidth
        storedHeight = f.storedHeight
        bitDepth = f.bitDepth
        chromaBitDepth = f.chromaBitDepth
        hasAlpha = f.hasAlpha
        isPremultipliedAlpha = f.isPremultipliedAlpha
        colorProfile = f.colorProfile
        metadata = f.metadata
        exifThumbnail = f.exifThumbnail
        exif = f.exif
        xmp = f.xmp
        thumbnails = f.thumbnails
        auxiliaryImages = f.auxiliaryImages
        depthImages = f.depthImages
    }

    /// The `ftyp` box's brands, as libheif reads them; empty when there is none.
    private static func brands(_ bytes: [UInt8]) -> (major: String, compatible: [String]) {
        bytes.withUnsafeBufferPointer { b -> (String, [String]) in
            guard let base = b.baseAddress, b.count >= 12 else { return ("", []) }
            let length = Int32(clamping: b.count)
            let major = fourCC(heif_read_main_brand(base, length))
            var list: UnsafeMutablePointer<heif_brand2>?
            var n: Int32 = 0
            guard heif_list_compatible_brands(base, length, &list, &n).code == heif_error_Ok, let list else { return (major, []) }
            defer { heif_free_list_of_compatible_brands(list) }
            return (major, (0..<Int(max(0, n))).map { fourCC(list[$0]) })
        }
    }

    private static func fourCC(_ brand: heif_brand2) -> String {
        var chars = [CChar](repeating: 0, count: 5)
        heif_brand_to_fourcc(brand, &chars)
        return String(decoding: chars.prefix(4).map { UInt8(bitPattern: $0) }.filter { $0 != 0 }, as: UTF8.self)
    }

    /// Decodes the primary image to straight-alpha RGBA: 8 bits per sample for an 8-bit image,
    /// 16 for a deeper one (samples scaled to the full 16-bit range). Rotation, mirroring and
    /// cropping are applied; the buffer carries ``colorSpace``. The size is checked against the
    /// limits before anything is allocated.
    public func decodePrimaryImage() throws(DaguerreError) -> PixelBuffer {
        let deep = bitDepth > 8
        let format: PixelFormat = deep ? .rgba16 : .rgba8
        // The decoder holds the coded planes and the converted image beside ours.
        try limits.check(width: storedWidth, height: storedHeight, bytesPerPixel: format.bytesPerPixel, what: "HEIF image")
        try limits.check(width: width, height: height, bytesPerPixel: format.bytesPerPixel, what: "HEIF image")
        let (bytes, path, limits, colorSpace, premultiplied) = (self.bytes, self.path, self.limits, self.colorSpace, isPremultipliedAlpha)
        let (expectedWidth, expectedHeight) = (width, height)
        return try HEIFContext.with(bytes: bytes, limits: limits, path: path) { (ctx) throws(DaguerreError) in
            try ctx.withPrimaryImage { (handle) throws(DaguerreError) in
                var image: OpaquePointer?
                let chroma = deep ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RGBA
                if let e = DaguerreError.heif(heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, nil), path: path) { throw e }
                guard let image else { throw .corruptData(format: "HEIF", detail: "libheif returned no image", path: path) }
                defer { heif_image_release(image) }
                let w = Int(heif_image_get_width(image, heif_channel_interleaved))
                let h = Int(heif_image_get_height(image, heif_channel_interleaved))
                // libheif decodes at the size the HEVC stream codes, whatever the ispe says: a
                // file whose stream disagrees with its stated size is damaged (or hostile).
                guard w == expectedWidth, h == expectedHeight else {
                    throw .corruptData(
                        format: "HEIF",
                        detail:
                            "the coded image decodes to \(w)×\(h), but the file states \(expectedWidth)×\(expectedHeight) (its ispe and transformations)",
                        path: path)
                }
                var stride: Int32 = 0
                guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
                    throw .corruptData(format: "HEIF", detail: "the decoded image has no RGBA plane", path: path)
                }
                var buffer = try PixelBuffer(
                    width: w, height: h, format: format, colorSpace: colorSpace, alpha: premultiplied ? .premultiplied : .straight,
                    limits: limits)
                let rowBytes = w * format.bytesPerPixel
                guard Int(stride) >= rowBytes else {
                    throw .corruptData(format: "HEIF", detail: "the decoded rows are \(stride) bytes, shorter than \(rowBytes)", path: path)
                }
                let range = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
                let bpr = buffer.bytesPerRow
                buffer.withUnsafeMutableBytes { out in
                    guard let dst = out.baseAddress else { return }
                    for y in 0..<h {
                        let src = UnsafeRawPointer(plane + y * Int(stride))
                        let row = dst + y * bpr
                        if !deep || range >= 16 {
                            row.copyMemory(from: src, byteCount: rowBytes)
                        } else {
                            // 10- or 12-bit samples in 16-bit words: scale to 0...65535.
                            let maxIn = UInt32((1 << range) - 1)
                            let s = src.assumingMemoryBound(to: UInt16.self)
                            let d = row.assumingMemoryBound(to: UInt16.self)
                            for i in 0..<(w * 4) {
                                let v = min(UInt32(UInt16(littleEndian: s[i])), maxIn)
                                d[i] = UInt16((v * 65535 + maxIn / 2) / maxIn)
                            }
                        }
                    }
                }
                return buffer
            }
        }
    }
}
