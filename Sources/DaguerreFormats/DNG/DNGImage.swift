// Everything a DNG holds that Daguerre uses: the mosaic, its colour calibration, geometry,
// capture metadata, preview and opcode lists (DNG 1.4; SPEC R1, R5, R6).
import DaguerreCore

/// A DNG's contents, as the writer takes them and the reader returns them.
///
/// ```swift
/// var dng = DNGImage(raw: mosaic, uniqueCameraModel: "Daguerre Virtual Back Camera")
/// dng.color = calibration
/// dng.metadata = photoMetadata
/// dng.preview = previewRGB8
/// try DNGWriter.write(dng, to: "/photos/IMG_0001.dng")
/// let back = try DNGReader.read(path: "/photos/IMG_0001.dng")
/// if let mosaic = back.mosaic { print(mosaic.pattern.fourCC) }
/// ```
public struct DNGImage: Sendable {
    /// The main image: a CFA mosaic or LinearRaw samples.
    public var rawData: DNGRawData
    public var color = RawColorCalibration()
    /// Capture facts: IFD0 fields and the EXIF sub-IFD.
    public var metadata = PhotoMetadata()
    /// DNG UniqueCameraModel: names the camera for profile lookup.
    public var uniqueCameraModel: String
    /// The photosites holding image data (DNG ActiveArea); nil means the whole mosaic.
    public var activeArea: IntRect?
    /// DefaultCropOrigin/DefaultCropSize, relative to the active area; nil writes an 8-photosite
    /// margin on each side (demosaicing needs neighbours at the edges).
    public var defaultCrop: DNGCrop?
    /// An 8-bit RGB preview in sRGB (IFD0 with NewSubFileType 1); nil writes none.
    public var preview: PixelBuffer?
    /// OpcodeList1, 2 and 3 (applied to the raw, linearized and demosaiced data respectively).
    public var opcodeLists: [DNGOpcodeList] = []
    /// DNGVersion as read (1.4.0.0 when written).
    public var dngVersion: [UInt8] = [1, 4, 0, 0]

    public init(rawData: DNGRawData, uniqueCameraModel: String) {
        self.rawData = rawData
        self.uniqueCameraModel = uniqueCameraModel
    }

    public init(raw: BayerImage, uniqueCameraModel: String) { self.init(rawData: .mosaic(raw), uniqueCameraModel: uniqueCameraModel) }

    /// The CFA mosaic with its samples, or nil for a LinearRaw DNG or a mosaic still in its file.
    public var mosaic: BayerImage? { if case .mosaic(let m) = rawData { m } else { nil } }
    /// The CFA mosaic's size, order and levels, whether its samples are decoded or still in the
    /// file; nil for a LinearRaw DNG.
    public var mosaicLayout: MosaicLayout? {
        switch rawData {
        case .mosaic(let m): m.layout
        case .storedMosaic(let s): s.layout
        case .linear: nil
        }
    }
    /// The LinearRaw samples, or nil for a CFA DNG.
    public var linearRaw: LinearRawImage? { if case .linear(let l) = rawData { l } else { nil } }
    /// Width and height of the main image, in photosites (CFA) or pixels (LinearRaw).
    public var rawSize: (width: Int, height: Int) {
        switch rawData {
        case .mosaic(let m): (m.width, m.height)
        case .storedMosaic(let s): (s.layout.width, s.layout.height)
        case .linear(let l): (l.width, l.height)
        }
    }
}

/// A DNG's main image (DNG 1.4 §3, PhotometricInterpretation): a colour filter array (32803),
/// as this project's cameras write, or LinearRaw (34892), already demosaiced by another tool.
/// A mosaic a develop will stream stays in the file (``StoredMosaic``) until it is decoded.
public enum DNGRawData: Sendable, Equatable {
    case mosaic(BayerImage)
    case storedMosaic(StoredMosaic)
    case linear(LinearRawImage)

    /// The same data with the CFA pattern and black levels counted from (x, y) photosites
    /// further in (an ActiveArea origin off the pattern's repeat).
    func shiftingCFA(x dx: Int, y dy: Int) -> DNGRawData {
        switch self {
        case .mosaic(var m):
            m.pattern = m.pattern.shifted(x: dx, y: dy)
            m.xTrans = m.xTrans?.shifted(x: dx, y: dy)
            m.blackLevel = BayerPattern.shift(m.blackLevel, x: dx, y: dy)
            return .mosaic(m)
        case .storedMosaic(var s):
            s.layout.pattern = s.layout.pattern.shifted(x: dx, y: dy)
            s.layout.xTrans = s.layout.xTrans?.shifted(x: dx, y: dy)
            s.layout.blackLevel = BayerPattern.shift(s.layout.blackLevel, x: dx, y: dy)
            return .storedMosaic(s)
        case .linear:
            return self
        }
    }
}

/// DefaultCropOrigin and DefaultCropSize, in photosites relative to the active area.
public struct DNGCrop: Sendable, Equatable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
