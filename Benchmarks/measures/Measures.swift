// What the capture benchmarks measure with: the monotonic clock, the process's CPU time and
// resident set, and the median of repetitions.
import Foundation

/// Seconds on the monotonic clock.
public func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

/// The middle value (the upper middle for an even count), or NaN for none.
public func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.isEmpty ? .nan : s[s.count / 2]
}

/// The process's resident set, MiB (VmRSS).
public func residentMiB() -> Double { statusMiB("VmRSS") }

/// The process's peak resident set so far, MiB (VmHWM).
public func peakMiB() -> Double { statusMiB("VmHWM") }

/// A line of /proc/self/status in MiB.
private func statusMiB(_ key: String) -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("\(key):") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}

/// The process's user and system CPU time so far, seconds.
public func cpu() -> Double {
    var u = rusage()
    getrusage(0, &u)
    return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6
}
