// SIGINT and SIGTERM for every command (develop, apply, capture, record, demo...): the file in
// progress is abandoned (AtomicFile removes its temporary; a Live Photo's halves go together),
// the files finished stay, a line on stderr says how many were written, and the process exits
// with 128 + the signal (130 for Ctrl-C, 143 for SIGTERM). A second signal exits at once.
//
// The signal handler itself only counts and wakes a thread through a pipe (both safe in a
// handler); the thread does the work and exits.
import Daguerre
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Installs the command line's handling of SIGINT and SIGTERM.
///
/// ```swift
/// Interruption.install()   // first thing in main
/// ```
enum Interruption {
    /// Signals received; read and written in the handler (lock-free).
    private static let received = Atomic<Int>(0)
    /// The pipe's write end, for the handler (set once before the handlers are installed).
    private static let wake = Atomic<Int32>(-1)

    static func install() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        wake.store(ends[1], ordering: .sequentiallyConsistent)
        let readEnd = ends[0]
        let thread = Thread {
            var signal: UInt8 = 0
            while read(readEnd, &signal, 1) != 1 {}
            finish(Int32(signal))
        }
        thread.name = "daguerre.interruption"
        thread.start()
        for sig in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { sig in
                if Interruption.received.add(1, ordering: .relaxed).newValue > 1 { _exit(128 + sig) }
                var byte = UInt8(truncatingIfNeeded: sig)
                _ = write(Interruption.wake.load(ordering: .relaxed), &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, nil)
        }
    }

    /// Abandons the files in progress, says what was written, and exits.
    private static func finish(_ sig: Int32) -> Never {
        let written = AtomicFile.interruptAll()
        let name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "signal \(sig)"
        fflush(nil)  // what the command printed so far (stdout is buffered when not a terminal)
        let line = "daguerre: interrupted by \(name): \(written) file\(written == 1 ? "" : "s") written, the one in progress abandoned\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
        _exit(128 + sig)
    }
}
