import CDaguerreCodecs
import DaguerreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The staging writer under every encoder (`dag_direct_file.h`) against a plain byte-array
/// model: appends across 4 MiB stage boundaries, patches of bytes already on disk, gaps past
/// the end, reads anywhere and flushes half way must all leave exactly the model's bytes, with
/// O_DIRECT and through the page cache.
@Suite("Direct output file")
struct DirectFileTests {
    @Test("Random writes, seeks, reads and flushes give the model's bytes", arguments: [true, false])
    func agreesWithModel(allowDirect: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("direct.bin")
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        let file = try #require(dag_direct_open(fd, allowDirect ? 1 : 0))
        defer { dag_direct_free(file) }
        if !allowDirect { #expect(dag_direct_is_direct(file) == 0) }

        var rng = SeededRandom(seed: allowDirect ? 7 : 8)
        var model: [UInt8] = []
        var position = 0
        func bytes(_ count: Int) -> [UInt8] {
            // Eight bytes per draw: the run writes over 100 MB, and the tests run unoptimized.
            var out = [UInt8](repeating: 0, count: count)
            out.withUnsafeMutableBytes { raw in
                var i = 0
                while i < count {
                    var word = rng.next()
                    for k in 0..<min(8, count - i) {
                        raw[i + k] = UInt8(truncatingIfNeeded: word)
                        word >>= 8
                    }
                    i += 8
                }
            }
            return out
        }
        func write(_ data: [UInt8]) {
            let n = data.withUnsafeBytes { dag_direct_write(file, $0.baseAddress, $0.count) }
            #expect(n == Int64(data.count))
            if position > model.count { model += [UInt8](repeating: 0, count: position - model.count) }
            let overlap = min(data.count, model.count - position)
            model.replaceSubrange(position..<(position + overlap), with: data[0..<overlap])
            model += data[overlap...]
            position += data.count
        }
        func seek(to offset: Int) {
            #expect(dag_direct_seek(file, Int64(offset), SEEK_SET) == Int64(offset))
            position = offset
        }
        func expectFileMatches() throws {
            #expect(dag_direct_flush(file) == 0)
            let disk = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(disk.count == model.count)
            let same =
                disk.count == model.count
                && disk.withUnsafeBytes { d in
                    model.withUnsafeBytes { m in m.count == 0 || memcmp(d.baseAddress!, m.baseAddress!, m.count) == 0 }
                }
            #expect(same, "the file differs from the model")
        }

        for step in 0..<240 {
            switch Int.random(in: 0..<20, using: &rng) {
            case 0..<9:  // append: small, block-sized or past a whole stage
                seek(to: model.count)
                let sizes = [
                    Int.random(in: 1...300, using: &rng), 4096, Int.random(in: 5000...70000, using: &rng),
                    Int.random(in: (9 << 19)...(9 << 20), using: &rng),
                ]
                write(bytes(sizes[step % 40 == 0 ? 3 : Int.random(in: 0...2, using: &rng)]))
            case 9..<13:  // patch earlier bytes, possibly running past the end
                seek(to: Int.random(in: 0...max(0, model.count - 1), using: &rng))
                write(bytes(Int.random(in: 1...20000, using: &rng)))
            case 13:  // a gap past the end, which reads back as zeros
                seek(to: model.count + Int.random(in: 1...10000, using: &rng))
                write(bytes(Int.random(in: 1...100, using: &rng)))
            case 14..<18:  // read anywhere, including past the end
                let at = Int.random(in: 0...(model.count + 100), using: &rng)
                let count = Int.random(in: 1...30000, using: &rng)
                seek(to: at)
                var got = [UInt8](repeating: 0, count: count)
                let n = got.withUnsafeMutableBytes { dag_direct_read(file, $0.baseAddress, count) }
                let expected = at >= model.count ? [] : Array(model[at..<min(model.count, at + count)])
                #expect(n == Int64(expected.count))
                let readMatches = Array(got.prefix(Int(max(0, n)))) == expected
                #expect(readMatches, "read of \(count) at \(at)")
                position = at + expected.count
            case 18:  // relative and end-relative seeks
                #expect(dag_direct_seek(file, 0, SEEK_END) == Int64(model.count))
                #expect(dag_direct_seek(file, -Int64(min(model.count, 10)), SEEK_CUR) == Int64(model.count - min(model.count, 10)))
                position = model.count - min(model.count, 10)
            default:  // flush half way: the file holds the model, and writing goes on
                try expectFileMatches()
            }
        }
        try expectFileMatches()
        #expect(model.count > 8 << 20, "the run crossed several stages")
        #expect(dag_direct_size(file) == UInt64(model.count))
    }

    @Test("A seek before the start is refused and changes nothing")
    func badSeek() throws {
        let dir = try TemporaryDirectory()
        let fd = open(dir.path("seek.bin"), O_RDWR | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        let file = try #require(dag_direct_open(fd, 1))
        defer { dag_direct_free(file) }
        #expect(dag_direct_write(file, "abc", 3) == 3)
        #expect(dag_direct_seek(file, -4, SEEK_CUR) == -1)
        #expect(errno == EINVAL)
        #expect(dag_direct_seek(file, Int64.max, SEEK_END) == -1)
        #expect(dag_direct_seek(file, 0, SEEK_CUR) == 3)
        #expect(dag_direct_seek(file, 0, 99) == -1)
    }

    @Test("A failed write is reported, and every later call reports it too")
    func stickyError() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("readonly.bin")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let fd = open(path, O_RDONLY)  // writing to it fails with EBADF
        try #require(fd >= 0)
        defer { close(fd) }
        let file = try #require(dag_direct_open(fd, 1))
        defer { dag_direct_free(file) }
        #expect(dag_direct_write(file, "staged", 6) == 6, "bytes are staged before any system call")
        #expect(dag_direct_flush(file) == -1)
        #expect(errno == EBADF)
        #expect(dag_direct_write(file, "more", 4) == -1)
        #expect(errno == EBADF)
        #expect(dag_direct_flush(file) == -1)
    }

    @Test("A background write that fails is reported by the next call that waits for it")
    func backgroundError() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("readonly-big.bin")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let file = try #require(dag_direct_open(fd, 1))
        defer { dag_direct_free(file) }
        let stage = [UInt8](repeating: 7, count: 4 << 20)
        // The first full stage goes to the writer thread, which fails; filling the second one
        // waits for it and reports its error.
        #expect(stage.withUnsafeBytes { dag_direct_write(file, $0.baseAddress, $0.count) } == Int64(stage.count))
        #expect(stage.withUnsafeBytes { dag_direct_write(file, $0.baseAddress, $0.count) } == Int64(stage.count))
        #expect(dag_direct_write(file, "x", 1) == -1)
        #expect(errno == EBADF)
        #expect(dag_direct_flush(file) == -1)
    }
}
