/// How one pixel is laid out in memory (I5, K3).
///
/// Interleaved formats only; planar video formats (420v/420f) and Bayer mosaics arrive with the
/// capture and RAW issues. Names follow Core Image (`RGBAh` is half float, `RGBAf` float, `R8`
/// a single 8-bit channel). Single- and two-channel formats read back as (r, 0, 0, 1) and
/// (r, g, 0, 1), as Metal textures do; luminance formats (`L8`, `LA16`…) as (l, l, l, a).
///
/// ```swift
/// let f = PixelFormat.rgbah
/// f.bytesPerPixel   // 8
/// ```
public struct PixelFormat: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case uint8, uint16, float16, float32
        public var size: Int {
            switch self {
            case .uint8: 1
            case .uint16, .float16: 2
            case .float32: 4
            }
        }
        public var isFloat: Bool { self == .float16 || self == .float32 }
    }
    public enum Layout: Sendable, Hashable {
        case r, rg, rgb, rgba, bgra, l, la
        public var channels: Int {
            switch self {
            case .r, .l: 1
            case .rg, .la: 2
            case .rgb: 3
            case .rgba, .bgra: 4
            }
        }
        public var hasAlpha: Bool { self == .rgba || self == .bgra || self == .la }
    }

    public let layout: Layout
    public let component: Component

    public init(_ layout: Layout, _ component: Component) {
        self.layout = layout
        self.component = component
    }

    public var channels: Int { layout.channels }
    public var bytesPerPixel: Int { layout.channels * component.size }
    public var hasAlpha: Bool { layout.hasAlpha }

    public static let rgba8 = PixelFormat(.rgba, .uint8)
    public static let bgra8 = PixelFormat(.bgra, .uint8)
    public static let rgbah = PixelFormat(.rgba, .float16)
    public static let rgbaf = PixelFormat(.rgba, .float32)
    public static let rgba16 = PixelFormat(.rgba, .uint16)
    public static let rgb8 = PixelFormat(.rgb, .uint8)
    public static let rgb16 = PixelFormat(.rgb, .uint16)
    public static let rgbh = PixelFormat(.rgb, .float16)
    public static let rgbf = PixelFormat(.rgb, .float32)
    public static let r8 = PixelFormat(.r, .uint8)
    public static let r16 = PixelFormat(.r, .uint16)
    public static let rh = PixelFormat(.r, .float16)
    public static let rf = PixelFormat(.r, .float32)
    public static let rg8 = PixelFormat(.rg, .uint8)
    public static let rgh = PixelFormat(.rg, .float16)
    public static let rgf = PixelFormat(.rg, .float32)
    public static let l8 = PixelFormat(.l, .uint8)
    public static let l16 = PixelFormat(.l, .uint16)
    public static let la8 = PixelFormat(.la, .uint8)
    public static let la16 = PixelFormat(.la, .uint16)

    /// Every format, for parsing names and for exhaustive tests.
    public static let all: [PixelFormat] = [
        .rgba8, .bgra8, .rgbah, .rgbaf, .rgba16, .rgb8, .rgb16, .rgbh, .rgbf,
        .r8, .r16, .rh, .rf, .rg8, .rgh, .rgf, .l8, .l16, .la8, .la16,
    ]

    /// Core Image-style name: RGBA8, RGBAh, Rf, LA16...
    public var description: String {
        let l: String
        switch layout {
        case .r: l = "R"
        case .rg: l = "RG"
        case .rgb: l = "RGB"
        case .rgba: l = "RGBA"
        case .bgra: l = "BGRA"
        case .l: l = "L"
        case .la: l = "LA"
        }
        let c: String
        switch component {
        case .uint8: c = "8"
        case .uint16: c = "16"
        case .float16: c = "h"
        case .float32: c = "f"
        }
        return l + c
    }

    /// Parses a name as printed by `description` (case-insensitive for the layout).
    public init?(name: String) {
        guard let f = PixelFormat.all.first(where: { $0.description.lowercased() == name.lowercased() }) else { return nil }
        self = f
    }
}
