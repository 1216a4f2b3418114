import Foundation

/// The still-image file formats ``ImageReader`` and ``ImageWriter`` read and write: JPEG, PNG,
/// TIFF and HEIC (through libheif). DNG, QuickTime and Motion Photo have readers and writers of
/// their own.
///
/// ```swift
/// let format = try ImageFileFormat.detect(path: "photo.jpg")   // .jpeg, from the magic bytes
/// ```
public enum ImageFileFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, tiff, heic

    /// Identifies a file by its first bytes, never by its name.
    public static func detect(header: [UInt8]) -> ImageFileFormat? {
        if header.count >= 3, header[0] == 0xFF, header[1] == 0xD8, header[2] == 0xFF { return .jpeg }
        if header.count >= 8, header[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if header.count >= 4,
            header[0..<4].elementsEqual([0x49, 0x49, 0x2A, 0x00]) || header[0..<4].elementsEqual([0x4D, 0x4D, 0x00, 0x2A])
                || header[0..<4].elementsEqual([0x49, 0x49, 0x2B, 0x00]) || header[0..<4].elementsEqual([0x4D, 0x4D, 0x00, 0x2B])
        {
            return .tiff
        }
        if HEIFFile.isHEIF(head: header) { return .heic }
        return nil
    }

    /// The format by extension, for writers (`.jpg`, `.jpeg`, `.png`, `.tif`, `.tiff`, `.heic`, `.heif`).
    public static func fromExtension(_ path: String) -> ImageFileFormat? {
        switch (path as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        case "tif", "tiff": return .tiff
        case "heic", "heif": return .heic
        default: return nil
        }
    }
}
