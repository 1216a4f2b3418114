import DaguerreCore

extension FilterParameter {
    /// A value written as text (a command line's `key=value`, a sidecar), read by this
    /// parameter's kind: `2` for a number, `150,150` or `[150 150]` for a point or vector,
    /// `1,0,0` for a colour, `true`/`false`, a colour space's name, a word (a correction level) or a message (its UTF-8
    /// bytes). Images are files, which the
    /// caller opens.
    ///
    /// ```swift
    /// let center = try RadialGradient.descriptor.parameter(named: "center")
    /// let value = try center.value(parsing: "300,200", filter: "RadialGradient")   // .vector([300, 200])
    /// ```
    public func value(parsing text: String, filter: String) throws(DaguerreError) -> FilterValue {
        func bad(_ problem: String) -> DaguerreError { .invalidParameter(filter: filter, key: key, problem: problem) }
        switch kind {
        case .image:
            throw bad("an image is a file: open it and pass it as .image")
        case .scalar, .angle, .integer:
            guard let v = Double(text) else { throw bad("'\(text)' is not a number") }
            return .number(v)
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw bad("'\(text)' is not true or false")
            }
        case .position, .offset, .vector, .color, .transform, .rectangle:
            let brackets: Set<Character> = ["[", "]", "(", ")"]
            let inner = text.drop(while: { brackets.contains($0) }).reversed().drop(while: { brackets.contains($0) }).reversed()
            let parts = String(inner).split(whereSeparator: { $0 == "," || $0 == " " })
            let values = parts.compactMap { Double($0) }
            guard values.count == parts.count, !values.isEmpty else { throw bad("'\(text)' is not a list of numbers") }
            return .vector(values)
        case .colorSpace, .string, .attributedText, .barcodeDescriptor:
            return .string(text)
        case .data:
            return .data(Array(text.utf8))
        }
    }
}
