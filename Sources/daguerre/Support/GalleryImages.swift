import DaguerreCore
import DaguerreImage
import DaguerreVirtualCamera
import Foundation

/// The images the filter gallery feeds each filter: the standard image for `inputImage`, a
/// second image for backgrounds and transition targets, a soft mask for masks, shading and
/// displacement maps, and an eight-colour strip for palettes and k-means seeds.
///
/// The standard image is the virtual camera's studio scene as its truth (SPEC C4), not as a
/// camera sees it: the ColorChecker's 24 patches from their measured spectra under D65, a
/// slanted edge, a grey ramp, a chirp and a Siemens star on a mid-grey wall, in linear sRGB,
/// sampled 4 times per pixel. Colour, tone, edges and fine detail are all there to show what a
/// filter does, and it needs no file.
///
/// ```swift
/// let images = try GalleryImages(width: 480, height: 360)
/// let look = try FilterRegistry.descriptor(named: "SepiaTone").apply(["inputImage": .image(images.standard)])
/// ```
struct GalleryImages {
    let standard: Image
    let second: Image
    let mask: Image
    let palette: Image
    var extent: Rect { standard.extent }

    /// The studio scene at `width`×`height`, or `photo` (read from a file) fitted to that size.
    init(width: Int, height: Int, photo: URL? = nil) throws(DaguerreError) {
        let frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        if let photo {
            let image = try Image(contentsOf: photo)
            standard = Self.fit(image, into: frame, interpolation: .lanczos).cropped(to: frame)
        } else {
            standard = try Self.studio(width: width, height: height)
        }
        let mirror = AffineTransform2D(a: -1, b: 0, c: 0, d: 1, tx: Double(width), ty: 0)
        second = standard.transformed(by: mirror, interpolation: .nearest).cropped(to: frame)
        let w = Double(width)
        let h = Double(height)
        mask = try FilterRegistry.descriptor(named: "RadialGradient").apply([
            "inputCenter": .vector([w / 2, h / 2]), "inputRadius0": .number(0), "inputRadius1": .number(min(w, h) * 0.6),
            "inputColor0": .color(.white), "inputColor1": .color(.black),
        ]).cropped(to: frame)
        palette = try Self.palette()
    }

    /// Black, white, the three primaries and their complements, as an 8×1 strip (linear sRGB).
    static func palette() throws(DaguerreError) -> Image {
        let colours: [SIMD4<Float>] = [
            [0, 0, 0, 1], [1, 1, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1],
        ]
        var buffer = try PixelBuffer(width: colours.count, height: 1, format: .rgbaf)
        buffer.withUnsafeMutableBytes { raw in
            for (i, c) in colours.enumerated() { raw.storeBytes(of: c, toByteOffset: i * 16, as: SIMD4<Float>.self) }
        }
        return Image(buffer: buffer, colorSpace: .extendedLinearSRGB)
    }

    /// The image for an image parameter, by what its key says it is.
    func image(forKey key: String) -> Image {
        if key == FilterParameter.inputImageKey { return standard }
        if key == "inputPaletteImage" || key == "inputMeans" { return palette }
        let masks = ["Mask", "Shading", "Displacement", "Texture", "Gradient"]
        if masks.contains(where: key.contains) { return mask }
        if key == "inputSmallImage" {
            let quarter = AffineTransform2D(scaleX: 0.25, y: 0.25)
            return standard.transformed(by: quarter, interpolation: .lanczos).cropped(
                to: Rect(x: 0, y: 0, width: extent.width / 4, height: extent.height / 4))
        }
        return second
    }

    /// `image` scaled (never cropped) to fit `frame`, centred in it.
    static func fit(_ image: Image, into frame: Rect, interpolation: Interpolation) -> Image {
        let e = image.extent
        let s = min(frame.width / e.width, frame.height / e.height)
        let ox = frame.minX + (frame.width - e.width * s) / 2
        let oy = frame.minY + (frame.height - e.height * s) / 2
        return image.transformed(
            by: AffineTransform2D(a: s, b: 0, c: 0, d: s, tx: ox - s * e.minX, ty: oy - s * e.minY), interpolation: interpolation)
    }

    /// The studio scene's truth in linear sRGB: camera response per lux back through the
    /// lighting's sRGB-to-camera matrix, normalized so the 100% white reflector is (1, 1, 1).
    static func studio(width: Int, height: Int) throws(DaguerreError) -> Image {
        let scene = StudioScene()
        let lighting = SceneLighting.under(.d65)
        guard let toSRGB = lighting.srgbToCamera.inverse else {
            throw .colorManagement(detail: "the D65 lighting's sRGB-to-camera matrix has no inverse")
        }
        let white = toSRGB * SIMD3<Double>(lighting.neutralResponse)
        var buffer = try PixelBuffer(width: width, height: height, format: .rgbaf)
        let bpr = buffer.bytesPerRow
        buffer.withUnsafeMutableBytes { raw in
            for y in 0..<height {
                for x in 0..<width {
                    var sum = SIMD3<Double>()
                    for (sx, sy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                        let u = (Double(x) + sx) / Double(width)
                        let v = (Double(y) + sy) / Double(height)
                        sum += toSRGB * SIMD3<Double>(scene.sample(u: u, v: v, lighting: lighting).response)
                    }
                    let rgb = SIMD3<Float>(sum / 4 / white)
                    raw.storeBytes(of: SIMD4(rgb, 1), toByteOffset: y * bpr + x * 16, as: SIMD4<Float>.self)
                }
            }
        }
        return Image(buffer: buffer, colorSpace: .extendedLinearSRGB)
    }
}
