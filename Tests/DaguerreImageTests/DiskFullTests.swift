import DaguerreTestSupport
import Foundation
import Testing

/// Writers whose destination is on a full disk (a small tmpfs) or a read-only file system
/// (SPEC X5): a typed error that names the path and the cause, nothing left behind (with
/// anonymous and with named temporary files), and a develop batch that goes on with the next
/// file and ends non-zero with the failures listed. Each case mounts its own tmpfs in a mount
/// namespace (``MountNamespace``); where none can be made the tests fail saying why.
@Suite("Disk full and read-only destinations", .serialized)
struct DiskFullTests {
    /// The two ways temporary files are made: anonymous (O_TMPFILE) and named (the fallback).
    static let modes: [(name: String, environment: [String: String?])] = [
        ("anonymous temporaries", ["DAGUERRE_NAMED_TEMPORARIES": nil]),
        ("named temporaries", ["DAGUERRE_NAMED_TEMPORARIES": "1"]),
    ]

    struct Case: Sendable {
        let what: String
        let result: MountNamespace.Result
        /// The mounted folder, and where what was left there was copied.
        let folder: String
        let keep: String
    }

    /// Runs `arguments` (with `{dest}` for the mounted folder) in each mode.
    static func runInModes(
        _ what: String, _ arguments: [String], mountOptions: String, in dir: TemporaryDirectory
    ) throws -> [Case] {
        try modes.enumerated().map { n, mode in
            let folder = dir.path("\(what)-\(n)/dest")
            let keep = dir.path("\(what)-\(n)/left")
            let r = try MountNamespace.run(
                arguments.map { $0.replacingOccurrences(of: "{dest}", with: folder) }, environment: mode.environment,
                mountOptions: mountOptions, over: folder, keep: keep)
            return Case(what: "\(what), \(mode.name)", result: r, folder: folder, keep: keep)
        }
    }

    /// A failed write: non-zero exit, an error naming `path` (the file, or at least its folder)
    /// and `cause`, and nothing left in the folder.
    static func checkRefused(_ c: Case, path: String, cause: String) {
        let err = c.result.run.errText
        print("\(c.what): exit \(c.result.run.shellStatus): \(err.split(separator: "\n").last ?? "")")
        #expect(c.result.run.status != 0 && c.result.run.status != nil, "\(c.what): exit \(c.result.run.shellStatus)")
        #expect(err.contains(cause), "\(c.what): the error does not give the cause '\(cause)': \(err.suffix(600))")
        #expect(err.contains(path) || err.contains(c.folder), "\(c.what): the error does not name \(path): \(err.suffix(600))")
        #expect(!err.contains("Fatal error") && c.result.run.signalled == nil, "\(c.what): crashed: \(err.suffix(600))")
        #expect(c.result.left.isEmpty, "\(c.what): left \(c.result.left)")
    }

    @Test("A full disk: develop to TIFF 16 and record a movie fail with 'No space left on device' naming the file; nothing is left")
    func diskFull() async throws {
        let dir = try TemporaryDirectory("disk-full")
        let cases = try await onOwnThread { () throws -> [Case] in
            let big = dir.path("big.dng")
            try VirtualDNG.write(width: 640, height: 480, to: big)
            return try Self.runInModes("develop", ["develop", big, "--draft", "-o", "{dest}/out.tif"], mountOptions: "size=512k", in: dir)
                // 2 s: on a loaded host the camera may take most of a second to deliver its first frame.
                + Self.runInModes(
                    "record", ["record", "--seconds", "2", "--device", "front", "-o", "{dest}/clip.mov"], mountOptions: "size=64k",
                    in: dir)
        }
        print("mount namespace: \(cases.first?.result.unshare.joined(separator: " ") ?? "none")")
        for c in cases {
            Self.checkRefused(
                c, path: c.folder + (c.what.hasPrefix("develop") ? "/out.tif" : "/clip.mov"), cause: "No space left on device")
        }
    }

    @Test("A read-only destination: develop, apply and capture fail with 'Read-only file system' naming the path; nothing is left")
    func readOnly() async throws {
        let dir = try TemporaryDirectory("read-only")
        let cases = try await onOwnThread { () throws -> [(Case, String)] in
            let dng = dir.path("small.dng")
            try VirtualDNG.write(width: 320, height: 240, to: dng)
            let develop = try Self.runInModes("develop", ["develop", dng, "--draft", "-o", "{dest}/out.jpg"], mountOptions: "ro", in: dir)
            let apply = try Self.runInModes("apply", ["apply", Kodak.url(9).path, "-o", "{dest}/out.png"], mountOptions: "ro", in: dir)
            let capture = try Self.runInModes("capture", ["capture", "--sensor", "320x240", "-o", "{dest}"], mountOptions: "ro", in: dir)
            return develop.map { ($0, "/out.jpg") } + apply.map { ($0, "/out.png") } + capture.map { ($0, "/photo-1.jpg") }
        }
        for (c, file) in cases { Self.checkRefused(c, path: c.folder + file, cause: "Read-only file system") }
    }

    @Test(
        "A develop batch whose middle photo does not fit goes on, keeps the ones that fit, and ends non-zero naming the failure"
    )
    func batchGoesOn() async throws {
        let dir = try TemporaryDirectory("disk-full-batch")
        let (cases, verdicts) = try await onOwnThread { () throws -> ([Case], [[CompleteFiles.Verdict]]) in
            let small1 = dir.path("small1.dng")
            let big = dir.path("big.dng")
            let small2 = dir.path("small2.dng")
            try VirtualDNG.write(width: 320, height: 240, to: small1)
            try VirtualDNG.write(width: 640, height: 480, to: big)
            try FileManager.default.copyItem(atPath: small1, toPath: small2)
            // 1200 KiB: room for the two small TIFFs (400 KiB each), not for the big one (1.7 MB).
            let cases = try Self.runInModes(
                "batch", ["develop", small1, big, small2, "--draft", "--format", "tiff16", "-o", "{dest}"], mountOptions: "size=1200k",
                in: dir)
            let verdicts = try cases.map { c in
                try CompleteFiles.judge(c.result.left.map { .init(kind: "tiff16", path: c.keep + "/" + $0) })
            }
            return (cases, verdicts)
        }
        for (c, judged) in zip(cases, verdicts) {
            let run = c.result.run
            let err = run.errText
            print("\(c.what): exit \(run.shellStatus); stdout:\n\(run.outText)\nstderr:\n\(err)")
            #expect(run.status != 0 && run.status != nil, "\(c.what): exit \(run.shellStatus)")
            #expect(c.result.left == ["small1.tif", "small2.tif"], "\(c.what): left \(c.result.left)")
            #expect(run.outText.contains("small2.dng"), "\(c.what): the batch did not go on to small2.dng: \(run.outText)")
            #expect(err.contains("No space left on device"), "\(c.what): \(err)")
            #expect(err.contains(c.folder + "/big.tif") || err.contains("big.dng"), "\(c.what): the failure is not named: \(err)")
            let last = err.split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.contains("big"), "\(c.what): the last line does not list the failure: '\(last)'")
            for v in judged { #expect(v.complete, "\(c.what): \(v.item.path): \(v.reason)") }
            #expect(judged.count == 2)
        }
    }
}
