// Camera RAW files other than DNG, through LibRaw (SPEC X6; Debian's libraw_r 0.20, about 1100
// cameras): LibRaw only decodes (the unpacked Bayer mosaic, levels, the camera's Adobe colour
// matrix and as-shot multipliers, capture facts); the development is RAWFilter's own.
import CLibRaw
import DaguerreCore
import DaguerreFormats
import Foundation

/// Reads a camera RAW file into a ``DNGImage`` (Bayer mosaic of the visible area, with its
/// calibration), so every RAW develops through the same pipeline as a DNG.
///
/// ```swift
/// let dng = try LibRawReader.read(path: "IMG_0001.CR2")
/// let developed = try RAWFilter(dng: dng).outputImage()
/// ```
public enum LibRawReader {
    public static func read(path: String, limits: Limits = .default) throws(DaguerreError) -> DNGImage {
        try read(path: path, limits: limits) { libraw_open_file($0, path) }
    }

    /// A RAW file's bytes (for instance from a network or a database); `name` goes into error
    /// messages.
    public static func read(bytes: [UInt8], name: String = "RAW data", limits: Limits = .default) throws(DaguerreError) -> DNGImage {
        // LibRaw reads (never writes) the buffer until the handle is closed, which `read` does
        // before returning; its C signature is merely not const.
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(DaguerreError) in
                try read(path: name, limits: limits) {
                    libraw_open_buffer($0, UnsafeMutableRawPointer(mutating: raw.baseAddress), raw.count)
                }
            }
        }
        return try result.get()
    }

    /// Decodes what `open` opened on a fresh handle; `path` names the input in errors.
    private static func read(path: String, limits: Limits, open: (UnsafeMutablePointer<libraw_data_t>) -> Int32) throws(DaguerreError)
        -> DNGImage
    {
        guard let handle = libraw_init(0) else {
            throw .io(operation: "start LibRaw for", path: path, reason: "libraw_init returned nothing (out of memory)")
        }
        defer { libraw_close(handle) }
        func check(_ rc: Int32, _ step: String) throws(DaguerreError) {
            guard rc != 0 else { return }
            let message = String(cString: libraw_strerror(rc))
            if rc == LIBRAW_FILE_UNSUPPORTED.rawValue {
                throw .unsupported(
                    feature: "this RAW format (\(path): LibRaw says \(message))",
                    hint: "Convert it to DNG, or check the file is a camera RAW.")
            }
            throw .corruptData(format: "RAW", detail: "LibRaw could not \(step): \(message)", path: path)
        }
        try check(open(handle), "open the file")
        // Fields are read through the handle: libraw_data_t is hundreds of kilobytes, too big to copy.
        let sizes = handle.pointee.sizes
        let idata = handle.pointee.idata
        let width = Int(sizes.width)
        let height = Int(sizes.height)
        let rawWidth = Int(sizes.raw_width)
        let rawHeight = Int(sizes.raw_height)
        try limits.check(width: rawWidth, height: rawHeight, bytesPerPixel: 2, what: "RAW mosaic")
        // LibRaw's colour letters (cdesc): R, G, B, and for other filters C, M, Y, E (emerald), W.
        let letters = withUnsafeBytes(of: idata.cdesc) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let rgb = letters.hasPrefix("RGB")
        guard idata.colors == 3, rgb, idata.filters != 0, idata.filters >= 1000 || idata.filters == 9, idata.is_foveon == 0 else {
            let names = ["R": "red", "G": "green", "B": "blue", "C": "cyan", "M": "magenta", "Y": "yellow", "E": "emerald", "W": "white"]
            let colours = letters.prefix(Int(max(0, idata.colors))).map { names[String($0)] ?? "'\($0)'" }.joined(separator: ", ")
            let layout =
                idata.is_foveon != 0
                ? "a Foveon (three layers per photosite) sensor"
                : idata.filters == 0
                    ? "a linear RAW of \(idata.colors) colours per pixel (no colour filter mosaic)"
                    : idata.colors != 3 || !rgb
                        ? "a \(idata.colors)-colour CFA of \(colours)"
                        : "a CFA LibRaw describes as filters \(idata.filters)"
            throw .unsupported(
                feature: "developing \(layout) (\(path))",
                hint:
                    "RAWFilter develops red, green and blue 2×2 Bayer mosaics and Fujifilm X-Trans; convert other sensors' files with their maker's software."
            )
        }
        try check(libraw_unpack(handle), "unpack the raw data")
        let unpackedSizes = handle.pointee.sizes  // after unpack: the margins are final
        guard let raw = handle.pointee.rawdata.raw_image, width >= 2, height >= 2,
            Int(unpackedSizes.top_margin) + height <= rawHeight, Int(unpackedSizes.left_margin) + width <= rawWidth
        else {
            throw .unsupported(feature: "this RAW layout (\(path))", hint: "LibRaw gave no single-plane mosaic for it.")
        }
        // Whole 2×2 blocks of the visible area.
        let w = width & ~1
        let h = height & ~1
        let pitch = Int(unpackedSizes.raw_pitch) / 2
        let top = Int(unpackedSizes.top_margin)
        let left = Int(unpackedSizes.left_margin)
        var samples = [UInt16](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { samples[y * w + x] = raw[(top + y) * pitch + left + x] } }
        var cfa: [UInt8] = []
        for (y, x) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            let c = libraw_COLOR(handle, Int32(y), Int32(x))
            cfa.append(UInt8(c == 3 ? 1 : c))
        }
        // X-Trans (LibRaw's filters 9): its 6×6 pattern, as LibRaw gives it for the visible area.
        var xTrans: XTransPattern?
        if idata.filters == 9 {
            let six = (0..<36).map { UInt8(libraw_COLOR(handle, Int32($0 / 6), Int32($0 % 6))) }
            guard let found = XTransPattern(cfaPattern: six) else {
                throw .unsupported(
                    feature: "the 6×6 CFA layout \(six) (\(path))", hint: "Only Fujifilm's X-Trans layout is developed among 6×6 patterns.")
            }
            xTrans = found
        }
        guard let pattern = xTrans != nil ? .rggb : BayerPattern(cfaPattern: cfa) else {
            throw .unsupported(feature: "the CFA layout \(cfa) (\(path))", hint: "Only RGGB, GRBG, BGGR and GBRG mosaics are developed.")
        }
        var camMul = [Float](repeating: 0, count: 4)
        var camXYZ = [Float](repeating: 0, count: 9)
        var maximum: Float = 0
        dag_libraw_color(handle, &camMul, &camXYZ, &maximum)
        var preMul = [Float](repeating: 0, count: 4)
        var rgbCam = [Float](repeating: 0, count: 9)
        dag_libraw_daylight(handle, &preMul, &rgbCam)
        // Black per 2×2 position: common, per-colour (G2 is LibRaw's colour 3) and repeat-pattern levels.
        let positionBlack = (0..<4).map { p in Double(dag_libraw_black_at(handle, Int32(p / 2), Int32(p % 2))) }
        let bits = max(8, min(16, Int(log2(Double(max(maximum, 255))).rounded(.up))))
        var mosaic = try BayerImage(
            width: w, height: h, pattern: pattern, bitsPerSample: bits, samples: samples,
            blackLevel: positionBlack, whiteLevel: Int(max(maximum, 1)))
        mosaic.xTrans = xTrans
        var dng = DNGImage(
            raw: mosaic, uniqueCameraModel: "\(String(cString: dag_libraw_make(handle))) \(String(cString: dag_libraw_model(handle)))")
        dng.color = Self.color(
            camMul: camMul.map(Double.init), camXYZ: camXYZ.map(Double.init), preMul: preMul.map(Double.init),
            rgbCam: rgbCam.map(Double.init))
        dng.defaultCrop = DNGCrop(x: 0, y: 0, width: Double(w), height: Double(h))
        var m = PhotoMetadata(make: String(cString: dag_libraw_make(handle)), model: String(cString: dag_libraw_model(handle)))
        let other = handle.pointee.other
        if other.iso_speed > 0 { m.iso = Int(other.iso_speed.rounded()) }
        if other.shutter > 0 { m.exposureTime = Double(other.shutter) }
        if other.aperture > 0 { m.fNumber = Double(other.aperture) }
        if other.focal_len > 0 { m.focalLength = Double(other.focal_len) }
        if other.timestamp > 0 { m.dateTimeOriginal = Date(timeIntervalSince1970: TimeInterval(other.timestamp)) }
        dng.metadata = m
        return dng
    }

    /// The calibration LibRaw's colour facts make, in LibRaw's and dcraw's order of fallbacks.
    ///
    /// The matrix: `cam_xyz` (XYZ → camera for D65: the file's, or Adobe's table for the
    /// camera); else the one `rgb_cam` and `pre_mul` imply (LibRaw keeps a DNG's own matrix
    /// only there: `cam_rgb = diag(1/pre_mul) · rgb_cam⁻¹`, then through sRGB to XYZ); else,
    /// `rgb_cam` being the identity, raw colour (``RawColorCalibration/MatrixSource/none``).
    /// The white: `cam_mul` when its red, green and blue are positive (LibRaw marks a missing
    /// as-shot white with −1 or zeros); the daylight multipliers `pre_mul` otherwise.
    static func color(camMul: [Double], camXYZ: [Double], preMul: [Double], rgbCam: [Double]) -> RawColorCalibration {
        var c = RawColorCalibration()
        c.calibrationIlluminant1 = .d65
        let positive = { (v: [Double]) in v.prefix(3).allSatisfy { $0.isFinite && $0 > 0 } }
        let identity = rgbCam == Matrix3.identity.m
        if camXYZ.contains(where: { $0 != 0 }), camXYZ.allSatisfy(\.isFinite) {
            c.colorMatrix1 = camXYZ
            c.matrixSource = .cameraTable
        } else if !identity, positive(preMul), let camRGB = Matrix3(rgbCam).inverse, let xyzToSRGB = Primaries.srgb.rgbToXYZ.inverse {
            c.colorMatrix1 = (Matrix3.diagonal(1 / preMul[0], 1 / preMul[1], 1 / preMul[2]) * camRGB * xyzToSRGB).m
            c.matrixSource = .file
        } else {
            c.colorMatrix1 = RawColorCalibration.rawColorMatrix
            c.matrixSource = .none
        }
        if positive(camMul) {
            c.asShotNeutral = [camMul[1] / camMul[0], 1, camMul[1] / camMul[2]]
        }
        if positive(preMul) {
            c.daylightNeutral = [preMul[1] / preMul[0], 1, preMul[1] / preMul[2]]
        }
        return c
    }
}
