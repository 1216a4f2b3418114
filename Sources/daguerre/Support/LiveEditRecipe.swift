// What `daguerre live edit` does to a Live Photo, as data: the filter chain, the crop and the
// volume. It is the edit's adjustment data (format photo.daguerre.live-edit, version 1, JSON), so
// `--resume` redoes a saved edit from the original byte for byte, and it makes the frame
// processor: the same chain on the still and on every movie frame, pixel sizes scaled by the
// frame's renderScale.
import Daguerre
import Foundation

/// The CLI's edit of a Live Photo.
///
/// ```swift
/// let recipe = LiveEditRecipe(filters: [.init(name: "GaussianBlur", parameters: ["radius=8"])], crop: .square, volume: 0.5)
/// context.frameProcessor = try recipe.frameProcessor()
/// output.adjustmentData = try recipe.adjustmentData()
/// ```
struct LiveEditRecipe: Codable, Sendable, Equatable {
    struct Filter: Codable, Sendable, Equatable {
        var name: String
        /// `key=value` words, as `--filter` takes them.
        var parameters: [String]
    }

    enum Crop: String, Codable, Sendable, CaseIterable {
        /// The largest centred square.
        case square
    }

    var filters: [Filter] = []
    var crop: Crop?
    var volume: Float = 1

    static let formatIdentifier = "photo.daguerre.live-edit"
    static let formatVersion = "1"

    func adjustmentData() throws -> AdjustmentData {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return AdjustmentData(
            formatIdentifier: Self.formatIdentifier, formatVersion: Self.formatVersion, data: [UInt8](try encoder.encode(self)))
    }

    init(filters: [Filter] = [], crop: Crop? = nil, volume: Float = 1) {
        self.filters = filters
        self.crop = crop
        self.volume = volume
    }

    /// The recipe an earlier edit saved, after checking that this version reads it.
    init(adjustmentData: AdjustmentData) throws {
        try adjustmentData.requireHandled(formatIdentifier: Self.formatIdentifier, versions: [Self.formatVersion])
        self = try JSONDecoder().decode(Self.self, from: Data(adjustmentData.data))
    }

    /// Scalars named …Radius or …Width and positions are pixel sizes: they scale with the
    /// frame, so that the movie, smaller than the still, looks the same.
    static func scalesWithFrame(_ p: FilterParameter) -> Bool {
        switch p.kind {
        case .position, .offset: true
        case .scalar: p.key.hasSuffix("Radius") || p.key.hasSuffix("Width")
        default: false
        }
    }

    /// The frame processor: the crop, then the filters, each parameter parsed once.
    func frameProcessor() throws -> LivePhotoFrameProcessor {
        var chain: [(FilterDescriptor, [String: FilterValue], Set<String>)] = []
        for f in filters {
            let d = try FilterRegistry.descriptor(named: f.name)
            var values: [String: FilterValue] = [:]
            var scaled: Set<String> = []
            for word in f.parameters {
                let (k, v) = try ParameterParsing.parse(word, filter: d)
                values[k] = v
                if let p = d.parameters.first(where: { $0.key == k }), Self.scalesWithFrame(p) { scaled.insert(k) }
            }
            chain.append((d, values, scaled))
        }
        let (steps, crop) = (chain, crop)
        return { (frame) throws(DaguerreError) -> Image in
            var image = frame.image
            let e = image.extent
            if crop == .square {
                let side = min(e.width, e.height).rounded(.down)
                image = image.cropped(
                    to: Rect(
                        x: e.minX + ((e.width - side) / 2).rounded(.down), y: e.minY + ((e.height - side) / 2).rounded(.down), width: side,
                        height: side))
            }
            for (d, values, scaled) in steps {
                var v = values
                for k in scaled {
                    switch v[k] {
                    case .number(let x): v[k] = .number(x * frame.renderScale)
                    case .vector(let xs): v[k] = .vector(xs.map { $0 * frame.renderScale })
                    default: break
                    }
                }
                image = try ParameterParsing.apply(d, v, to: image, clampEdges: true)
            }
            return image
        }
    }
}
