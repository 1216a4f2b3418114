// Which container flavour a MovieWriter writes: QuickTime movie or MPEG-4.
import DaguerreCore
import DaguerreFormats

/// The container a ``MovieWriter`` produces (AVFileType.mov / .mp4).
///
/// The two share the box structure; they differ in the `ftyp` brands, in a few atoms QuickTime
/// has and ISO does not (the data handler `hdlr` in `minf`, counted handler names, the
/// non-full `meta` atom) and in what sample entries they allow: a Live Photo movie (SPEC L2–L4)
/// is QuickTime with PCM audio and a `mebx` track; a Motion Photo video is MPEG-4 with AAC.
///
/// ```swift
/// let writer = try MovieWriter(destination: "clip.mp4", fileType: .mpeg4)
/// ```
public enum MovieFileType: String, Sendable, Hashable {
    /// `ftyp` 'qt  ': Apple's QuickTime File Format.
    case quickTimeMovie = "mov"
    /// `ftyp` 'mp42' compatible with 'isom': ISO/IEC 14496-14.
    case mpeg4 = "mp4"

    var majorBrand: FourCC { self == .quickTimeMovie ? "qt  " : "mp42" }
    var compatibleBrands: [FourCC] { self == .quickTimeMovie ? ["qt  "] : ["isom", "mp42"] }
}
