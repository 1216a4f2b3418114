import DaguerreTestSupport
import Foundation

/// A command run with a small file system mounted over a folder, in a mount namespace of its
/// own (`unshare -m` as root, `unshare -rm` in a user namespace otherwise), so that a test can
/// fill a disk or make a destination read-only without touching the machine's mounts.
///
/// The mount lives as long as the namespace, so the script copies what the command left there
/// into a folder outside it (`keep`) before it ends.
///
/// ```swift
/// let r = try MountNamespace.run(["develop", dng, "-o", dest + "/out.tif"], mountOptions: "size=512k",
///                                over: dest, keep: keep)
/// #expect(r.run.errText.contains("No space left on device"))
/// ```
enum MountNamespace {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    struct Result: Sendable {
        let run: ChildProcess.Run
        /// What the command left in the mounted folder (copied out of the namespace).
        let left: [String]
        /// How the namespace was made.
        let unshare: [String]
    }

    /// `unshare -m`, or `unshare -rm` where that is refused, whichever can mount a tmpfs here.
    /// Throws saying why neither could.
    static let unshare: Swift.Result<[String], Unavailable> = {
        var why: [String] = []
        let probeDir = FileManager.default.temporaryDirectory.appendingPathComponent("mount-probe-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: probeDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: probeDir) }
        for prefix in [["unshare", "-m"], ["unshare", "-rm"]] {
            do {
                let r = try ChildProcess.run(
                    "/usr/bin/env", prefix + ["sh", "-c", "mount -t tmpfs -o size=64k daguerre-test \"$1\"", "sh", probeDir], timeout: 30)
                if r.status == 0 { return .success(prefix) }
                why.append("\(prefix.joined(separator: " ")) sh -c 'mount -t tmpfs ...': exit \(r.shellStatus): \(r.errText)")
            } catch {
                why.append("\(prefix.joined(separator: " ")): \(error)")
            }
        }
        return .failure(
            Unavailable(
                description:
                    "cannot mount a tmpfs in a mount namespace, so the disk-full and read-only tests cannot run"
                    + " (they need root, or unprivileged user namespaces): " + why.joined(separator: "; ")))
    }()

    /// Mounts a tmpfs with `mountOptions` (e.g. `size=512k`, `ro`) over `folder`, runs the CLI
    /// with `arguments` and `environment` there, and copies what it left into `keep`.
    static func run(
        _ arguments: [String], environment: [String: String?] = [:], mountOptions: String, over folder: String, keep: String
    ) throws -> Result {
        let prefix = try unshare.get()
        for dir in [folder, keep] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        let script = """
            dest=$1; keep=$2; opts=$3; shift 3
            mount -t tmpfs -o "$opts" daguerre-test "$dest" || { echo "mount -t tmpfs -o $opts failed" >&2; exit 97; }
            "$@"; status=$?
            cp -a "$dest/." "$keep/"
            exit $status
            """
        let run = try ChildProcess.run(
            "/usr/bin/env", prefix + ["sh", "-c", script, "sh", folder, keep, mountOptions, CLITests.cli] + arguments,
            environment: environment, timeout: 300)
        if run.status == 97 { throw Judge.Failure(description: run.errText) }
        return Result(run: run, left: KillHarness.list(keep), unshare: prefix)
    }
}
