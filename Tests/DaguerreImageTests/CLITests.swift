import DaguerreTestSupport
import Foundation
import Testing

/// The `daguerre` command as a user runs it: filter chains, the filter list, the print tree
/// (K4) and clear errors.
@Suite struct CLITests {
    /// The CLI built next to the test bundle.
    static var cli: String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let p = candidate.appendingPathComponent("daguerre").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return Judge.repoRoot.appendingPathComponent(".build/release/daguerre").path
    }

    static func run(_ args: [String], env: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: cli)
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        let o = Pipe()
        let e = Pipe()
        p.standardOutput = o
        p.standardError = e
        try p.run()
        let (od, ed) = Judge.readToEnd(o, e)
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: od, as: UTF8.self), String(decoding: ed, as: UTF8.self))
    }

    @Test func applyChainWritesP3JPEGAndPrintsTheProgram() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out.jpg")
        let r = try Self.run(
            [
                "apply", Kodak.url(9).path, "-o", out, "--filter", "GaussianBlur", "inputRadius=2",
                "--filter", "ExposureAdjust", "ev=0.5", "--filter", "LanczosScaleTransform", "inputScale=0.5",
                "--colorspace", "displayP3", "--quality", "0.85",
            ],
            env: ["DAGUERRE_PRINT_TREE": "1 8 graphviz", "DAGUERRE_PRINT_TREE_DIR": dir.url.path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("DAGUERRE_PRINT_TREE=1 recipe"))
        #expect(r.err.contains("colormatch sRGB → workingspace"))
        #expect(r.err.contains("DAGUERRE_PRINT_TREE=8 program"))
        #expect(r.err.contains("pass 2"), "blur and scale are pass boundaries: \(r.err)")
        #expect(dir.contents().contains { $0.hasSuffix(".dot") })
        let size = try Judge.run("exiftool", ["-s3", "-ImageSize", "-ProfileDescription", out])
        #expect(size.contains("250x250"), "500×500 halved: \(size)")
        #expect(size.contains("Display P3"))
    }

    @Test func filtersListsEveryFilterWithParameters() throws {
        let r = try Self.run(["filters", "--json"])
        #expect(r.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]])
        #expect(list.count >= 25)
        let blur = try #require(list.first { $0["name"] as? String == "GaussianBlur" })
        let params = try #require(blur["parameters"] as? [[String: Any]])
        #expect(params.contains { $0["key"] as? String == "inputRadius" && $0["default"] as? String == "10" })
    }

    @Test func badInvocationsSayWhatIsWrong() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("o.jpg")
        let unknown = try Self.run(["apply", Kodak.url(1).path, "-o", out, "--filter", "GausianBlur", "inputRadius=2"])
        #expect(unknown.status != 0 && unknown.err.contains("GaussianBlur"))
        let range = try Self.run(["apply", Kodak.url(1).path, "-o", out, "--filter", "GaussianBlur", "inputRadius=-3"])
        #expect(range.status != 0 && range.err.contains("minimum"))
        let missing = try Self.run(["apply", dir.path("nope.jpg"), "-o", out])
        #expect(missing.status != 0 && missing.err.contains("nope.jpg"))
        #expect(!FileManager.default.fileExists(atPath: out))
        // A mistake in the arguments is a usage error (64, with the usage line); a failure while
        // working is status 1 with the message alone.
        #expect(unknown.status == 64 && unknown.err.contains("Usage"), "\(unknown.status): \(unknown.err)")
        #expect(missing.status == 1 && !missing.err.contains("Usage"), "\(missing.status): \(missing.err)")
        let live = try Self.run(["live", "info", dir.path("nope.JPG")])
        #expect(live.status == 1 && live.err.contains("nope.JPG") && !live.err.contains("Usage"), "\(live.status): \(live.err)")
    }
}
