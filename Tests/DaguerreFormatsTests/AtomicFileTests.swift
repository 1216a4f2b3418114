import DaguerreCore
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreFormats

#if canImport(Glibc)
    import Glibc
#endif

/// Files that appear only when complete: unnamed (O_TMPFILE) until committed, replaced
/// atomically or not at all, the named fallback's stale temporaries cleared, groups committed
/// together. (Kills and signals are tested on the command line, in child processes.)
@Suite("Atomic files")
struct AtomicFileTests {
    static func write(_ file: AtomicFile, _ text: String) throws {
        let f = try file.stream()
        #expect(fputs(text, f) >= 0)
    }

    static func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test("An unnamed file: nothing in the directory until it is committed; then the whole file")
    func unnamedUntilCommitted() throws {
        let dir = try TemporaryDirectory()
        let file = try AtomicFile(destination: dir.path("a.txt"))
        #expect(file.temporaryPath == nil, "ext4 and tmpfs take O_TMPFILE")
        try Self.write(file, String(repeating: "x", count: 10_000))
        #expect(dir.contents().isEmpty)
        try file.finish()
        #expect(dir.contents() == ["a.txt"])
        #expect(Self.contents(dir.path("a.txt"))?.count == 10_000)
        let mode = try FileManager.default.attributesOfItem(atPath: dir.path("a.txt"))[.posixPermissions] as? Int
        #expect(mode == 0o644)
    }

    @Test("Replacing: an existing file is replaced whole; with replacesExisting false the commit fails and keeps it")
    func replacing() throws {
        for anonymous in [true, false] {
            let dir = try TemporaryDirectory()
            let path = dir.path("a.txt")
            try AtomicFile.write(Array("old".utf8), to: path)
            let file = try AtomicFile(destination: path, replacesExisting: true, anonymous: anonymous)
            try Self.write(file, "new")
            try file.finish()
            #expect(Self.contents(path) == "new")
            let refused = try AtomicFile(destination: path, replacesExisting: false, anonymous: anonymous)
            try Self.write(refused, "newer")
            #expect(throws: DaguerreError.self) { try refused.finish() }
            #expect(Self.contents(path) == "new")
            #expect(dir.contents() == ["a.txt"], "no temporary left (anonymous: \(anonymous))")
        }
    }

    @Test("The named fallback: a hidden locked temporary while writing, renamed at commit, removed on abort")
    func namedFallback() throws {
        let dir = try TemporaryDirectory()
        let file = try AtomicFile(destination: dir.path("b.txt"), replacesExisting: true, anonymous: false)
        let temporary = try #require(file.temporaryPath)
        #expect(StaleTemporaries.isTemporaryName((temporary as NSString).lastPathComponent))
        // Locked by its writer: another open file description cannot take the lock.
        let probe = open(temporary, O_RDONLY)
        defer { close(probe) }
        #expect(flock(probe, LOCK_EX | LOCK_NB) != 0)
        try Self.write(file, "b")
        try file.finish()
        #expect(dir.contents() == ["b.txt"])
        let aborted = try AtomicFile(destination: dir.path("c.txt"), replacesExisting: true, anonymous: false)
        aborted.abort()
        #expect(dir.contents() == ["b.txt"])
    }

    @Test("Stale temporaries of ours (old, unlocked) are removed before a directory is first written; others stay")
    func staleTemporaries() throws {
        let dir = try TemporaryDirectory()
        let stale = dir.path(".x.jpg.daguerre-Ab12Cd")
        let locked = dir.path(".y.jpg.daguerre-Ef34Gh")
        let fresh = dir.path(".z.jpg.daguerre-Ij56Kl")
        let foreign = dir.path(".w.jpg.other-Mn78Op")
        for p in [stale, locked, fresh, foreign] { #expect(FileManager.default.createFile(atPath: p, contents: Data([1]))) }
        // An hour old, except the fresh one.
        var old = [timeval(tv_sec: time(nil) - 3600, tv_usec: 0), timeval(tv_sec: time(nil) - 3600, tv_usec: 0)]
        for p in [stale, locked, foreign] { #expect(utimes(p, &old) == 0) }
        let holder = open(locked, O_RDONLY)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        StaleTemporaries.remove(in: dir.url.path, olderThan: timespec(tv_sec: time(nil) - 60, tv_nsec: 0))
        let left = Set(dir.contents())
        #expect(!left.contains(".x.jpg.daguerre-Ab12Cd"))
        #expect(left.isSuperset(of: [".y.jpg.daguerre-Ef34Gh", ".z.jpg.daguerre-Ij56Kl", ".w.jpg.other-Mn78Op"]))
        #expect(!StaleTemporaries.isTemporaryName(".daguerre-abcdef"))
        #expect(!StaleTemporaries.isTemporaryName(".a.daguerre-abc"))
    }

    @Test("A group: its files finish unseen and appear together at commit; abandoned, none appears")
    func groups() throws {
        let dir = try TemporaryDirectory()
        let (still, movie) = (dir.path("IMG.JPG"), dir.path("IMG.MOV"))
        let group = try AtomicFileGroup(destinations: [still, movie])
        #expect(throws: DaguerreError.self) { _ = try AtomicFileGroup(destinations: [movie]) }
        try AtomicFile.write(Array("still".utf8), to: still)
        #expect(throws: DaguerreError.self) { try group.commit() }  // the movie is not finished
        #expect(dir.contents().isEmpty)

        let again = try AtomicFileGroup(destinations: [still, movie])
        try AtomicFile.write(Array("still".utf8), to: still)
        #expect(dir.contents().isEmpty)
        try AtomicFile.write(Array("movie".utf8), to: movie)
        #expect(dir.contents().isEmpty)
        try again.commit()
        #expect(Set(dir.contents()) == ["IMG.JPG", "IMG.MOV"])

        let abandoned = try AtomicFileGroup(destinations: [dir.path("B.JPG"), dir.path("B.MOV")])
        try AtomicFile.write(Array("still".utf8), to: dir.path("B.JPG"))
        abandoned.abandon()
        #expect(Set(dir.contents()) == ["IMG.JPG", "IMG.MOV"])
        // Released, the destinations are free for the next group.
        _ = try AtomicFileGroup(destinations: [dir.path("B.JPG")])
    }

    @Test("A missing or unwritable directory is refused when the file is created, naming it")
    func refusals() throws {
        #expect(throws: DaguerreError.self) { _ = try AtomicFile(destination: "/nonexistent-daguerre-dir/a.jpg") }
        do {
            _ = try AtomicFile(destination: "/proc/a.jpg")
            Issue.record("/proc took a file")
        } catch {
            #expect(error.description.contains("/proc"))
        }
    }
}
