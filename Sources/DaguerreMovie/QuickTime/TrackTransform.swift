// A track's display matrix (tkhd): how a player turns the coded frames before showing them.
import DaguerreCore
import DaguerreFormats
import Foundation

/// The display matrix of a track header (`tkhd`, AVAssetTrack's `preferredTransform`): the
/// nine values a, b, u, c, d, v, x, y, w of QuickTime's 3×3 matrix, as numbers. In the file a,
/// b, c, d, x and y are 16.16 fixed point and u, v, w are 2.30.
///
/// A point (px, py) of the coded frame (y pointing down) is shown at
/// (a·px + c·py + x, b·px + d·py + y). iPhones record portrait movies as landscape frames with
/// a = 0, b = 1, c = −1, d = 0 and x = the frame height: shown turned 90° clockwise, which
/// ``rotation`` reports as 90 and ``exifOrientation`` as 6, the EXIF value of a still that is
/// shown the same way. So a still's EXIF orientation and a movie's matrix can be applied by
/// one code path. (FFmpeg's `ffprobe` prints the same matrix as rotation −90: its angles are
/// counter-clockwise; ExifTool's `Rotation` prints 90.)
///
/// ```swift
/// let video = reader.tracks.first { $0.mediaType == .video }!
/// if let degrees = video.transform.rotation { print("shown turned \(degrees)° clockwise") }
/// let portrait = try TrackTransform(exifOrientation: 6, width: 1920, height: 1080)  // for MovieSettings.transform
/// ```
public struct TrackTransform: Sendable, Hashable {
    public var a: Double
    public var b: Double
    public var u: Double
    public var c: Double
    public var d: Double
    public var v: Double
    public var x: Double
    public var y: Double
    public var w: Double

    public init(a: Double, b: Double, u: Double = 0, c: Double, d: Double, v: Double = 0, x: Double = 0, y: Double = 0, w: Double = 1) {
        self.a = a
        self.b = b
        self.u = u
        self.c = c
        self.d = d
        self.v = v
        self.x = x
        self.y = y
        self.w = w
    }

    /// Shown as coded.
    public static let identity = TrackTransform(a: 1, b: 0, c: 0, d: 1)

    /// The matrix that shows a `width`×`height` coded frame as a still with EXIF `orientation`
    /// (1–8) is shown, translated so that the turned frame starts at (0, 0) as Apple's and
    /// FFmpeg's writers do (90°: x = height).
    public init(exifOrientation orientation: Int, width: Int, height: Int) throws(DaguerreError) {
        guard let axes = TrackTransform.axes(ofEXIFOrientation: orientation) else {
            throw .invalidArgument(what: "EXIF orientation \(orientation)", problem: "it must be 1–8")
        }
        guard width >= 0, height >= 0 else {
            throw .invalidArgument(what: "Frame size \(width)×\(height)", problem: "it must not be negative")
        }
        let (a, b, c, d) = axes
        let frameWidth = Double(width)
        let frameHeight = Double(height)
        // The translation that moves the turned frame's top-left corner back to the origin.
        let x = -(min(0, a * frameWidth) + min(0, c * frameHeight))
        let y = -(min(0, b * frameWidth) + min(0, d * frameHeight))
        self.init(a: a, b: b, c: c, d: d, x: x, y: y)
    }

    /// The matrix that turns a `width`×`height` frame `degrees` clockwise (0, 90, 180 or 270;
    /// multiples of 360 added or removed), mirrored left to right first when `mirrored`.
    public init(rotation degrees: Int, mirrored: Bool = false, width: Int, height: Int) throws(DaguerreError) {
        guard degrees % 90 == 0 else {
            throw .invalidArgument(what: "Rotation \(degrees)°", problem: "it must be a multiple of 90°")
        }
        let quarter = ((degrees / 90) % 4 + 4) % 4
        let orientation = TrackTransform.exifOrientations[mirrored ? 1 : 0][quarter]
        try self.init(exifOrientation: orientation, width: width, height: height)
    }

    /// True when the matrix shows the frame mirrored (a negative determinant).
    public var isMirrored: Bool { a * d - b * c < 0 }

    /// The clockwise angle, in degrees from −180 to 180, by which the frame's vertical axis is
    /// turned (taken after the mirroring, which leaves that axis alone); nil for a degenerate matrix.
    private var angle: Double? {
        guard c.isFinite, d.isFinite, c != 0 || d != 0 else { return nil }
        return atan2Degrees(-c, d)
    }

    /// 0, 90, 180 or 270: how far clockwise a player turns the frame, when the matrix is exactly
    /// such a turn (any uniform or non-uniform scale aside); nil when it is mirrored, turns by
    /// another angle, or is degenerate.
    public var rotation: Int? {
        guard !isMirrored, let quarter = rightAngleQuarter else { return nil }
        return quarter * 90
    }

    /// The EXIF orientation (1–8) of a still shown the way this matrix shows the frame: 1, 6, 3, 8
    /// for 0°, 90°, 180°, 270° clockwise; 2, 7, 4, 5 for the same turns after mirroring left to
    /// right. A matrix that turns by some other angle gets the nearest right angle; a degenerate
    /// one 1.
    public var exifOrientation: Int {
        guard let angle else { return 1 }
        let quarter = ((Int((angle / 90).rounded()) % 4) + 4) % 4
        return TrackTransform.exifOrientations[isMirrored ? 1 : 0][quarter]
    }

    /// The quarter turn (0–3) when both axes lie on the coordinate axes, else nil.
    private var rightAngleQuarter: Int? {
        guard let angle else { return nil }
        let scale = max(abs(a), abs(b), abs(c), abs(d))
        // Off-axis parts below 1/65536 of the scale are fixed-point dust, not a tilt.
        let dust = scale / 65536
        let aligned =
            (abs(b) <= dust && abs(c) <= dust && abs(a) > dust && abs(d) > dust)
            || (abs(a) <= dust && abs(d) <= dust && abs(b) > dust && abs(c) > dust)
        guard aligned else { return nil }
        return ((Int((angle / 90).rounded()) % 4) + 4) % 4
    }

    /// EXIF orientations by [mirrored][clockwise quarter turns]: mirroring left to right and
    /// then turning 90° clockwise is EXIF 7 ("mirror horizontal and rotate 90 CW").
    private static let exifOrientations: [[Int]] = [[1, 6, 3, 8], [2, 7, 4, 5]]

    /// The linear part (a, b, c, d) that shows a frame as EXIF `orientation` shows a still.
    private static func axes(ofEXIFOrientation orientation: Int) -> (Double, Double, Double, Double)? {
        switch orientation {
        case 1: return (1, 0, 0, 1)
        case 2: return (-1, 0, 0, 1)
        case 3: return (-1, 0, 0, -1)
        case 4: return (1, 0, 0, -1)
        case 5: return (0, 1, 1, 0)
        case 6: return (0, 1, -1, 0)
        case 7: return (0, -1, -1, 0)
        case 8: return (0, -1, 1, 0)
        default: return nil
        }
    }

    // MARK: - Fixed point

    /// Reads the nine 32-bit values as the file stores them.
    init(fixedPoint m: [Int32]) {
        func f16(_ i: Int) -> Double { i < m.count ? Double(m[i]) / 65536 : 0 }
        func f30(_ i: Int) -> Double { i < m.count ? Double(m[i]) / 1_073_741_824 : 0 }
        self.init(a: f16(0), b: f16(1), u: f30(2), c: f16(3), d: f16(4), v: f30(5), x: f16(6), y: f16(7), w: f30(8))
    }

    /// The nine 32-bit values to store: 16.16 and 2.30 fixed point, rounded and clamped to their range.
    var fixedPoint: [Int32] {
        func fixed(_ value: Double, _ one: Double) -> Int32 {
            guard value.isFinite else { return 0 }
            return Int32(clamping: Int64((value * one).rounded().clamped(-2_147_483_648, 2_147_483_647)))
        }
        let f16 = 65536.0
        let f30 = 1_073_741_824.0
        return [
            fixed(a, f16), fixed(b, f16), fixed(u, f30), fixed(c, f16), fixed(d, f16), fixed(v, f30),
            fixed(x, f16), fixed(y, f16), fixed(w, f30),
        ]
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}

/// atan2 in degrees, exact on the axes (the directions real matrices use).
private func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    if y == 0 { return x >= 0 ? 0 : 180 }
    if x == 0 { return y > 0 ? 90 : -90 }
    return atan2(y, x) * 180 / Double.pi
}
