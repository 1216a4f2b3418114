import DaguerreCore

extension Image {
    /// Applies a filter by name (I1): `image.applyingFilter("GaussianBlur", parameters: ["inputRadius": 2])`.
    /// This image is the filter's `inputImage`. Unknown names and bad parameters are typed errors.
    public func applyingFilter(_ name: String, parameters: [String: FilterValue] = [:]) throws(DaguerreError) -> Image {
        let d = try FilterRegistry.descriptor(named: name)
        var values = parameters
        if d.parameters.contains(where: { $0.key == FilterParameter.inputImageKey }) {
            values[FilterParameter.inputImageKey] = .image(self)
        }
        return try d.apply(values)
    }

    /// Applies a typed filter with this image as its `inputImage`.
    ///
    /// ```swift
    /// let soft = try image.applying(GaussianBlur(radius: 2))
    /// ```
    public func applying<F: Filter>(_ filter: F) throws(DaguerreError) -> Image {
        var f = filter
        try F.declaration.set(FilterParameter.inputImageKey, to: .image(self), in: &f)
        return try f.outputImage()
    }
}
