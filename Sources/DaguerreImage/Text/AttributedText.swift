import DaguerreCore
import Foundation

/// Text in runs, each with its own font, size and colour: the attributes of an
/// NSAttributedString that AttributedTextImageGenerator draws (font and foreground colour; SPEC
/// I4). A run's defaults are NSAttributedString's: Helvetica (Neue) at 12 points, black. By name
/// it is a plain string (one run at the defaults) or JSON, a list of runs:
/// `[{"text": "Dag", "font": "DejaVu Serif", "size": 30, "color": [0.8, 0.1, 0.1]}, {"text": "uerre"}]`.
///
/// ```swift
/// let title = AttributedText([.init("Dague", fontName: "DejaVu Sans:bold", fontSize: 30), .init("rre", color: .white)])
/// print(title.string)   // Daguerre
/// ```
public struct AttributedText: Sendable, Hashable, CustomStringConvertible {
    public struct Run: Sendable, Hashable {
        public var text: String
        public var fontName: String
        /// The em size in points.
        public var fontSize: Double
        /// The glyphs' colour (its alpha multiplies their coverage).
        public var color: Color

        public init(_ text: String, fontName: String = "HelveticaNeue", fontSize: Double = 12, color: Color = .black) {
            (self.text, self.fontName, self.fontSize, self.color) = (text, fontName, fontSize, color)
        }
    }

    public var runs: [Run]

    public init(_ runs: [Run] = []) { self.runs = runs }
    /// One run at the defaults.
    public init(_ text: String) { runs = [Run(text)] }

    /// The characters of every run, in order.
    public var string: String { runs.map(\.text).joined() }
    public var description: String { runs.count <= 1 ? string : "\(runs.count) runs: \(string)" }

    /// Reads the by-name form: JSON runs when `text` starts with `[`, otherwise a plain string.
    public init(parsing text: String) throws(DaguerreError) {
        guard text.first == "[" else {
            self.init(text)
            return
        }
        func bad(_ problem: String) -> DaguerreError {
            .invalidArgument(
                what: "Attributed text",
                problem: "\(problem); write a list of runs such as [{\"text\": \"Hi\", \"size\": 24, \"color\": [1, 0, 0]}]")
        }
        guard let list = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
            throw bad("it starts with '[' but is not a JSON list of objects")
        }
        var runs: [Run] = []
        for (i, item) in list.enumerated() {
            for key in item.keys where !["text", "font", "size", "color"].contains(key) {
                throw bad("run \(i) has an unknown key '\(key)'")
            }
            guard let t = item["text"] as? String else { throw bad("run \(i) has no \"text\" string") }
            var run = Run(t)
            if let font = item["font"] {
                guard let f = font as? String else { throw bad("run \(i)'s \"font\" is not a string") }
                run.fontName = f
            }
            if let size = item["size"] {
                guard let s = (size as? NSNumber)?.doubleValue, s.isFinite, s > 0 else {
                    throw bad("run \(i)'s \"size\" is not a positive number")
                }
                run.fontSize = s
            }
            if let color = item["color"] {
                let c = (color as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? []
                guard c.count == 3 || c.count == 4, c.allSatisfy(\.isFinite) else {
                    throw bad("run \(i)'s \"color\" is not 3 or 4 numbers")
                }
                run.color = Color(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)
            }
            runs.append(run)
        }
        self.init(runs)
    }
}
