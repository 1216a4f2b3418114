// Where a develop's input came from (SPEC X6): which reader decoded the file, why our DNG reader
// handed it to LibRaw when it did, and where the colour matrix and the default white come from,
// so a develop can say when it fell back to something the file did not give.
import DaguerreCore

/// How a RAW file was read, and where its colour comes from.
///
/// ```swift
/// let raw = try RAWFilter(url: URL(fileURLWithPath: "IMG_0001.CRW"))
/// print(raw.provenance)   // "read by LibRaw; matrix: LibRaw's table for the camera; white: the camera's daylight multipliers (the file has no as-shot white)"
/// if raw.provenance.matrix == .none { print("no colour matrix: developed in raw colour") }
/// ```
public struct RAWProvenance: Sendable, Equatable, CustomStringConvertible {
    /// The decoder of the file's mosaic and facts.
    public enum Reader: String, Sendable, Equatable {
        /// Daguerre's DNG reader (``DNGReader``), or a mosaic given in memory.
        case daguerre
        /// LibRaw (``LibRawReader``): camera formats other than DNG, and DNGs our reader refuses.
        case libRaw
    }

    public var reader: Reader
    /// Why our DNG reader refused a DNG that LibRaw then read (its error's message); nil when it
    /// did not refuse.
    public var refusal: String?
    /// Where the colour matrix came from; ``RawColorCalibration/MatrixSource/none`` means raw
    /// colour: the camera has no matrix in the file or in LibRaw's tables.
    public var matrix: RawColorCalibration.MatrixSource
    /// Where the white balance (``RAWFilter/neutralTemperature`` and tint) came from: the
    /// default's source, or ``CameraColorModel/WhiteSource/image`` after
    /// ``RAWFilter/setNeutralFromImage()``.
    public var white: CameraColorModel.WhiteSource

    public init(
        reader: Reader, refusal: String? = nil, matrix: RawColorCalibration.MatrixSource, white: CameraColorModel.WhiteSource
    ) {
        self.reader = reader
        self.refusal = refusal
        self.matrix = matrix
        self.white = white
    }

    /// True when the develop uses something the file did not give: another reader than ours
    /// for a DNG, a matrix from elsewhere or none, or a white that is not the shot's.
    public var hasFallback: Bool { refusal != nil || matrix != .file || white != .asShot }

    public var description: String {
        var parts: [String] = []
        switch reader {
        case .daguerre: parts.append("read by Daguerre")
        case .libRaw: parts.append("read by LibRaw" + (refusal.map { " (our DNG reader: \($0))" } ?? ""))
        }
        switch matrix {
        case .file: parts.append("matrix: the file's")
        case .cameraTable: parts.append("matrix: LibRaw's table for the camera (the file has none)")
        case .none: parts.append("matrix: none for this camera, developed in raw colour (camera RGB as linear sRGB)")
        }
        switch white {
        case .asShot: parts.append("white: as shot")
        case .daylight: parts.append("white: the camera's daylight multipliers (the file has no as-shot white)")
        case .d65: parts.append("white: D65 (the file has no as-shot white and the camera no daylight multipliers)")
        case .image: parts.append("white: guessed from the image, as asked")
        }
        return parts.joined(separator: "; ")
    }
}
