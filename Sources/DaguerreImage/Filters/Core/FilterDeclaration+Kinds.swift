import DaguerreCore

/// One factory per parameter kind: each takes the property (its type fixes what the by-name
/// value converts to), the Core Image key and a one-line doc, then the kind's limits.
///
/// ```swift
/// .scalar(\.radius, "inputRadius", "Standard deviation in pixels.", min: 0, max: 1000, sliderMax: 100)
/// .position(\.center, "inputCenter", "The centre.", min: -1e9, max: 1e9)
/// .color(\.color0, "inputColor0", "The inner colour.")
/// ```
extension FilterDeclaration.Parameter {
    /// An image; images have no default, so the filter needs one to render.
    public static func image(
        _ property: WritableKeyPath<F, Image?> & Sendable, _ key: String = FilterParameter.inputImageKey,
        _ doc: String = "The image to filter."
    ) -> Self {
        Self(
            property, key: key, kind: .image, doc: doc, encode: { $0.map(FilterValue.image) },
            decode: { value in
                if case .image(let i) = value { i } else { nil }
            })
    }

    /// An image the filter can render without (nil when absent); the filter's doc says what
    /// its absence means.
    public static func optionalImage(_ property: WritableKeyPath<F, Image?> & Sendable, _ key: String, _ doc: String) -> Self {
        Self(
            property, key: key, kind: .image, doc: doc, optional: true, encode: { $0.map(FilterValue.image) },
            decode: { value in
                if case .image(let i) = value { i } else { nil }
            })
    }

    /// A whole number the filter can do without (nil when absent: the filter's doc says what it
    /// then chooses), such as an Aztec code's layer count.
    public static func optionalInteger(
        _ property: WritableKeyPath<F, Double?> & Sendable, _ key: String, _ doc: String, min: Double? = nil, max: Double? = nil
    ) -> Self {
        Self(
            property, key: key, kind: .integer, doc: doc, min: min, max: max, optional: true, encode: { $0.map(FilterValue.number) },
            decode: { value in
                if case .number(let v) = value { v } else { nil }
            })
    }

    /// A number the filter can do without (nil when absent), such as a PDF417 code's preferred
    /// aspect ratio.
    public static func optionalNumber(
        _ property: WritableKeyPath<F, Double?> & Sendable, _ key: String, _ doc: String, min: Double? = nil, max: Double? = nil
    ) -> Self {
        Self(
            property, key: key, kind: .scalar, doc: doc, min: min, max: max, optional: true, encode: { $0.map(FilterValue.number) },
            decode: { value in
                if case .number(let v) = value { v } else { nil }
            })
    }

    /// A point the filter can do without (nil when absent), such as a keystone correction's
    /// guide corners; the filter's doc says what their absence means.
    public static func optionalPosition(
        _ property: WritableKeyPath<F, [Double]?> & Sendable, _ key: String, _ doc: String, min: Double? = nil, max: Double? = nil
    ) -> Self {
        Self(
            property, key: key, kind: .position, doc: doc, min: min, max: max, count: 2, optional: true,
            encode: { $0.map(FilterValue.vector) },
            decode: { value in
                if case .vector(let v) = value { v } else { nil }
            })
    }

    /// A number; `min`/`max` are hard limits, the slider range (default: the hard one) a UI hint.
    public static func scalar(
        _ property: WritableKeyPath<F, Double> & Sendable, _ key: String, _ doc: String,
        min: Double? = nil, max: Double? = nil, sliderMin: Double? = nil, sliderMax: Double? = nil
    ) -> Self {
        Self(
            property, key: key, kind: .scalar, doc: doc, min: min, max: max, sliderMin: sliderMin, sliderMax: sliderMax,
            encode: { .number($0) }, decode: { value in if case .number(let v) = value { v } else { nil } })
    }

    /// An angle in radians.
    public static func angle(
        _ property: WritableKeyPath<F, Double> & Sendable, _ key: String, _ doc: String,
        min: Double? = nil, max: Double? = nil, sliderMin: Double? = nil, sliderMax: Double? = nil
    ) -> Self {
        Self(
            property, key: key, kind: .angle, doc: doc, min: min, max: max, sliderMin: sliderMin, sliderMax: sliderMax,
            encode: { .number($0) }, decode: { value in if case .number(let v) = value { v } else { nil } })
    }

    /// A whole number (Core Image's integer inputs); a fraction is refused.
    public static func integer(
        _ property: WritableKeyPath<F, Double> & Sendable, _ key: String, _ doc: String,
        min: Double? = nil, max: Double? = nil, sliderMin: Double? = nil, sliderMax: Double? = nil
    ) -> Self {
        Self(
            property, key: key, kind: .integer, doc: doc, min: min, max: max, sliderMin: sliderMin, sliderMax: sliderMax,
            encode: { .number($0) }, decode: { value in if case .number(let v) = value { v } else { nil } })
    }

    public static func boolean(_ property: WritableKeyPath<F, Bool> & Sendable, _ key: String, _ doc: String) -> Self {
        Self(
            property, key: key, kind: .boolean, doc: doc, encode: { .bool($0) },
            decode: { value in
                if case .bool(let b) = value { b } else { nil }
            })
    }

    /// A point in image coordinates, [x, y]; the limits apply to each coordinate.
    public static func position(
        _ property: WritableKeyPath<F, [Double]> & Sendable, _ key: String, _ doc: String,
        min: Double? = nil, max: Double? = nil
    ) -> Self {
        components(property, key, doc, kind: .position, count: 2, min: min, max: max)
    }

    /// A pair that is not a point (an amount per axis, a (kelvin, tint) white).
    public static func offset(
        _ property: WritableKeyPath<F, [Double]> & Sendable, _ key: String, _ doc: String,
        min: Double? = nil, max: Double? = nil
    ) -> Self {
        components(property, key, doc, kind: .offset, count: 2, min: min, max: max)
    }

    /// `count` numbers (RGBA weights, bounds), or any number of them with `count` nil (tables,
    /// which check their own length).
    public static func vector(
        _ property: WritableKeyPath<F, [Double]> & Sendable, _ key: String, _ doc: String,
        count: Int?, min: Double? = nil, max: Double? = nil
    ) -> Self {
        components(property, key, doc, kind: .vector, count: count, min: min, max: max)
    }

    /// A colour, in its own colour space; by name also `[r, g, b]` or `[r, g, b, a]` (sRGB).
    public static func color(_ property: WritableKeyPath<F, Color> & Sendable, _ key: String, _ doc: String) -> Self {
        Self(
            property, key: key, kind: .color, doc: doc, encode: { .color($0) },
            decode: { value in
                if case .color(let c) = value { c } else { nil }
            })
    }

    /// An affine transform; by name also `[a, b, c, d, tx, ty]`.
    public static func transform(_ property: WritableKeyPath<F, AffineTransform2D> & Sendable, _ key: String, _ doc: String) -> Self {
        Self(
            property, key: key, kind: .transform, doc: doc, encode: { .transform($0) },
            decode: { value in
                if case .transform(let t) = value { t } else { nil }
            })
    }

    /// A rectangle; by name also `[x, y, width, height]`.
    public static func rectangle(_ property: WritableKeyPath<F, Rect> & Sendable, _ key: String, _ doc: String) -> Self {
        Self(
            property, key: key, kind: .rectangle, doc: doc, encode: { .rect($0) },
            decode: { value in
                if case .rect(let r) = value { r } else { nil }
            })
    }

    /// A colour space; by name also its name ("displayP3").
    public static func colorSpace(_ property: WritableKeyPath<F, ColorSpace> & Sendable, _ key: String, _ doc: String) -> Self {
        Self(
            property, key: key, kind: .colorSpace, doc: doc, encode: { .colorSpace($0) },
            decode: { value in
                if case .colorSpace(let c) = value { c } else { nil }
            })
    }

    /// A word (Core Image's NSString inputs, such as a QR code's correction level "M").
    public static func string(_ property: WritableKeyPath<F, String> & Sendable, _ key: String, _ doc: String) -> Self {
        Self(
            property, key: key, kind: .string, doc: doc, encode: { .string($0) },
            decode: { value in
                if case .string(let s) = value { s } else { nil }
            })
    }

    /// Bytes (Core Image's NSData, a code's message); by name also a string, taken as UTF-8.
    /// Like an image it has no default: the filter needs one to render.
    public static func data(_ property: WritableKeyPath<F, [UInt8]?> & Sendable, _ key: String, _ doc: String) -> Self {
        Self(
            property, key: key, kind: .data, doc: doc, encode: { $0.map(FilterValue.data) },
            decode: { value in
                if case .data(let b) = value { b } else { nil }
            })
    }

    /// Text with fonts and colours; by name also a plain string or JSON runs. Its default is
    /// the property's initial value.
    public static func attributedText(_ property: WritableKeyPath<F, AttributedText> & Sendable, _ key: String, _ doc: String) -> Self {
        Self(
            property, key: key, kind: .attributedText, doc: doc, encode: { .attributedText($0) },
            decode: { value in
                if case .attributedText(let t) = value { t } else { nil }
            })
    }

    /// An encoded code symbol; by name JSON. Like an image it has no default.
    public static func barcodeDescriptor(
        _ property: WritableKeyPath<F, BarcodeDescriptor?> & Sendable, _ key: String, _ doc: String
    ) -> Self {
        Self(
            property, key: key, kind: .barcodeDescriptor, doc: doc, encode: { $0.map(FilterValue.barcodeDescriptor) },
            decode: { value in
                if case .barcodeDescriptor(let b) = value { b } else { nil }
            })
    }

    private static func components(
        _ property: WritableKeyPath<F, [Double]> & Sendable, _ key: String, _ doc: String,
        kind: FilterParameter.Kind, count: Int?, min: Double?, max: Double?
    ) -> Self {
        Self(
            property, key: key, kind: kind, doc: doc, min: min, max: max, count: count, encode: { .vector($0) },
            decode: { value in
                if case .vector(let v) = value { v } else { nil }
            })
    }
}
