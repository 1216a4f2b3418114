import DaguerreCore
import DaguerreImage
import Foundation

/// Turns `key=value` words from the command line into typed filter values, using the
/// parameter's declared kind (so `inputCenter=150,150` is a position and `inputColor=1,0,0` a colour).
enum ParameterParsing {
    static func parse(_ word: String, filter: FilterDescriptor) throws -> (String, FilterValue) {
        guard let eq = word.firstIndex(of: "=") else {
            throw DaguerreError.invalidArgument(what: "'\(word)'", problem: "filter parameters are written key=value, e.g. inputRadius=2")
        }
        let given = String(word[..<eq])
        let raw = String(word[word.index(after: eq)...])
        // Keys match without case and without the "input" prefix: radius=2, ev=1, inputEV=1.
        let wanted = given.lowercased().hasPrefix("input") ? given.lowercased() : "input" + given.lowercased()
        guard let p = filter.parameters.first(where: { $0.key.lowercased() == wanted }) else {
            throw DaguerreError.invalidParameter(filter: filter.name, key: given,
                                                 problem: "\(filter.name) has no such parameter; its parameters are \(filter.parameters.map(\.key).joined(separator: ", "))")
        }
        let key = p.key
        func numbers() throws -> [Double] {
            let parts = raw.trimmingCharacters(in: CharacterSet(charactersIn: "[]()")).split(whereSeparator: { $0 == "," || $0 == " " })
            let values = parts.compactMap { Double($0) }
            guard values.count == parts.count, !values.isEmpty else {
                throw DaguerreError.invalidParameter(filter: filter.name, key: key, problem: "'\(raw)' is not a list of numbers")
            }
            return values
        }
        switch p.kind {
        case .image:
            let path = raw.hasPrefix("@") ? String(raw.dropFirst()) : raw
            return (key, .image(try Image(contentsOf: URL(fileURLWithPath: path))))
        case .scalar, .angle, .integer:
            guard let v = Double(raw) else { throw DaguerreError.invalidParameter(filter: filter.name, key: key, problem: "'\(raw)' is not a number") }
            return (key, .number(v))
        case .boolean:
            switch raw.lowercased() {
            case "true", "yes", "1": return (key, .bool(true))
            case "false", "no", "0": return (key, .bool(false))
            default: throw DaguerreError.invalidParameter(filter: filter.name, key: key, problem: "'\(raw)' is not true or false")
            }
        case .position, .offset, .vector, .color, .transform, .rectangle:
            return (key, .vector(try numbers()))
        case .colorSpace:
            return (key, .string(raw))
        }
    }
}
