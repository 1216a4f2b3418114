import Foundation

/// The still-image file formats DaguerreFormats reads and writes (for now JPEG, PNG and TIFF;
/// DNG, QuickTime and Motion Photo come with the formats issue).
///
/// ```swift
/// let format = try ImageFileFormat.detect(path: "photo.jpg")   // .jpeg, from the magic bytes
/// ```
public enum ImageFileFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, tiff

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
        return nil
    }

    /// The format by extension, for writers (`.jpg`, `.jpeg`, `.png`, `.tif`, `.tiff`).
    public static func fromExtension(_ path: String) -> ImageFileFormat? {
        switch (path as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        case "tif", "tiff": return .tiff
        default: return nil
        }
    }
}
