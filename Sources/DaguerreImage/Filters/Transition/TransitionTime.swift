import DaguerreCore

/// What every Core Image transition shares (SPEC I4): the `inputTime` parameter, running from
/// 0 (the output is the input image) to 1 (the output is the target image), and the extent of a
/// transition's result, the union of the two images' extents.
enum TransitionTime {
    /// The `inputTime` declaration, the same in every transition filter.
    static func parameter<F: Filter>(_ property: WritableKeyPath<F, Double> & Sendable) -> FilterDeclaration<F>.Parameter {
        .scalar(property, "inputTime", "How far the transition has gone: 0 shows the image, 1 the target image.", min: 0, max: 1)
    }

    /// The extent a transition between `image` and `target` covers.
    static func extent(_ image: Image, _ target: Image) -> Rect { image.extent.union(target.extent) }
}
