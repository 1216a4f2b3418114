import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// Core Image's catalogue (SPEC I4): all 247 built-in filters by category, as the reference
/// counts them; the built filters keep Core Image's names, categories, keys and defaults; the
/// rest are refused by name with what they need, and `daguerre filters --json` lists them all.
@Suite("Core Image's filter catalogue")
struct CoreImageCatalogueTests {
    /// The reference's own count per category (its summary table): total, and by iOS 10.
    static let perCategory: [String: (total: Int, iOS10: Int)] = [
        "Blur": (15, 8), "ColorAdjustment": (20, 13), "ColorEffect": (33, 24), "CompositeOperation": (30, 28),
        "DistortionEffect": (18, 17), "Generator": (20, 11), "GeometryAdjustment": (15, 8), "Gradient": (7, 5),
        "HalftoneEffect": (5, 5), "Reduction": (16, 9), "Sharpen": (2, 2), "Stylize": (38, 23), "TileEffect": (17, 17),
        "Transition": (11, 11),
    ]

    @Test("247 filters, 181 of them on iOS 10, counted per category as the reference's summary counts them")
    func counts() {
        let entries = FilterCatalogue.entries
        #expect(entries.count == 247 && Set(entries.map(\.name)).count == 247)
        #expect(entries.filter(\.isAvailableOnIOS10).count == 181)
        for (category, count) in Self.perCategory {
            let inCategory = entries.filter { $0.category.rawValue == "CICategory" + category }
            #expect(inCategory.count == count.total, "\(category)")
            #expect(inCategory.filter(\.isAvailableOnIOS10).count == count.iOS10, "\(category) by iOS 10")
        }
        // The flagged ones of iOS 10: four code generators and the eight PhotoEffect looks (169 left).
        let flaggedIOS10 = entries.filter { $0.isAvailableOnIOS10 && !$0.flags.isEmpty }
        #expect(flaggedIOS10.count == 12, "\(flaggedIOS10.map(\.name))")
    }

    @Test("Every built filter has Core Image's name, effect category, input keys and numeric defaults")
    func builtAgree() throws {
        for descriptor in FilterRegistry.all {
            let entry = try #require(FilterCatalogue.entry(named: descriptor.name), "\(descriptor.name) is not a Core Image name")
            #expect(entry.name == descriptor.name)
            #expect(
                descriptor.categories.contains(entry.category.rawValue),
                "\(descriptor.name): \(descriptor.categories) lacks \(entry.category.rawValue)")
            let keys = Set(descriptor.parameters.map(\.key))
            let theirs = Set(entry.inputs.map(\.key))
            #expect(theirs.isSubset(of: keys), "\(descriptor.name) lacks \(theirs.subtracting(keys).sorted())")
            for input in entry.inputs where input.type == "angle" {
                let kind = descriptor.parameters.first(where: { $0.key == input.key })?.kind
                #expect(
                    kind == .angle, "\(descriptor.name).\(input.key) is an angle in Core Image, declared \(kind.map { "\($0)" } ?? "-")")
            }
            for input in entry.inputs {
                guard let theirs = input.defaultText, let ours = descriptor.parameters.first(where: { $0.key == input.key })?.defaultValue
                else { continue }
                // The numbers in both spellings ("(150, 150)" and "[150 150]", "rgba(1,0,0,1)" and
                // "(1.0 0.0 0.0 1.0) sRGB"), or the words (true, false).
                let a = Self.numbers(in: ours.description)
                var b = Self.numbers(in: theirs)
                if let elided = theirs.firstMatch(of: /… \(([0-9]+) values\)/), let n = Int(elided.1) {
                    // A long vector the reference shortens: its count, and the values it shows.
                    b.removeLast()
                    #expect(a.count == n, "\(descriptor.name).\(input.key): \(a.count) values, the reference has \(n)")
                    #expect(Array(a.prefix(b.count)) == b, "\(descriptor.name).\(input.key): \(ours) vs \(theirs)")
                } else if b.isEmpty {
                    // (a word in the reference is in backticks: `M`)
                    #expect(ours.description == theirs.filter { $0 != "`" }, "\(descriptor.name).\(input.key): \(ours) vs \(theirs)")
                } else {
                    #expect(
                        // (three digits for Crop's "everything" rectangle, ±1.79e+308, as ours prints it)
                        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= (abs($1) > 1e300 ? 1e-2 : 1e-3) * max(1, abs($1)) },
                        "\(descriptor.name).\(input.key): \(ours) vs \(theirs)")
                }
            }
        }
    }

    /// The numbers written in `text`, in order.
    static func numbers(in text: String) -> [Double] {
        text.matches(of: /-?[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?/).compactMap { Double(text[$0.range]) }
    }

    @Test("A filter that is not built is refused by name with what it would need; a typo still gets suggestions")
    func refusals() throws {
        #expect {
            _ = try FilterRegistry.descriptor(named: "CIDepthBlurEffect")
        } throws: { error in
            guard let e = error as? DaguerreError, case .unsupported = e else { return false }
            return e.message.contains("DepthBlurEffect") && e.recovery.contains("depth")
        }
        #expect {
            _ = try FilterRegistry.descriptor(named: "PersonSegmentation")
        } throws: { error in
            guard let e = error as? DaguerreError, case .unsupported = e else { return false }
            return "\(e.message) \(e.recovery)".contains("machine-learning model")
        }
        #expect {
            _ = try FilterRegistry.descriptor(named: "GausianBlur")
        } throws: { error in
            guard let e = error as? DaguerreError, case .unknownFilter(_, let suggestions) = e else { return false }
            return suggestions.first == "GaussianBlur"
        }
        // The names Daguerre used before it took Core Image's still work.
        #expect(try FilterRegistry.descriptor(named: "ConstantColor").name == "ConstantColorGenerator")
    }

    @Test("daguerre filters --json lists all 247 with their categories and parameters, built or not")
    func cliListsAll() throws {
        let r = try CLITests.run(["filters", "--json"])
        #expect(r.status == 0, "\(r.err)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]])
        #expect(list.count == 247)
        #expect(list.filter { $0["built"] as? Bool == true }.count == FilterRegistry.all.count)
        let keystone = try #require(list.first { $0["name"] as? String == "KeystoneCorrectionCombined" })
        #expect(keystone["built"] as? Bool == true && (keystone["categories"] as? [String])?.first == "CICategoryGeometryAdjustment")
        let focal = try #require((keystone["parameters"] as? [[String: Any]])?.first { $0["key"] as? String == "inputFocalLength" })
        #expect(focal["default"] as? String == "28")
    }
}
