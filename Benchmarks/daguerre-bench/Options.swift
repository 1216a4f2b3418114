import Foundation

/// Command-line options of daguerre-bench (hand-parsed: the target stays Foundation-only).
struct Options {
    static let tools = ["daguerre", "daguerre-nocm", "opencv", "pyvips", "vips"]
    static let scenarios = ["memory", "fusion", "livephoto-mov", "raw", "raw120", "rawxtrans", "rawkodak", "filters"]

    var daguerre: String?
    var build = false
    var input: String?
    var work = "/tmp/daguerre-bench"
    var reps = 5
    var settle = 1.0
    var only: Set<String> = Set(Options.tools + Options.scenarios)
    var json: String?
    var python: String?
    var vips = "vips"
    var peers: String?
    var check = true
    var livePhotoBench: String?
    var rawBench: String?

    static let usage = """
        USAGE: daguerre-bench [options]

        Runs the same image chain with daguerre, OpenCV, pyvips and the vips CLI, each as a whole
        process, interleaved per repetition, and prints Markdown tables of wall time and peak RSS
        (measured by /usr/bin/time). Also: the 400 MP "memory" scenario and the point-wise "fusion"
        scenario of the daguerre CLI, and "livephoto-mov": recording a Live Photo movie (45 frames of
        1440×1080 H.264 with PCM audio and metadata) with livephoto-mov-bench. See Benchmarks/README.md.

        OPTIONS:
          --daguerre PATH   The daguerre CLI. Default: <package>/.build/release/daguerre, built with
                            `swift build -c release $(scripts/swift-flags) --product daguerre` if missing.
          --build           Build the CLI that way first even if it exists (ignored with --daguerre).
          --input PATH      The 10000×10000 test JPEG; generated there if missing.
                            Default: <work>/in.jpg.
          --work DIR        Outputs, logs and intermediates. Default: /tmp/daguerre-bench.
          --reps N          Repetitions of every measurement. Default: 5.
          --settle S        Seconds of pause before each measured process, so one tool's exit
                            (darktable and RawTherapee free over 1 GiB) does not land in the next
                            tool's time. Default: 1.
          --only LIST       Comma-separated subset of: daguerre,daguerre-nocm,opencv,pyvips,vips,
                            memory,fusion,livephoto-mov,raw,raw120,rawxtrans,rawkodak,filters ("chain" = the five chain runs).
                            filters: nine filters libvips and OpenCV also have (blurs, median,
                            dilation, unsharp mask, convolution, multiply blend, colour matrix,
                            resize), one at a time on the 100 MP JPEG, daguerre (no colour
                            management) against OpenCV and pyvips.
                            raw: a 24 MP DNG developed to 16-bit TIFF and to JPEG q90 by daguerre,
                            LibRaw (dcraw_emu -q 3), RawTherapee and darktable, plus the draft
                            re-render timing; raw120: a 120 MP DNG, daguerre and LibRaw; rawxtrans:
                            a 26 MP X-Trans DNG (6240×4160), daguerre, LibRaw (Markesteijn 3-pass),
                            RawTherapee and darktable; rawkodak: a 24 MP Bayer DNG of the Kodak
                            photographs (uncompressed strips, no NoiseProfile), the same four. Repeatable.
                            Default: all.
                            daguerre-nocm is daguerre with --no-color-management (it filters the
                            encoded sRGB values, as the peers do, instead of linear light).
          --json [PATH]     Also write the results as JSON. Default path: <work>/results.json.
          --python PATH     The Python 3 with cv2, pyvips, PIL and numpy. Default: python3 on PATH.
          --vips PATH       The vips CLI. Default: vips on PATH.
          --peers DIR       The peer scripts. Default: <package>/Benchmarks/peers.
          --no-check        Skip the sanity check of the outputs (size, mean colour, PSNR vs OpenCV).
          --livephoto-bench PATH
                            The livephoto-mov-bench executable. Default: <package>/Benchmarks/.build/
                            release/livephoto-mov-bench, built with swift-flags if missing (or with
                            --build).
          --raw-bench PATH  The raw-bench executable (makes the DNGs, times draft re-renders).
                            Default: <package>/Benchmarks/.build/release/raw-bench, built like the others.
          -h, --help        Show this help.
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var o = Options()
        var onlyList: [String] = []
        var i = 0
        func value(_ name: String) throws -> String {
            i += 1
            guard i < arguments.count else { throw BenchError("\(name) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            let a = arguments[i]
            switch a {
            case "-h", "--help":
                print(usage)
                exit(0)
            case "--daguerre": o.daguerre = try value(a)
            case "--build": o.build = true
            case "--input": o.input = try value(a)
            case "--work": o.work = try value(a)
            case "--reps":
                guard let n = Int(try value(a)), n > 0 else { throw BenchError("--reps needs a positive integer") }
                o.reps = n
            case "--settle":
                guard let t = Double(try value(a)), t >= 0, t <= 60 else { throw BenchError("--settle needs seconds between 0 and 60") }
                o.settle = t
            case "--only":
                onlyList += try value(a).split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces).lowercased() }
            case "--json":
                if i + 1 < arguments.count, !arguments[i + 1].hasPrefix("--") { o.json = try value(a) } else { o.json = "" }
            case "--python": o.python = try value(a)
            case "--vips": o.vips = try value(a)
            case "--peers": o.peers = try value(a)
            case "--no-check": o.check = false
            case "--livephoto-bench": o.livePhotoBench = try value(a)
            case "--raw-bench": o.rawBench = try value(a)
            default: throw BenchError("unknown argument '\(a)'\n\n\(usage)")
            }
            i += 1
        }
        if !onlyList.isEmpty {
            var set = Set<String>()
            for name in onlyList where !name.isEmpty {
                if name == "chain" {
                    set.formUnion(tools)
                    continue
                }
                let canonical = ["vips-cli": "vips", "cv2": "opencv", "dag": "daguerre"][name] ?? name
                guard (tools + scenarios).contains(canonical) else {
                    throw BenchError("--only: unknown '\(name)'; choose from \((tools + scenarios + ["chain"]).joined(separator: ","))")
                }
                set.insert(canonical)
            }
            o.only = set
        }
        return o
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
