import Daguerre
import DaguerreTestSupport
import Foundation
import Testing

/// The filter gallery (SPEC I4): `daguerre filters --gallery DIR` shows every registered filter
/// at its defaults. Judged by Python's HTML parser and Pillow: the page names every filter, every
/// image it links opens, and the contact sheet has a cell per filter that is neither the error
/// red nor blank.
@Suite struct FilterGalleryTests {
    @Test("the gallery shows every registered filter, each rendered")
    func everyFilterAppears() throws {
        let dir = try TemporaryDirectory()
        let r = try CLITests.run(["filters", "--gallery", dir.path("gallery"), "--size", "240x180"])  // NinePart's default breakpoints reach 150
        #expect(r.status == 0, "\(r.err)")
        let judged = try Judge.python("gallery_judge.py", [dir.path("gallery")])
        let names = FilterRegistry.all.map(\.name)
        let figures = judged["figures"] as? [String] ?? []
        let cells = judged["cells"] as? [String: [String: Any]] ?? [:]
        print("measured: gallery of \(figures.count) filters, sheet \(judged["sheet"] ?? "?"), \(cells.count) cells")
        #expect(Set(figures) == Set(names), "missing from the page: \(Set(names).subtracting(figures).sorted())")
        #expect(figures.count == names.count, "a filter appears twice")
        #expect((judged["broken"] as? [String] ?? ["?"]).isEmpty, "\(judged["broken"] ?? "")")
        for name in names {
            let cell = try #require(cells[name], "\(name) has no cell on the contact sheet")
            #expect(cell["red"] as? Bool == false, "\(name) failed at its defaults")
        }
        // A filter whose result is one flat colour at the defaults is possible (a reduction, a
        // constant generator), but most show the image: at least 80% of cells have detail.
        let detailed = cells.values.filter { ($0["std"] as? Double ?? 0) > 3 }.count
        #expect(detailed * 5 >= cells.count * 4, "only \(detailed) of \(cells.count) cells have any detail")
    }

    @Test("a bad --size or an unreadable --input is refused before anything is written")
    func badOptionsAreRefused() throws {
        let dir = try TemporaryDirectory()
        let size = try CLITests.run(["filters", "--gallery", dir.path("g1"), "--size", "0x10"])
        #expect(size.status != 0 && size.err.contains("WIDTHxHEIGHT"), "\(size.err)")
        let input = try CLITests.run(["filters", "--gallery", dir.path("g2"), "--input", dir.path("missing.png")])
        #expect(input.status != 0 && input.err.contains("missing.png"), "\(input.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("g1")) && !FileManager.default.fileExists(atPath: dir.path("g2")))
    }
}
