// A thumbnail item of a HEIF image (`thmb` reference).

/// A smaller coded copy of a HEIF image, stored as an item of its own (iPhones write one of
/// 320 px or 512 px on the long side, Samsung one of 512).
///
/// ```swift
/// let file = try HEIFFile(path: "IMG_0001.HEIC")
/// print(file.thumbnails.map { "\($0.width)×\($0.height)" })
/// ```
public struct HEIFThumbnail: Sendable, Equatable {
    public var id: UInt32
    public var width: Int
    public var height: Int

    public init(id: UInt32, width: Int, height: Int) {
        self.id = id
        self.width = width
        self.height = height
    }
}
