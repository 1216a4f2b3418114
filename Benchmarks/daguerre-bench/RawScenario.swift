// The RAW scenarios (speed and memory, SPEC X7): one 24 MP Bayer DNG from the virtual camera,
// developed by each tool as a whole process to a 16-bit TIFF and to a JPEG at quality 90; a
// 120 MP DNG for the memory bound; a 26 MP X-Trans DNG and a 24 MP Bayer DNG (uncompressed
// strips, no NoiseProfile) of the Kodak photographs; and raw-bench's in-process draft re-render
// timing (X7).
import Foundation

extension Bench {
    /// The DNG at `path`, made by raw-bench from the virtual camera when missing.
    func rawInput(width: Int, height: Int) throws -> String {
        let path = "\(work)/raw-\(width)x\(height).dng"
        if !fm.fileExists(atPath: path) {
            let tool = try locateBenchTool("raw-bench", override: opts.rawBench, option: "--raw-bench")
            log("Making the \(width)×\(height) DNG at \(path) with the virtual camera …")
            let r = try Shell.run([tool, "make-dng", "--width", "\(width)", "--height", "\(height)", "--out", path])
            guard r.status == 0 else { throw BenchError("raw-bench make-dng failed:\n\(r.output)") }
        }
        _ = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped).reduce(0) { $0 &+ $1 }
        return path
    }

    /// Each tool's command for `input` → `output` (a .tif is 16-bit, a .jpg quality 90).
    func rawJobs(input: String, dir: String, tools: [String]) -> [Job] {
        var jobs: [Job] = []
        let dtConfig = work + "/darktable-config"
        try? fm.createDirectory(atPath: dtConfig, withIntermediateDirectories: true)
        for ext in ["tif", "jpg"] {
            let tiff = ext == "tif"
            for tool in tools {
                let out = "\(dir)/\(tool).\(ext)"
                switch tool {
                case "daguerre":
                    jobs.append(
                        Job(
                            name: "daguerre → \(tiff ? "TIFF 16" : "JPEG q90")",
                            steps: [[daguerre, "develop", input, "-o", out, "--colorspace", "sRGB", "--quality", "0.9"]], output: out))
                case "libraw":
                    // dcraw_emu writes TIFF or PPM; the JPEG goes through libjpeg-turbo's cjpeg.
                    jobs.append(
                        Job(
                            name: "LibRaw AHD (dcraw_emu -q 3) → \(tiff ? "TIFF 16" : "JPEG q90")",
                            steps: tiff
                                ? [["dcraw_emu", "-q", "3", "-6", "-T", "-Z", out, input]]
                                : [["sh", "-c", "dcraw_emu -q 3 -Z - '\(input)' | cjpeg -quality 90 > '\(out)'"]], output: out))
                case "rawtherapee":
                    // -s without a sidecar: RawTherapee's neutral profile.
                    jobs.append(
                        Job(
                            name: "RawTherapee (neutral) → \(tiff ? "TIFF 16" : "JPEG q90")",
                            steps: [["rawtherapee-cli", "-Y", "-s", "-o", out] + (tiff ? ["-t", "-b16"] : ["-j90"]) + ["-c", input]],
                            output: out))
                case "darktable":
                    let conf = tiff ? "plugins/imageio/format/tiff/bpp=16" : "plugins/imageio/format/jpeg/quality=90"
                    jobs.append(
                        Job(
                            name: "darktable → \(tiff ? "TIFF 16" : "JPEG q90")",
                            steps: [
                                ["darktable-cli", input, out, "--core", "--configdir", dtConfig, "--library", ":memory:", "--conf", conf]
                            ], output: out))
                default: break
                }
            }
        }
        return jobs
    }

    func raw(into results: inout Results) throws {
        let dir = work + "/raw"
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let input = try rawInput(width: 6000, height: 4000)
        let jobs = rawJobs(input: input, dir: dir, tools: ["daguerre", "libraw", "rawtherapee", "darktable"])
        let s = measure(jobs, label: "raw")
        results.raw = s
        print("## RAW: a 24 MP (6000×4000) Bayer DNG developed, whole process\n")
        printRawTable(s, reference: "LibRaw", goal: "daguerre ≤ ¼ of LibRaw's wall time, ≤ 300 MiB")
        let tool = try locateBenchTool("raw-bench", override: opts.rawBench, option: "--raw-bench")
        let draft = try Shell.run([tool, "draft", "--dng", input, "--long-edge", "2048", "--reps", "\(max(opts.reps, 9))"])
        results.rawDraft = draft.output.trimmingCharacters(in: .whitespacesAndNewlines)
        print("\nDraft re-render (X7, goal ≤ 80 ms): \(results.rawDraft ?? "")\n")
    }

    func raw120(into results: inout Results) throws {
        let dir = work + "/raw120"
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let input = try rawInput(width: 13400, height: 8960)
        let jobs = rawJobs(input: input, dir: dir, tools: ["daguerre", "libraw"]).filter { $0.output.hasSuffix(".jpg") }
        let s = measure(jobs, label: "raw120")
        results.raw120 = s
        print("## RAW: a 120 MP (13400×8960) Bayer DNG developed to JPEG q90, whole process\n")
        printRawTable(s, reference: "LibRaw", goal: "daguerre peak RSS ≤ 600 MiB")
    }

    /// A DNG of the Kodak crops made by raw-bench's `command` (make-xtrans-dng, make-kodak-dng)
    /// when missing.
    func kodakInput(_ command: String, name: String, width: Int, height: Int) throws -> String {
        let path = "\(work)/raw-\(name)-\(width)x\(height).dng"
        if !fm.fileExists(atPath: path) {
            let tool = try locateBenchTool("raw-bench", override: opts.rawBench, option: "--raw-bench")
            log("Making the \(width)×\(height) \(name) DNG at \(path) from the Kodak crops …")
            let r = try Shell.run([tool, command, "--width", "\(width)", "--height", "\(height)", "--out", path])
            guard r.status == 0 else { throw BenchError("raw-bench \(command) failed:\n\(r.output)") }
        }
        _ = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped).reduce(0) { $0 &+ $1 }
        return path
    }

    func rawXTrans(into results: inout Results) throws {
        // dcraw_emu -q 3 is LibRaw's Markesteijn 3-pass on an X-Trans mosaic.
        results.rawXTrans = try kodakScenario(
            "make-xtrans-dng", name: "xtrans", width: 6240, height: 4160,
            title: "a 26 MP (6240×4160) X-Trans DNG developed, whole process", goal: "daguerre < LibRaw's wall time, ≤ 300 MiB")
    }

    /// The 24 MP Bayer DNG of real photographs: the Kodak crops tiled 12×8, a sensor's noise,
    /// uncompressed strips and no NoiseProfile, so noise reduction estimates the noise.
    func rawKodak(into results: inout Results) throws {
        results.rawKodak = try kodakScenario(
            "make-kodak-dng", name: "kodak", width: 6000, height: 4000,
            title: "a 24 MP (6000×4000) Bayer DNG of the Kodak photographs (no NoiseProfile) developed, whole process",
            goal: "daguerre ≤ ¼ of LibRaw's wall time")
    }

    /// A DNG of the Kodak photographs made by `raw-bench COMMAND`, developed by the four tools.
    private func kodakScenario(_ command: String, name: String, width: Int, height: Int, title: String, goal: String) throws -> [Summary] {
        let dir = work + "/raw" + name
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let input = try kodakInput(command, name: name, width: width, height: height)
        let jobs = rawJobs(input: input, dir: dir, tools: ["daguerre", "libraw", "rawtherapee", "darktable"])
        let s = measure(jobs, label: "raw" + name)
        print("## RAW: \(title)\n")
        printRawTable(s, reference: "LibRaw", goal: goal)
        return s
    }

    /// Wall time and RSS per job, with each tool's ratio to the reference tool on the same output.
    func printRawTable(_ s: [Summary], reference: String, goal: String) {
        print("| tool → output | median wall (s) | min–max wall (s) | median peak RSS (MiB) | median CPU (s) | wall / \(reference) |")
        print("|---|---:|---:|---:|---:|---:|")
        for x in s {
            guard x.ok else {
                print("| \(x.name) | failed | | | | |")
                continue
            }
            let output = x.name.components(separatedBy: " → ").last ?? ""
            let ref = s.first { $0.name.hasPrefix(reference) && $0.name.hasSuffix(output) && $0.ok }
            let ratio = ref.map { fmt(x.medianWall / $0.medianWall) } ?? "–"
            print(
                "| \(x.name) | \(fmt(x.medianWall)) | \(fmt(x.minWall))–\(fmt(x.maxWall)) | \(fmt(x.medianRSSMiB, 0)) | \(fmt(x.medianCPU)) | \(ratio) |"
            )
        }
        print("\nGoal: \(goal).")
        printFailures(s)
    }
}
