import DaguerreCore
import DaguerreTestSupport
import Foundation

@testable import DaguerreFormats

/// Mosaics and calibrated charts for the DNG tests, with their ground truth.
enum SyntheticRaw {
    static let black = 528.0, white = 16383

    /// A smooth 14-bit scene with seeded noise, odd-sized against the 256-pixel tiles.
    static func mosaic(_ pattern: BayerPattern, width: Int = 600, height: Int = 400, seed: UInt64 = 7) throws -> BayerImage {
        var raw = try BayerImage(width: width, height: height, pattern: pattern, bitsPerSample: 14)
        var rng = SeededRandom(seed: seed)
        for y in 0..<height {
            for x in 0..<width {
                let c = pattern.color(x: x, y: y)
                let base = 600.0 + Double(x * 20 + y * 9 + c * 1500)
                let v = base + Double.random(in: -40...40, using: &rng)
                raw.samples[y * width + x] = UInt16(max(0, min(Double(white), v)))
            }
        }
        raw.blackLevel = [black, black, black, black]
        raw.whiteLevel = white
        return raw
    }

    /// The 24 ColorChecker patches as published sRGB 8-bit values (X-Rite, D65).
    static let checkerSRGB: [[Double]] = [
        [115, 82, 68], [194, 150, 130], [98, 122, 157], [87, 108, 67], [133, 128, 177], [103, 189, 170],
        [214, 126, 44], [80, 91, 166], [193, 90, 99], [94, 60, 108], [157, 188, 64], [224, 163, 46],
        [56, 61, 150], [70, 148, 73], [175, 54, 60], [231, 199, 31], [187, 86, 149], [8, 133, 161],
        [243, 243, 242], [200, 200, 200], [160, 160, 160], [122, 122, 121], [85, 85, 85], [52, 52, 52],
    ]

    struct Chart {
        var dng: DNGImage
        /// JSON for dng_judge.py develop.
        var spec: [String: Any]
    }

    /// A noise-free chart shot under D65 by a camera whose native space is a known linear map of
    /// XYZ, with colour matrices for D65 and Standard Illuminant A and matching forward matrices.
    static func chart(pattern: BayerPattern = .rggb, exposure: Double = 0.5) throws -> Chart {
        let xyzToBT2020 = Primaries.bt2020.rgbToXYZ.inverse!
        let camera = Matrix3.diagonal(0.5, 1.0, 0.7) * xyzToBT2020  // XYZ -> camera
        let wD65 = Primaries.xyz(Primaries.d65)
        let wA = Primaries.xyz(SIMD2(0.44757, 0.40745))
        let wD50 = Primaries.xyz(Primaries.d50)
        func normalized(_ w: SIMD3<Double>) -> Matrix3 {
            let n = camera * w
            let k = 1 / max(n.x, n.y, n.z)
            return Matrix3(camera.m.map { $0 * k })
        }
        func forward(_ w: SIMD3<Double>) -> Matrix3 {
            let n = camera * w
            return Matrix3.bradfordAdaptation(from: w, to: wD50) * camera.inverse! * Matrix3.diagonal(n.x, n.y, n.z)
        }
        let neutral = camera * wD65
        let size = 64
        let gap = 8
        let width = 6 * (size + gap) + gap
        let height = 4 * (size + gap) + gap
        var raw = try BayerImage(width: width, height: height, pattern: pattern, bitsPerSample: 14)
        raw.blackLevel = [black, black, black, black]
        raw.whiteLevel = white
        let range = Double(white) - black
        let srgbToXYZ = Primaries.srgb.rgbToXYZ
        func lin(_ v: Double) -> Double {
            let c = v / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let gray = srgbToXYZ * SIMD3(repeating: 0.18)
        var patches: [[String: Any]] = []
        var field = [SIMD3<Double>](repeating: camera * gray, count: width * height)
        for (i, s) in checkerSRGB.enumerated() {
            let xyz = srgbToXYZ * SIMD3(lin(s[0]), lin(s[1]), lin(s[2]))
            let x0 = gap + (i % 6) * (size + gap)
            let y0 = gap + (i / 6) * (size + gap)
            for y in y0..<y0 + size { for x in x0..<x0 + size { field[y * width + x] = camera * xyz } }
            patches.append(["x": x0, "y": y0, "size": size, "xyz": [xyz.x, xyz.y, xyz.z]])
        }
        for y in 0..<height {
            for x in 0..<width {
                let c = field[y * width + x]
                let v = [c.x, c.y, c.z][pattern.color(x: x, y: y)]
                raw.samples[y * width + x] = UInt16((black + exposure * range * v).rounded())
            }
        }
        var dng = DNGImage(raw: raw, uniqueCameraModel: "Daguerre Synthetic Camera")
        dng.color.colorMatrix1 = normalized(wA).m
        dng.color.calibrationIlluminant1 = .standardA
        dng.color.colorMatrix2 = normalized(wD65).m
        dng.color.calibrationIlluminant2 = .d65
        dng.color.forwardMatrix1 = forward(wA).m
        dng.color.forwardMatrix2 = forward(wD65).m
        dng.color.asShotNeutral = [neutral.x, neutral.y, neutral.z]
        dng.metadata = PhotoMetadata(make: "Daguerre", model: "Synthetic Camera", software: "Daguerre tests")
        return Chart(dng: dng, spec: ["exposure": exposure, "patches": patches])
    }
}
