/// Resource limits that readers and renderers check *before* allocating.
///
/// Hostile files declare absurd sizes (a PNG header can claim 10⁶×10⁶ pixels); every reader
/// compares declared width × height × bytes per pixel with these limits first and throws
/// ``DaguerreError/tooLarge(what:value:limit:)``.
///
/// ```swift
/// var limits = Limits.default
/// limits.maxPixels = 1 << 32   // a 4-gigapixel panorama, on purpose
/// ```
public struct Limits: Sendable, Hashable {
    /// Largest width or height accepted (libjpeg's own limit is 65 500).
    public var maxDimension: Int
    /// Largest width × height accepted: 1 Gi pixels by default (a 400 MP render is fine).
    public var maxPixels: Int
    /// Largest single buffer Daguerre allocates, in bytes (4 GiB by default).
    public var maxBufferBytes: Int

    public init(maxDimension: Int = 1 << 18, maxPixels: Int = 1 << 30, maxBufferBytes: Int = 1 << 32) {
        self.maxDimension = maxDimension
        self.maxPixels = maxPixels
        self.maxBufferBytes = maxBufferBytes
    }

    public static let `default` = Limits()

    /// Throws unless a `width`×`height` image of `bytesPerPixel` fits these limits.
    public func check(width: Int, height: Int, bytesPerPixel: Int = 1, what: String = "Image") throws(DaguerreError) {
        guard width > 0, height > 0 else {
            throw .invalidArgument(what: "\(what) size \(width)×\(height)", problem: "width and height must be positive")
        }
        if width > maxDimension { throw .tooLarge(what: "\(what) width", value: width, limit: maxDimension) }
        if height > maxDimension { throw .tooLarge(what: "\(what) height", value: height, limit: maxDimension) }
        let (pixels, o1) = width.multipliedReportingOverflow(by: height)
        if o1 || pixels > maxPixels {
            throw .tooLarge(what: "\(what) pixel count (\(width)×\(height))", value: o1 ? Int.max : pixels, limit: maxPixels)
        }
        let (bytes, o2) = pixels.multipliedReportingOverflow(by: max(1, bytesPerPixel))
        if o2 || bytes > maxBufferBytes {
            throw .tooLarge(what: "\(what) buffer size in bytes", value: o2 ? Int.max : bytes, limit: maxBufferBytes)
        }
    }
}
