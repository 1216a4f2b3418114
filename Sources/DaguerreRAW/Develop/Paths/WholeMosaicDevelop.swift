// The develops that read a whole mosaic in memory (SPEC X2, X7): the bilinear and the half-size
// paths of draft mode and pipeline version 1, each in a file of its own. What they share: the
// mosaic, the settings, and the per-pixel maths (linearization, highlights and matrix).
import DaguerreCore
import DaguerreFormats

/// A whole mosaic and what its draft develops need, built once per develop source.
///
/// ```swift
/// let develop = WholeMosaicDevelop(mosaic: mosaic, settings: settings)
/// develop.bilinearRows(y: 0, count: 64, columns: 0..<width, into: out, bytesPerRow: width * 12)
/// ```
struct WholeMosaicDevelop: Sendable {
    let mosaic: BayerImage
    let settings: DevelopSettings
    let pixel: PixelDevelop
    let linearization: Linearization

    init(mosaic: BayerImage, settings: DevelopSettings) {
        self.mosaic = mosaic
        self.settings = settings
        pixel = PixelDevelop(settings: settings, layout: mosaic.layout)
        linearization = Linearization(layout: mosaic.layout)
    }
}
