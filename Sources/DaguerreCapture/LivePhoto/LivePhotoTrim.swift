// Auto-trimming (SPEC L9): large purposeful motion at either end of a Live Photo movie (the
// phone lifted into place, dropped into a pocket, swung away in a fast pan) is cut off. Hand
// shake is small and fast; purposeful motion is large and sustained, or the light goes (a
// pocket). The still's own frame is always kept.

/// Finds where purposeful motion begins and ends in a run of buffered frames.
///
/// ```swift
/// let trim = LivePhotoTrim()
/// let first = trim.start(frames, still: stillIndex)       // the first frame to keep
/// let end = trim.end(frames, still: stillIndex)           // the first frame to cut, or nil
/// ```
struct LivePhotoTrim: Sendable {
    /// Faster than this, in frame widths a second, for two frames in a row, is purposeful.
    static let purposefulSpeed = 0.4
    /// Motion settles below this speed (the trim walks back to where it rose above it).
    static let settledSpeed = 0.12
    /// Darker than this share of the still's frame is a lens going into a pocket.
    static let darkShare = 0.6

    /// How fast the picture moved into `frame`, in frame widths a second.
    func speed(_ frame: BufferedFrame) -> Double {
        let m = frame.motion
        return (m.x * m.x + m.y * m.y).squareRoot() / max(frame.interval, 1e-3) / Double(max(1, frame.pixels.width))
    }

    private func purposeful(_ frames: [BufferedFrame], _ i: Int, reference: Double) -> Bool {
        guard frames.indices.contains(i) else { return false }
        if frames[i].meanLevel < Self.darkShare * reference { return true }
        let fast = { (k: Int) in frames.indices.contains(k) && self.speed(frames[k]) > Self.purposefulSpeed }
        return fast(i) && (fast(i - 1) || fast(i + 1))
    }

    /// The first frame to keep before the still at index `still`: after the last purposeful
    /// motion, once it has settled.
    func start(_ frames: [BufferedFrame], still: Int) -> Int {
        guard frames.indices.contains(still) else { return 0 }
        let reference = frames[still].meanLevel
        var k = still - 1
        while k >= 0, !purposeful(frames, k, reference: reference) { k -= 1 }
        guard k >= 0 else { return 0 }
        var first = k + 1
        while first < still, speed(frames[first]) > Self.settledSpeed { first += 1 }
        return first
    }

    /// The first frame to cut after the still at index `still`, or nil when the frames so far
    /// show no purposeful motion: where the motion that became purposeful began.
    func end(_ frames: [BufferedFrame], still: Int) -> Int? {
        guard frames.indices.contains(still) else { return nil }
        let reference = frames[still].meanLevel
        guard let hit = (still + 1..<frames.count).first(where: { purposeful(frames, $0, reference: reference) }) else { return nil }
        var onset = hit
        while onset - 1 > still, speed(frames[onset - 1]) > Self.settledSpeed || frames[onset - 1].meanLevel < 0.9 * reference {
            onset -= 1
        }
        return onset
    }
}
