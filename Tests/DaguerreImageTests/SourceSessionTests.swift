import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// A file source's rows reach the tiles through `SourceSession`'s window, a ring of rows that
/// bands decode into (and prefetch the next band into) and that wraps around as the render goes
/// down the image. Whatever the band height, and with a blur's margin rows kept from one band
/// to the next, the render must equal the same recipe on a buffer that holds the whole image.
@Suite struct SourceSessionTests {
    @Test("Band heights that wrap the source window at every offset (7, 16, 33 rows, a blur's margins, a crop) render a file exactly as a whole-image buffer does")
    func ringWindowEqualsAWholeImageBuffer() throws {
        let file = try Kodak.image(3)
        let whole = try Context().createBuffer(file, format: .rgbaf, colorSpace: nil)
        let memory = Image(buffer: whole)
        func recipe(_ image: Image) throws -> Image {
            let crop = image.cropped(to: Rect(x: 40, y: 25, width: 300, height: 400))
            return try crop.applying(GaussianBlur(radius: 2.5)).applying(ExposureAdjust(ev: 0.2))
        }
        let reference = try Context().createBuffer(try recipe(memory), format: .rgba8, colorSpace: .sRGB).withUnsafeBytes { Array($0) }
        for height in [7, 16, 33] {
            let context = try Context(options: .init(tileWidth: 96, tileHeight: height))
            let banded = try context.createBuffer(try recipe(file), format: .rgba8, colorSpace: .sRGB).withUnsafeBytes { Array($0) }
            #expect(banded == reference, "band height \(height)")
            // Forward only: the window never went back to the top of the file.
            #expect(context.lastRenderReport?.sourceRestarts == 0)
        }
    }
}
