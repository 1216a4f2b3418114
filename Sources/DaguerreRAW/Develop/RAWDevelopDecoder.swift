// The first stages of RAW development as a streaming source (SPEC X2, X3, X6): linearize (black
// and white levels per CFA position), demosaic, and the camera → working-space matrix (which
// carries the white balance), row band by row band as the engine asks, so a whole developed
// image never exists in memory. Our own code: the stages are the point of the project.
import DaguerreCore
import DaguerreFormats
import Dispatch

/// What the decoder needs to develop a mosaic: decided by ``RAWFilter``.
struct DevelopSettings: Sendable {
    /// Camera RGB (linearized, 0...1 of the white level above black) → working RGB, white balance included.
    var matrix: Matrix3
    /// The photosites developed (DNG ActiveArea and DefaultCrop).
    var crop: IntRect
    var workingSpace: ColorSpace
    var demosaic: DemosaicMethod
}

/// The demosaic methods (X2: a fast one for draft mode and small scales, a high-quality one).
public enum DemosaicMethod: String, Sendable, CaseIterable {
    /// Each missing colour is the mean of its nearest same-colour photosites (3×3).
    case bilinear
}

/// Develops rows of a Bayer mosaic into linear RGB float rows (`.rgbf`) in the working space.
final class RAWDevelopDecoder: ImageDecoder {
    let info: ImageFileInfo
    private let mosaic: BayerImage
    private let settings: DevelopSettings
    private var columns: Range<Int>

    init(mosaic: BayerImage, settings: DevelopSettings) throws(DaguerreError) {
        let c = settings.crop
        guard c.width > 0, c.height > 0, c.x >= 0, c.y >= 0, c.maxX <= mosaic.width, c.maxY <= mosaic.height,
              mosaic.width >= 2, mosaic.height >= 2 else {
            throw .invalidArgument(what: "RAW crop \(c) of a \(mosaic.width)×\(mosaic.height) mosaic", problem: "must lie inside the mosaic, which must be at least 2×2")
        }
        try Limits.default.check(width: c.width, height: c.height, bytesPerPixel: 12, what: "developed RAW image")
        self.mosaic = mosaic; self.settings = settings
        columns = 0..<c.width
        info = ImageFileInfo(format: .tiff, width: c.width, height: c.height, pixelFormat: .rgbf, alpha: .premultiplied,
                             iccProfile: nil, colorSpace: settings.workingSpace, randomAccess: true)
    }

    func setColumns(_ requested: Range<Int>) throws(DaguerreError) -> Range<Int> {
        columns = max(0, requested.lowerBound)..<min(info.width, max(requested.upperBound, requested.lowerBound))
        return columns
    }

    func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        guard y >= 0, count >= 0, y + count <= info.height else {
            throw .invalidArgument(what: "RAW rows \(y)..<\(y + count)", problem: "the image has \(info.height) rows")
        }
        let m = mosaic, s = settings, cols = columns
        let w = m.width, h = m.height
        let black = m.blackLevel.map(Float.init)
        let scale = m.blackLevel.map { Float(1 / max(Double(m.whiteLevel) - $0, 1)) }
        let cfa = m.pattern.cfaPattern.map(Int.init)
        let k = s.matrix.m.map(Float.init)
        let out = UnsafeTransfer(destination.assumingMemoryBound(to: UInt8.self))
        m.samples.withUnsafeBufferPointer { samples in
            let src = UnsafeTransfer(UnsafeMutablePointer(mutating: samples.baseAddress!))
            DispatchQueue.concurrentPerform(iterations: count) { r in
                let sy = s.crop.y + y + r
                let row = UnsafeMutableRawPointer(out.value + r * bytesPerRow).assumingMemoryBound(to: Float.self)
                // Mirrors by two photosites at the edges, which keeps the CFA colour.
                @inline(__always) func at(_ xx: Int, _ yy: Int) -> Float {
                    let cx = xx < 0 ? xx + 2 : xx >= w ? xx - 2 : xx, cy = yy < 0 ? yy + 2 : yy >= h ? yy - 2 : yy
                    let p = (cy & 1) * 2 + (cx & 1)
                    return (Float(src.value[cy * w + cx]) - black[p]) * scale[p]
                }
                for (i, x) in cols.enumerated() {
                    let sx = s.crop.x + x
                    var rgb = SIMD3<Float>.zero
                    let own = cfa[(sy & 1) * 2 + (sx & 1)]
                    rgb[own] = at(sx, sy)
                    switch own {
                    case 1:
                        // Green: red and blue are its row or column neighbours.
                        let rowColour = cfa[(sy & 1) * 2 + ((sx + 1) & 1)]
                        let horizontal = (at(sx - 1, sy) + at(sx + 1, sy)) * 0.5, vertical = (at(sx, sy - 1) + at(sx, sy + 1)) * 0.5
                        rgb[rowColour] = horizontal; rgb[2 - rowColour] = vertical
                    default:
                        rgb[1] = (at(sx - 1, sy) + at(sx + 1, sy) + at(sx, sy - 1) + at(sx, sy + 1)) * 0.25
                        rgb[2 - own] = (at(sx - 1, sy - 1) + at(sx + 1, sy - 1) + at(sx - 1, sy + 1) + at(sx + 1, sy + 1)) * 0.25
                    }
                    let o = row + 3 * i
                    o[0] = k[0] * rgb.x + k[1] * rgb.y + k[2] * rgb.z
                    o[1] = k[3] * rgb.x + k[4] * rgb.y + k[5] * rgb.z
                    o[2] = k[6] * rgb.x + k[7] * rgb.y + k[8] * rgb.z
                }
            }
        }
    }
}
