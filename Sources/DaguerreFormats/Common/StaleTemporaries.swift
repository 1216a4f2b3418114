// Temporaries a killed writer left behind (`.NAME.daguerre-XXXXXX`, the named fallback of
// AtomicFile, or the hidden name of an atomic replacement): removed from a directory before it
// is written to, when older than the process and not locked by a live writer. POSIX calls only.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds and removes stale temporaries of ours in one directory.
///
/// ```swift
/// StaleTemporaries.remove(in: "/photos", olderThan: timespec(tv_sec: time(nil), tv_nsec: 0))
/// StaleTemporaries.isTemporaryName(".IMG_0001.jpg.daguerre-a1B2c3")   // true
/// ```
enum StaleTemporaries {
    /// Whether `name` has the temporary pattern: a dot, the destination's name, `.daguerre-`
    /// and six letters or digits.
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), let range = name.range(of: ".daguerre-", options: .backwards) else { return false }
        let suffix = name[range.upperBound...]
        return range.lowerBound > name.index(after: name.startIndex) && suffix.count == 6
            && suffix.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// Removes the temporaries in `directory` last changed before `start` that no process holds
    /// locked. Errors (an unreadable directory, a file that vanished) are not this writer's
    /// concern: the write that follows reports its own.
    static func remove(in directory: String, olderThan start: timespec) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where isTemporaryName(name) {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let m = info.st_mtim
            guard m.tv_sec < start.tv_sec || (m.tv_sec == start.tv_sec && m.tv_nsec < start.tv_nsec) else { continue }
            // A live writer holds its lock; a killed one's lock went with it.
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            unlink(path)
        }
    }
}
