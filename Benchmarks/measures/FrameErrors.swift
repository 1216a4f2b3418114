// The error of RGBA8 frames against the frames they were made from, for the movie benchmarks'
// PSNR: summed squared differences over R'G'B' and over luma (BT.709 weights), so that frames
// add up before the decibels are taken.
import DaguerreCore
import Foundation

/// Squared errors of RGBA8 frames against their originals, summed over frames.
public struct ErrorSums: Sendable {
    public var rgb = 0.0, luma = 0.0, pixels = 0

    public init() {}

    public init(_ a: PixelBuffer, _ b: PixelBuffer) {
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                for y in 0..<min(a.height, b.height) {
                    var rowRGB = 0
                    var rowLuma = 0.0
                    let ra = y * a.bytesPerRow
                    let rb = y * b.bytesPerRow
                    for x in 0..<min(a.width, b.width) {
                        let dr = Int(pa[ra + 4 * x]) - Int(pb[rb + 4 * x])
                        let dg = Int(pa[ra + 4 * x + 1]) - Int(pb[rb + 4 * x + 1])
                        let db = Int(pa[ra + 4 * x + 2]) - Int(pb[rb + 4 * x + 2])
                        rowRGB += dr * dr + dg * dg + db * db
                        let dy = 0.2126 * Double(dr) + 0.7152 * Double(dg) + 0.0722 * Double(db)
                        rowLuma += dy * dy
                    }
                    rgb += Double(rowRGB)
                    luma += rowLuma
                }
            }
        }
        pixels = min(a.width, b.width) * min(a.height, b.height)
    }

    public mutating func add(_ other: ErrorSums) {
        rgb += other.rgb
        luma += other.luma
        pixels += other.pixels
    }

    public static func decibels(_ squared: Double, _ count: Int) -> Double {
        squared == 0 ? 99 : 10 * log10(255 * 255 * Double(count) / squared)
    }
    public var rgbPSNR: Double { Self.decibels(rgb, 3 * pixels) }
    public var lumaPSNR: Double { Self.decibels(luma, pixels) }
}
