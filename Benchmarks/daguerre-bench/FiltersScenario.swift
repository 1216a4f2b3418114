// The filters scenario (SPEC I4, against peers): the filters libvips and OpenCV also have, one at
// a time on the 100 MP JPEG, each tool as a whole process (decode, filter, encode JPEG Q90):
// daguerre without colour management (it filters the encoded values, as the peers do), OpenCV
// (peers/opencv_filter.py) and pyvips (peers/pyvips_filter.py), interleaved per repetition.
import Foundation

extension Bench {
    /// One operation: its name (the peer scripts' key), what it is, and daguerre's filter chain.
    struct FilterOperation {
        let key: String
        let title: String
        let daguerre: [String]
    }

    /// The operations, with the same parameters in every tool (see the peer scripts).
    func filterOperations(input: String) -> [FilterOperation] {
        [
            FilterOperation(key: "gaussian", title: "Gaussian blur σ 5", daguerre: ["--filter", "GaussianBlur", "inputRadius=5"]),
            FilterOperation(key: "box", title: "box blur 11×11", daguerre: ["--filter", "BoxBlur", "inputRadius=5"]),
            FilterOperation(key: "median", title: "median 3×3", daguerre: ["--filter", "MedianFilter"]),
            FilterOperation(
                key: "dilate", title: "dilation 5×5",
                daguerre: ["--filter", "MorphologyRectangleMaximum", "inputWidth=5", "inputHeight=5"]),
            FilterOperation(
                key: "unsharp", title: "unsharp mask σ 2.5, amount 0.5",
                daguerre: ["--filter", "UnsharpMask", "inputRadius=2.5", "inputIntensity=0.5"]),
            FilterOperation(
                key: "convolution", title: "3×3 convolution (sharpen)",
                daguerre: ["--filter", "Convolution3X3", "inputWeights=0,-1,0,-1,5,-1,0,-1,0"]),
            FilterOperation(
                key: "multiply", title: "multiply blend (the image with itself)",
                daguerre: ["--filter", "MultiplyBlendMode", "inputBackgroundImage=@\(input)"]),
            FilterOperation(
                key: "colormatrix", title: "3×3 colour matrix",
                daguerre: [
                    "--filter", "ColorMatrix", "inputRVector=0.9,0.1,0,0", "inputGVector=0.05,0.9,0.05,0", "inputBVector=0,0.1,0.9,0",
                ]),
            FilterOperation(
                key: "resize", title: "Lanczos 0.5×", daguerre: ["--filter", "LanczosScaleTransform", "inputScale=0.5"]),
        ]
    }

    func filters(input: String, into results: inout Results) throws {
        let dir = work + "/filters"
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        print("## Filters: one filter on the 100 MP JPEG, each tool as a whole process (decode, filter, JPEG Q90)\n")
        print(
            "| filter | daguerre wall (s) | OpenCV wall (s) | pyvips wall (s) | daguerre / faster peer | daguerre RSS (MiB) | OpenCV RSS | pyvips RSS | RSS / pyvips | PSNR vs OpenCV: daguerre, pyvips (dB) |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for op in filterOperations(input: input) {
            let jobs = [
                Job(
                    name: "daguerre \(op.key)",
                    steps: [
                        [daguerre, "apply", input, "-o", "\(dir)/daguerre-\(op.key).jpg"] + op.daguerre + [
                            "--quality", "0.9", "--no-color-management",
                        ]
                    ],
                    output: "\(dir)/daguerre-\(op.key).jpg"),
                Job(
                    name: "opencv \(op.key)", steps: [[python, peers + "/opencv_filter.py", op.key, input, "\(dir)/opencv-\(op.key).jpg"]],
                    output: "\(dir)/opencv-\(op.key).jpg"),
                Job(
                    name: "pyvips \(op.key)", steps: [[python, peers + "/pyvips_filter.py", op.key, input, "\(dir)/pyvips-\(op.key).jpg"]],
                    output: "\(dir)/pyvips-\(op.key).jpg"),
            ]
            let s = measure(jobs, label: "filters \(op.key)")
            results.filters += s
            func wall(_ x: Summary) -> String { x.ok ? fmt(x.medianWall) : "failed" }
            func rss(_ x: Summary) -> String { x.ok ? fmt(x.medianRSSMiB, 0) : "—" }
            let peersOK = s[1...].filter(\.ok)
            let fastest = peersOK.map(\.medianWall).min()
            let ratio = s[0].ok ? fastest.map { fmt(s[0].medianWall / $0) } ?? "—" : "—"
            let rssRatio = s[0].ok && s[2].ok ? fmt(s[0].medianRSSMiB / s[2].medianRSSMiB) : "—"
            var psnr = "—"
            if opts.check && s[1].ok {
                // check_outputs.py: one JSON line per file, PSNR against the first (OpenCV's).
                let r = try? Shell.run([python, peers + "/check_outputs.py", jobs[1].output, jobs[0].output, jobs[2].output])
                let lines = (r?.output ?? "").split(separator: "\n").compactMap {
                    try? JSONDecoder().decode(CheckResult.self, from: Data($0.utf8))
                }
                let byPath = Dictionary(lines.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
                psnr = [jobs[0], jobs[2]].map { j in
                    guard let c = byPath[j.output], c.error == nil else { return "—" }
                    return c.psnrVsRef.map { fmt($0, 1) } ?? "∞"  // identical to OpenCV's
                }.joined(separator: ", ")
            }
            print(
                "| \(op.title) | \(wall(s[0])) | \(wall(s[1])) | \(wall(s[2])) | \(ratio) | \(rss(s[0])) | \(rss(s[1])) | \(rss(s[2])) | \(rssRatio) | \(psnr) |"
            )
            printFailures(s)
        }
        print("\nWall and RSS are medians over the repetitions; the ratio is daguerre's over the faster of OpenCV and pyvips.\n")
    }
}
