// daguerre-bench: daguerre's CLI against OpenCV, pyvips and the vips CLI on one image chain,
// each tool as a whole process (start-up, decode, filters, encode), interleaved per repetition.
// Wall time and peak RSS come from /usr/bin/time. See Benchmarks/README.md.
import Foundation

let opts: Options
do { opts = try Options.parse(Array(CommandLine.arguments.dropFirst())) } catch {
    log("daguerre-bench: \(error)")
    exit(64)
}

do {
    try Bench(opts).run()
} catch {
    log("daguerre-bench: \(error)")
    exit(1)
}

/// One measured unit: a tool's whole chain, one or more processes (the vips CLI takes three).
struct Job {
    var name: String
    var steps: [[String]]
    var output: String
    var intermediates: [String] = []
}

struct CheckResult: Codable {
    var tool: String?
    var path: String
    var width: Int?
    var height: Int?
    var mean: [Double]?
    var meanAbsVsRef: Double?
    var psnrVsRef: Double?
    var error: String?
}

struct Results: Codable {
    var date: String
    var machine: [String: String]
    var versions: [String: String]
    var reps: Int
    var input: String
    var chain: [Summary] = []
    var chainChecks: [CheckResult] = []
    var memory: Summary?
    var memoryOutput: CheckResult?
    var fusionOne: Summary?
    var fusionEight: Summary?
    var fusionRatio: Double?
    /// livephoto-mov: whole-process runs and the in-process encode+mux time of each.
    var livePhoto: Summary?
    var livePhotoEncodeSeconds: [Double] = []
    var livePhotoLazy: Summary?
    var livePhotoLazyEncodeSeconds: [Double] = []
    /// raw: the 24 MP develop per tool and output, the 120 MP memory run, the draft timing line.
    var raw: [Summary] = []
    var raw120: [Summary] = []
    /// rawxtrans: the 26 MP X-Trans develop per tool and output.
    var rawXTrans: [Summary] = []
    /// rawkodak: the 24 MP Bayer DNG of the Kodak photographs per tool and output.
    var rawKodak: [Summary] = []
    var rawDraft: String?
    /// filters: each operation's daguerre, OpenCV and pyvips runs.
    var filters: [Summary] = []
}

final class Bench {
    let opts: Options
    let fm = FileManager.default
    /// The Daguerre package (the CLI, `scripts/`, `Benchmarks/peers`).
    let root: String?
    /// The benchmarks' package, `<root>/Benchmarks` (raw-bench, livephoto-mov-bench).
    let benchmarksRoot: String?
    let work: String
    var python = "python3"
    var peers = ""
    var daguerre = ""

    init(_ opts: Options) {
        self.opts = opts
        benchmarksRoot = Bench.benchmarksRoot()
        root = benchmarksRoot.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        work = URL(fileURLWithPath: opts.work).standardizedFileURL.path
    }

    /// The benchmarks' package directory (`Benchmarks/`, whose Package.swift declares
    /// daguerre-bench): the first ancestor of the working directory, then of this executable,
    /// that is it or holds it.
    static func benchmarksRoot() -> String? {
        var starts = [FileManager.default.currentDirectoryPath]
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { starts.append(exe) }
        for start in starts {
            var url = URL(fileURLWithPath: start)
            while url.path != "/" {
                for dir in [url, url.appendingPathComponent("Benchmarks")] {
                    let pkg = dir.appendingPathComponent("Package.swift").path
                    if let text = try? String(contentsOfFile: pkg, encoding: .utf8), text.contains("\"daguerre-bench\"") {
                        return dir.path
                    }
                }
                url.deleteLastPathComponent()
            }
        }
        return nil
    }

    var wantsChain: Bool { !opts.only.isDisjoint(with: Options.tools) }
    var wantsPython: Bool {
        opts.only.contains("opencv") || opts.only.contains("pyvips") || wantsChain || opts.only.contains("memory")
            || opts.only.contains("fusion") || opts.only.contains("filters")
    }
    var wantsDaguerre: Bool {
        !opts.only.isDisjoint(with: ["daguerre", "daguerre-nocm", "memory", "fusion", "raw", "raw120", "rawxtrans", "rawkodak", "filters"])
    }

    func run() throws {
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        try fm.createDirectory(atPath: work + "/logs", withIntermediateDirectories: true)

        // Peers directory and Python.
        if let p = opts.peers {
            peers = p
        } else if let root {
            peers = root + "/Benchmarks/peers"
        } else {
            throw BenchError("cannot find the checkout (Benchmarks/Package.swift); pass --peers DIR and --daguerre PATH")
        }
        guard fm.fileExists(atPath: peers + "/opencv_chain.py") else { throw BenchError("no peer scripts in \(peers)") }
        // The real interpreter, not a pyenv/asdf shim script, so start-up is the interpreter's own.
        let pyName = opts.python ?? "python3"
        guard let py = Shell.capture([pyName, "-c", "import sys; print(sys.executable)"]), !py.isEmpty else {
            throw BenchError("cannot run \(pyName)")
        }
        python = py

        var versions: [String: String] = [:]
        if wantsPython {
            let probe =
                "import cv2, pyvips, PIL, numpy; print(cv2.__version__, pyvips.__version__, PIL.__version__, numpy.__version__, pyvips.version(0), pyvips.version(1), pyvips.version(2))"
            guard let v = Shell.capture([python, "-c", probe]) else {
                throw BenchError("\(python) lacks one of cv2, pyvips, PIL, numpy (pip install opencv-python-headless pyvips Pillow numpy)")
            }
            let f = v.split(separator: " ").map(String.init)
            versions["opencv"] = f[0]
            versions["pyvips"] = f[1]
            versions["Pillow"] = f[2]
            versions["numpy"] = f[3]
            versions["libvips (pyvips)"] = f[4...6].joined(separator: ".")
            versions["python"] = Shell.capture([python, "-c", "import platform; print(platform.python_version())"]) ?? "?"
        }
        if opts.only.contains("vips") {
            guard let v = Shell.capture([opts.vips, "--version"]) else {
                throw BenchError("cannot run \(opts.vips) (apt-get install libvips-tools)")
            }
            versions["vips CLI"] = v
        }
        if wantsDaguerre {
            let located = try locateDaguerre()
            let attrs = try? fm.attributesOfItem(atPath: located)
            let mtime = (attrs?[.modificationDate] as? Date).map { ISO8601DateFormatter().string(from: $0) } ?? "?"
            versions["daguerre"] = "\(located) (built \(mtime))"
            // Measure a private copy, so a rebuild of the checkout during the run changes nothing.
            daguerre = work + "/bin/daguerre"
            try fm.createDirectory(atPath: work + "/bin", withIntermediateDirectories: true)
            try? fm.removeItem(atPath: daguerre)
            try fm.copyItem(atPath: located, toPath: daguerre)
        }
        guard fm.isExecutableFile(atPath: "/usr/bin/time") else { throw BenchError("/usr/bin/time is missing (apt-get install time)") }

        // Inputs.
        let input = opts.input ?? work + "/in.jpg"
        if (wantsChain || opts.only.contains("fusion") || opts.only.contains("filters")) && !fm.fileExists(atPath: input) {
            log("Generating the 10000×10000 test JPEG at \(input) …")
            let r = try Shell.run([python, peers + "/make_input.py", "photo", input])
            guard r.status == 0 else { throw BenchError("make_input.py failed:\n\(r.output)") }
        }
        // Warm the page cache so the first tool does not pay for the disk.
        if fm.fileExists(atPath: input) {
            _ = try? Data(contentsOf: URL(fileURLWithPath: input), options: .alwaysMapped).reduce(0) { $0 &+ $1 }
        }

        var results = Results(date: Bench.now(), machine: Bench.machine(), versions: versions, reps: opts.reps, input: input)
        printHeader(results)

        if wantsChain { try chain(input: input, into: &results) }
        if opts.only.contains("memory") { try memory(into: &results) }
        if opts.only.contains("fusion") { try fusion(input: input, into: &results) }
        if opts.only.contains("livephoto-mov") { try livePhoto(into: &results) }
        if opts.only.contains("raw") { try raw(into: &results) }
        if opts.only.contains("raw120") { try raw120(into: &results) }
        if opts.only.contains("rawxtrans") { try rawXTrans(into: &results) }
        if opts.only.contains("rawkodak") { try rawKodak(into: &results) }
        if opts.only.contains("filters") { try filters(input: input, into: &results) }

        results.machine["loadAverageAtEnd"] = Bench.loadAverage()
        print(
            "Load average (1, 5, 15 min) at the start: \(results.machine["loadAverageAtStart"] ?? "?"), at the end: \(results.machine["loadAverageAtEnd"] ?? "?")."
        )

        if let path = opts.json {
            let out = path.isEmpty ? work + "/results.json" : path
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys]
            try enc.encode(results).write(to: URL(fileURLWithPath: out))
            log("Results JSON: \(out)")
        }
    }

    // MARK: - Scenarios

    func chainJobs(input: String) -> [Job] {
        let dir = work + "/chain"
        try? fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var jobs: [Job] = []
        for tool in Options.tools where opts.only.contains(tool) {
            let out = "\(dir)/\(tool).jpg"
            switch tool {
            case "daguerre":
                jobs.append(
                    Job(
                        name: tool,
                        steps: [
                            [
                                daguerre, "apply", input, "-o", out,
                                "--filter", "GaussianBlur", "inputRadius=2",
                                "--filter", "ColorMatrix", "inputRVector=0.9,0.1,0,0", "inputGVector=0.05,0.9,0.05,0",
                                "inputBVector=0,0.1,0.9,0",
                                "--filter", "LanczosScaleTransform", "inputScale=0.5",
                                "--quality", "0.9",
                            ]
                        ], output: out))
            case "daguerre-nocm":
                jobs.append(
                    Job(
                        name: "daguerre --no-color-management",
                        steps: [
                            [
                                daguerre, "apply", input, "-o", out,
                                "--filter", "GaussianBlur", "inputRadius=2",
                                "--filter", "ColorMatrix", "inputRVector=0.9,0.1,0,0", "inputGVector=0.05,0.9,0.05,0",
                                "inputBVector=0,0.1,0.9,0",
                                "--filter", "LanczosScaleTransform", "inputScale=0.5",
                                "--quality", "0.9", "--no-color-management",
                            ]
                        ], output: out))
            case "opencv":
                jobs.append(Job(name: tool, steps: [[python, peers + "/opencv_chain.py", input, out]], output: out))
            case "pyvips":
                jobs.append(Job(name: tool, steps: [[python, peers + "/pyvips_chain.py", input, out]], output: out))
            case "vips":
                let t1 = dir + "/vips-blur.v"
                let t2 = dir + "/vips-recomb.v"
                jobs.append(
                    Job(
                        name: "vips CLI",
                        steps: [
                            [opts.vips, "gaussblur", input, t1, "2"],
                            [opts.vips, "recomb", t1, t2, peers + "/recomb.mat"],
                            [opts.vips, "resize", t2, out + "[Q=90]", "0.5", "--kernel", "lanczos3"],
                        ], output: out, intermediates: [t1, t2]))
            default: break
            }
        }
        return jobs
    }

    func chain(input: String, into results: inout Results) throws {
        let jobs = chainJobs(input: input)
        let summaries = measure(jobs, label: "chain")
        results.chain = summaries

        let byName = Dictionary(uniqueKeysWithValues: summaries.map { ($0.name, $0) })
        let cv = byName["opencv"].flatMap { $0.ok ? $0.medianWall : nil }
        let pv = byName["pyvips"].flatMap { $0.ok ? $0.medianRSSMiB : nil }
        print("## Chain: 10000×10000 JPEG → Gaussian σ=2 → 3×3 colour matrix → Lanczos 0.5× → JPEG Q90\n")
        print(
            "| tool | median wall (s) | min–max wall (s) | median peak RSS (MiB) | wall / OpenCV | paired wall / OpenCV | RSS / pyvips | median CPU (s) |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        let cvRuns = byName["opencv"].flatMap { $0.ok ? $0.runs.map(\.wallSeconds) : nil }
        for s in summaries {
            guard s.ok else {
                print("| \(s.name) | failed | | | | | | |")
                continue
            }
            let wr = cv.map { fmt(s.medianWall / $0) } ?? "—"
            // The median of per-repetition ratios: each pair ran back to back, so a slow spell
            // of the shared machine hits both sides of a ratio.
            let paired =
                cvRuns.map { cvw -> String in
                    let r = zip(s.runs.map(\.wallSeconds), cvw).map { $0 / $1 }
                    return r.isEmpty ? "—" : fmt(median(r))
                } ?? "—"
            let rr = pv.map { fmt(s.medianRSSMiB / $0) } ?? "—"
            print(
                "| \(s.name) | \(fmt(s.medianWall)) | \(fmt(s.minWall))–\(fmt(s.maxWall)) | \(fmt(s.medianRSSMiB, 0)) | \(wr) | \(paired) | \(rr) | \(fmt(s.medianCPU)) |"
            )
        }
        print(
            "\nCPU = user + system seconds."
                + (opts.only.contains("vips")
                    ? " vips CLI: the sum of its three processes' wall and CPU times and the largest of their peak RSS." : ""))
        printFailures(summaries)

        if opts.check {
            let ok = jobs.filter { j in summaries.first { $0.name == j.name }?.ok == true }
            results.chainChecks = check(ok)
        }
        print("")
    }

    func memory(into results: inout Results) throws {
        let dir = work + "/memory"
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let tiny = dir + "/tiny.png"
        let out = dir + "/big.jpg"
        let r = try Shell.run([python, peers + "/make_input.py", "tiny", tiny])
        guard r.status == 0 else { throw BenchError("make_input.py tiny failed:\n\(r.output)") }
        let gradientOut = dir + "/gradient.jpg"
        let jobs = [
            // The issue's scenario: a generator recipe, 400 MP, streamed to JPEG.
            Job(
                name: "daguerre LinearGradient recipe → 20000×20000 JPEG",
                steps: [
                    [
                        daguerre, "generate", "LinearGradient", "inputPoint0=0,0", "inputPoint1=20000,20000",
                        "--size", "20000x20000", "-o", gradientOut, "--quality", "0.9",
                    ]
                ],
                output: gradientOut),
            Job(
                name: "daguerre 20×20 PNG → Lanczos 1000× → 20000×20000 JPEG",
                steps: [[daguerre, "apply", tiny, "-o", out, "--filter", "LanczosScaleTransform", "inputScale=1000", "--quality", "0.9"]],
                output: out),
        ]
        let all = measure(jobs, label: "memory")
        results.memory = all[1]
        print("## Memory: a 400 MP (20000×20000) render streamed to JPEG\n")
        print(
            "| scenario | median wall (s) | min–max wall (s) | median peak RSS (MiB) | max peak RSS (MiB) | goal < 250 MiB | median CPU (s) |"
        )
        print("|---|---:|---:|---:|---:|---|---:|")
        for s in all {
            if s.ok {
                print(
                    "| \(s.name) | \(fmt(s.medianWall)) | \(fmt(s.minWall))–\(fmt(s.maxWall)) | \(fmt(s.medianRSSMiB, 0)) | \(fmt(s.maxRSSMiB, 0)) | \(s.maxRSSMiB < 250 ? "met" : "**missed**") | \(fmt(s.medianCPU)) |"
                )
            } else {
                print("| \(s.name) | failed | | | | | |")
            }
        }
        printFailures(all)
        if opts.check && all[1].ok, let c = summarize([("memory", out)]).first {
            results.memoryOutput = c
            print(
                "\nOutput: \(c.width ?? 0)×\(c.height ?? 0), mean RGB \(c.mean.map { $0.map { fmt($0, 1) }.joined(separator: ", ") } ?? "?")"
                    + ((c.width == 20000 && c.height == 20000) ? "" : "  **expected 20000×20000**"))
        }
        print("")
    }

    func fusion(input: String, into results: inout Results) throws {
        let dir = work + "/fusion"
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let one = dir + "/one.jpg"
        let eight = dir + "/eight.jpg"
        let jobs = [
            Job(
                name: "1 filter (ExposureAdjust)",
                steps: [
                    [
                        daguerre, "apply", input, "-o", one,
                        "--filter", "ExposureAdjust", "inputEV=0.3", "--quality", "0.9",
                    ]
                ], output: one),
            Job(
                name: "8 point-wise filters",
                steps: [
                    [
                        daguerre, "apply", input, "-o", eight,
                        "--filter", "ExposureAdjust", "inputEV=0.3",
                        "--filter", "ColorMatrix", "inputRVector=0.9,0.1,0,0", "inputGVector=0.05,0.9,0.05,0", "inputBVector=0,0.1,0.9,0",
                        "--filter", "ColorControls", "inputSaturation=1.1",
                        "--filter", "Vibrance", "inputAmount=0.2",
                        "--filter", "GammaAdjust", "inputPower=0.95",
                        "--filter", "TemperatureAndTint", "inputNeutral=6000,0",
                        "--filter", "ToneCurve",
                        "--filter", "ColorClamp",
                        "--quality", "0.9",
                    ]
                ], output: eight),
        ]
        let s = measure(jobs, label: "fusion")
        results.fusionOne = s[0]
        results.fusionEight = s[1]
        print("## Fusion: daguerre on the 100 MP JPEG, one point-wise filter vs eight chained\n")
        print("| chain | median wall (s) | min–max wall (s) | median peak RSS (MiB) | median CPU (s) |")
        print("|---|---:|---:|---:|---:|")
        for x in s {
            guard x.ok else {
                print("| \(x.name) | failed | | | |")
                continue
            }
            print(
                "| \(x.name) | \(fmt(x.medianWall)) | \(fmt(x.minWall))–\(fmt(x.maxWall)) | \(fmt(x.medianRSSMiB, 0)) | \(fmt(x.medianCPU)) |"
            )
        }
        if s[0].ok && s[1].ok {
            let ratio = s[1].medianWall / s[0].medianWall
            results.fusionRatio = ratio
            let paired = median(zip(s[1].runs.map(\.wallSeconds), s[0].runs.map(\.wallSeconds)).map { $0 / $1 })
            print(
                "\nEight / one (median wall): **\(fmt(ratio))** — goal ≤ 1.3: \(ratio <= 1.3 ? "met" : "**missed**")"
                    + " (paired per repetition: \(fmt(paired)); CPU: \(fmt(s[1].medianCPU / s[0].medianCPU)))")
        }
        printFailures(s)
        if opts.check {
            let cs = summarize(zip(s, jobs).filter { $0.0.ok }.map { ($0.1.name, $0.1.output) })
            for c in cs {
                print(
                    "\nOutput of \(c.tool ?? "?"): \(c.width ?? 0)×\(c.height ?? 0), mean RGB \(c.mean.map { $0.map { fmt($0, 1) }.joined(separator: ", ") } ?? "?")",
                    terminator: "")
            }
            print("")
        }
        print("")
    }

    /// Records a Live Photo movie (SPEC L2: 45 frames of 1440×1080 H.264 at 15 fps, about
    /// 7 Mbit/s, PCM audio, still-image-time track and metadata) once per repetition, each as a
    /// whole livephoto-mov-bench process under /usr/bin/time; the process reports its own
    /// encode+mux time (frames are made before its clock starts).
    func livePhoto(into results: inout Results) throws {
        let dir = work + "/livephoto"
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let bench = try locateBenchTool("livephoto-mov-bench", override: opts.livePhotoBench, option: "--livephoto-bench")
        let resultFile = dir + "/result.json"
        // Two ways to feed the recorder, alternating per repetition: 45 frames made beforehand
        // (280 MB in memory, each frame cold in cache, as buffers from a camera would be), and
        // each frame made just before it is appended (peak RSS is then the recorder's own).
        let variants: [(name: String, args: [String])] = [("frames made beforehand", []), ("frames made one at a time", ["--lazy-frames"])]
        var summaries = variants.map { Summary(name: "livephoto-mov, \($0.name)") }
        var encode = [[Double]](repeating: [], count: variants.count)
        for rep in 0..<opts.reps {
            for k in 0..<variants.count {
                let v = (k + rep) % variants.count
                try? fm.removeItem(atPath: resultFile)
                do {
                    let m = try Shell.timed(
                        [bench, "--reps", "1", "--out", dir, "--result", resultFile] + variants[v].args,
                        log: "\(work)/logs/livephoto-mov.log", timeFile: "\(work)/logs/time-livephoto.txt")
                    let data = try Data(contentsOf: URL(fileURLWithPath: resultFile))
                    guard let obj = try JSONSerialization.jsonObject(with: data) as? [String: Any], let t = obj["median"] as? Double else {
                        throw BenchError("no result in \(resultFile)")
                    }
                    summaries[v].runs.append(m)
                    encode[v].append(t)
                    log(
                        "[livephoto-mov rep \(rep + 1)/\(opts.reps)] \(variants[v].name): encode+mux \(fmt(t, 3)) s; process \(fmt(m.wallSeconds)) s, \(fmt(m.peakRSSMiB, 0)) MiB"
                    )
                } catch {
                    summaries[v].failures.append("rep \(rep + 1): \(error)")
                    log("[livephoto-mov rep \(rep + 1)/\(opts.reps)] \(variants[v].name): FAILED \(error)")
                }
            }
        }
        results.livePhoto = summaries[0]
        results.livePhotoLazy = summaries[1]
        results.livePhotoEncodeSeconds = encode[0]
        results.livePhotoLazyEncodeSeconds = encode[1]
        print("## Live Photo movie: 45 frames of 1440×1080 RGBA → H.264 (x264 ultrafast, 2 threads, ~7 Mbit/s) + PCM + mebx + metadata\n")
        print("| frames | median encode + mux (s) | min–max (s) | median process wall (s) | median peak RSS (MiB) | max peak RSS (MiB) |")
        print("|---|---:|---:|---:|---:|---:|")
        for (k, s) in summaries.enumerated() {
            guard s.ok else {
                print("| \(variants[k].name) | failed | | | | |")
                continue
            }
            let e = encode[k].sorted()
            print(
                "| \(variants[k].name) | \(fmt(median(e), 3)) | \(fmt(e.first ?? .nan, 3))–\(fmt(e.last ?? .nan, 3)) | \(fmt(s.medianWall)) | \(fmt(s.medianRSSMiB, 0)) | \(fmt(s.maxRSSMiB, 0)) |"
            )
        }
        if summaries[0].ok {
            let goal = median(encode[0])
            print(
                "\nEncode + mux is timed inside the process (recorder calls only); the process wall includes making the frames."
                    + " Goal: encode + mux ≤ 1.5 s (median, frames made beforehand) — \(goal <= 1.5 ? "met" : "**missed**").")
        }
        printFailures(summaries)
        print("")
    }

    /// A release-built executable of the benchmarks' package (`product`), or `override`: built
    /// with swift-flags when missing (or with --build), and copied so a rebuild during the run
    /// changes nothing.
    func locateBenchTool(_ product: String, override: String?, option: String) throws -> String {
        if let p = override {
            guard fm.isExecutableFile(atPath: p) else { throw BenchError("\(option) \(p) is not an executable") }
            return p
        }
        guard let root, let benchmarksRoot else {
            throw BenchError("cannot find the benchmarks' package (Benchmarks/Package.swift); pass \(option) PATH")
        }
        let built = benchmarksRoot + "/.build/release/" + product
        if opts.build || !fm.isExecutableFile(atPath: built) {
            let flags = Shell.capture([root + "/scripts/swift-flags"])?.split(separator: " ").map(String.init) ?? []
            let argv = ["swift", "build", "-c", "release"] + flags + ["--product", product]
            log("Building: (cd \(benchmarksRoot) && \(argv.joined(separator: " ")))")
            guard try Shell.runVisible(argv, cwd: benchmarksRoot) == 0 else { throw BenchError("swift build failed") }
        }
        guard fm.isExecutableFile(atPath: built) else { throw BenchError("no \(product) at \(built)") }
        let copy = work + "/bin/" + product
        try fm.createDirectory(atPath: work + "/bin", withIntermediateDirectories: true)
        try? fm.removeItem(atPath: copy)
        try fm.copyItem(atPath: built, toPath: copy)
        return copy
    }

    // MARK: - Measuring

    /// Runs every job once per repetition, all jobs in each repetition (the starting job rotates
    /// so no tool always runs first), each after a pause of `--settle` seconds: measured here,
    /// a 24 MP develop right after darktable-cli exited took 10 % more CPU than after LibRaw,
    /// and the fixed order always put the same tool after darktable.
    func measure(_ jobs: [Job], label: String) -> [Summary] {
        var summaries = jobs.map { Summary(name: $0.name) }
        for rep in 0..<opts.reps {
            for k in 0..<jobs.count {
                let i = (k + rep) % jobs.count
                let job = jobs[i]
                try? fm.removeItem(atPath: job.output)
                if opts.settle > 0 { Thread.sleep(forTimeInterval: opts.settle) }
                var wall = 0.0
                var rss = 0
                var cpu = 0.0
                do {
                    for (n, argv) in job.steps.enumerated() {
                        let m = try Shell.timed(
                            argv, log: "\(work)/logs/\(label)-\(slug(job.name)).log",
                            timeFile: "\(work)/logs/time-\(n).txt")
                        wall += m.wallSeconds
                        rss = max(rss, m.peakRSSKiB)
                        cpu += m.cpuSeconds
                    }
                    guard fm.fileExists(atPath: job.output) else { throw BenchError("no output \(job.output)") }
                    let m = Measurement(wallSeconds: wall, peakRSSKiB: rss, cpuSeconds: cpu)
                    summaries[i].runs.append(m)
                    log(
                        "[\(label) rep \(rep + 1)/\(opts.reps)] \(job.name): \(fmt(m.wallSeconds)) s, \(fmt(m.peakRSSMiB, 0)) MiB, CPU \(fmt(m.cpuSeconds)) s"
                    )
                } catch {
                    summaries[i].failures.append("rep \(rep + 1): \(error)")
                    log("[\(label) rep \(rep + 1)/\(opts.reps)] \(job.name): FAILED \(error)")
                }
                for f in job.intermediates { try? fm.removeItem(atPath: f) }
            }
        }
        return summaries
    }

    func printFailures(_ s: [Summary]) {
        for x in s where !x.failures.isEmpty {
            print("\n**\(x.name) failed \(x.failures.count)×**; first failure:\n\n```\n\(x.failures[0])\n```")
        }
    }

    // MARK: - Output checks

    /// Size, mean colour and distance to OpenCV's output (or the first tool's) of the chain outputs.
    func check(_ jobs: [Job]) -> [CheckResult] {
        guard !jobs.isEmpty else { return [] }
        let ref = jobs.first { $0.name == "opencv" } ?? jobs[0]
        let r = try? Shell.run([python, peers + "/check_outputs.py", ref.output] + jobs.filter { $0.output != ref.output }.map(\.output))
        var results: [CheckResult] = []
        for line in (r?.output ?? "").split(separator: "\n") {
            guard var c = try? JSONDecoder().decode(CheckResult.self, from: Data(line.utf8)) else { continue }
            c.tool = jobs.first { $0.output == c.path }?.name
            results.append(c)
        }
        guard !results.isEmpty else {
            print("\nOutput check failed: \(r?.output ?? "could not run check_outputs.py")")
            return []
        }
        let refMean = results.first { $0.path == ref.output }?.mean
        print("\nOutputs (compared centre to centre with \(ref.name)'s, 8-pixel margin left out):\n")
        print("| tool | size | mean R, G, B | mean abs diff vs \(ref.name) | PSNR vs \(ref.name) (dB) | note |")
        print("|---|---|---|---:|---:|---|")
        for c in results {
            if let e = c.error {
                print("| \(c.tool ?? c.path) | — | — | — | — | **unreadable: \(e)** |")
                continue
            }
            var notes: [String] = []
            let w = c.width ?? 0
            let h = c.height ?? 0
            if w != 5000 || h != 5000 {
                notes.append(abs(w - 5000) <= 8 && abs(h - 5000) <= 8 ? "\(w)×\(h), not 5000×5000" : "**wrong size**")
            }
            if let m = c.mean, let rm = refMean, zip(m, rm).contains(where: { abs($0 - $1) > 8 }) {
                notes.append("**mean colour far off**")
            }
            if let p = c.psnrVsRef, p < 25 { notes.append("**low PSNR**") }
            let mean = c.mean.map { $0.map { fmt($0, 1) }.joined(separator: ", ") } ?? "?"
            let psnr = c.psnrVsRef.map { fmt($0, 1) } ?? (c.path == ref.output ? "(ref)" : "∞")
            print(
                "| \(c.tool ?? c.path) | \(w)×\(h) | \(mean) | \(c.meanAbsVsRef.map { fmt($0, 2) } ?? "—") | \(psnr) | \(notes.joined(separator: "; ")) |"
            )
        }
        return results
    }

    /// Size and approximate mean colour (JPEG DCT-scaled decode: cheap for 100–400 MP files).
    func summarize(_ files: [(String, String)]) -> [CheckResult] {
        let script = """
            import json, sys
            import numpy as np
            from PIL import Image
            Image.MAX_IMAGE_PIXELS = None
            for p in sys.argv[1:]:
                im = Image.open(p); w, h = im.size
                im.draft("RGB", (max(1, w // 8), max(1, h // 8)))
                a = np.asarray(im.convert("RGB"), dtype=np.float64)
                print(json.dumps({"path": p, "width": w, "height": h, "mean": [round(float(v), 2) for v in a.reshape(-1, 3).mean(0)]}))
            """
        guard let r = try? Shell.run([python, "-c", script] + files.map(\.1)), r.status == 0 else { return [] }
        return r.output.split(separator: "\n").compactMap { line in
            guard var c = try? JSONDecoder().decode(CheckResult.self, from: Data(line.utf8)) else { return nil }
            c.tool = files.first { $0.1 == c.path }?.0
            return c
        }
    }

    // MARK: - The daguerre CLI

    func locateDaguerre() throws -> String {
        if let p = opts.daguerre {
            guard fm.isExecutableFile(atPath: p) else { throw BenchError("--daguerre \(p) is not an executable") }
            return p
        }
        guard let root else { throw BenchError("cannot find the checkout (Benchmarks/Package.swift); pass --daguerre PATH") }
        let flags = Shell.capture([root + "/scripts/swift-flags"])?.split(separator: " ").map(String.init) ?? []
        let built = root + "/.build/release/daguerre"
        if opts.build || !fm.isExecutableFile(atPath: built) {
            let argv = ["swift", "build", "-c", "release"] + flags + ["--product", "daguerre"]
            log("Building the CLI: (cd \(root) && \(argv.joined(separator: " ")))")
            guard try Shell.runVisible(argv, cwd: root) == 0 else { throw BenchError("swift build failed") }
            if let bin = Shell.capture(["swift", "build", "-c", "release", "--show-bin-path"] + flags).flatMap({
                $0.split(separator: "\n").last.map(String.init)
            }),
                fm.isExecutableFile(atPath: bin + "/daguerre")
            {
                return bin + "/daguerre"
            }
        }
        guard fm.isExecutableFile(atPath: built) else { throw BenchError("no daguerre CLI at \(built)") }
        return built
    }

    // MARK: - Report header

    static func now() -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm ZZZ"
        return f.string(from: Date())
    }

    static func machine() -> [String: String] {
        var m: [String: String] = [:]
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        if let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            m["cpu"] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        m["cores"] = String(ProcessInfo.processInfo.activeProcessorCount)
        m["memoryGiB"] = fmt(Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824, 1)
        m["os"] = ProcessInfo.processInfo.operatingSystemVersionString
        m["loadAverageAtStart"] = loadAverage()
        return m
    }

    static func loadAverage() -> String {
        let s = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return s.split(separator: " ").prefix(3).joined(separator: " ")
    }

    func printHeader(_ r: Results) {
        print("# daguerre-bench\n")
        print(
            "\(r.date) · \(r.machine["cpu"] ?? "?") · \(r.machine["cores"] ?? "?") cores · \(r.machine["memoryGiB"] ?? "?") GiB · \(r.reps) repetitions, tools interleaved, \(fmt(opts.settle, 1)) s pause before each\n"
        )
        for (k, v) in r.versions.sorted(by: { $0.key < $1.key }) { print("- \(k): \(v)") }
        print("")
    }
}

func slug(_ s: String) -> String {
    String(s.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
}
