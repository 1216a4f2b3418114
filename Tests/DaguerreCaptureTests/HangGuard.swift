import Testing

extension Trait where Self == TimeLimitTrait {
    /// The capture suites' guard against a hang (a clock that never fires, a session that never
    /// stops), not a speed check: speed lives in the benchmarks. Swift Testing counts a test's
    /// time from when it is started, including time spent waiting for a thread of the
    /// cooperative pool. On a 2-core machine that pool has two threads, and the long quality
    /// protocols (Kodak24, the N protocol) hold them for minutes. A 2-minute limit then failed
    /// the clock tests of a fresh-clone run on a loaded host, although each takes milliseconds.
    static var hangGuard: Self { .timeLimit(.minutes(15)) }
}
