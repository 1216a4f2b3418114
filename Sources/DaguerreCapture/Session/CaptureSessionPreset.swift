// Session presets and the rule that turns a preset into one of the camera's formats (SPEC C3:
// "session presets, including photo"; C5 for the photo preset's choice of still size).
//
// The table (formats considered: the camera's non-Bayer video formats; "best of a size" means,
// among formats of that size, 420f before 420v before BGRA, then the higher frame rate, then
// the order the device lists them):
//
// | preset        | format chosen                                                                 |
// | ------------- | ----------------------------------------------------------------------------- |
// | photo         | largest still size (high-resolution still size if any, else streaming size);  |
// |               | ties: isHighestPhotoQualitySupported, then 420f > 420v > BGRA, then larger    |
// |               | streaming size, then frame rate                                                |
// | high          | best 1920×1080; else the largest format within 1920×1080; else the smallest   |
// | medium        | best 480×360; else the smallest format at least 640 wide; else the largest    |
// | low           | best 192×144; else the smallest format                                        |
// | hd1920x1080   | best 1920×1080; no fallback: unsupported without one                           |
// | hd1280x720    | best 1280×720; no fallback: unsupported without one                            |
// | inputPriority | none: the camera keeps the active format the app set                          |
//
// Why 420f first: only full-range formats can carry Display P3 (W2), so preferring them lets the
// wide-colour rule (W3) choose P3 whenever it applies; MovieFileOutput converts to video range
// when it records. Why the named sizes never fall back: an app that asks for exactly 1280×720
// would be surprised by another size; `high`, `medium` and `low` are the adaptable ones. A
// camera with only Bayer formats supports no preset but inputPriority.
import DaguerreCore

extension CaptureSession {
    /// A session's quality level (AVCaptureSession.Preset), which picks the camera's format
    /// (see the table in this file's header, and ``selectFormat(from:deviceName:)``).
    ///
    /// ```swift
    /// if session.canSetSessionPreset(.photo) { try session.setSessionPreset(.photo) }
    /// let format = try CaptureSession.Preset.high.selectFormat(from: camera.formats)
    /// ```
    public enum Preset: String, Sendable, Hashable, CaseIterable {
        /// Full-resolution stills: the format with the largest still size (C3, C5).
        case photo
        /// The best video quality up to 1080p.
        case high
        /// Sharing over Wi-Fi: 480×360, or the smallest format at least 640 wide.
        case medium
        /// Sharing over cellular: 192×144, or the smallest format.
        case low
        case hd1920x1080
        case hd1280x720
        /// The session leaves the camera's active format to the app (AVCaptureSessionPresetInputPriority).
        case inputPriority

        /// The format this preset chooses among `formats` (nil for ``inputPriority``). Throws
        /// `.captureConfiguration` when the preset needs a size the formats lack, or when there
        /// is no video format a preset can use.
        public func selectFormat(from formats: [CaptureDeviceFormat], deviceName: String = "The camera") throws(DaguerreError)
            -> CaptureDeviceFormat?
        {
            if self == .inputPriority { return nil }
            let candidates = formats.enumerated().filter { _, f in
                f.mediaType == .video && f.pixelFormat.map { !$0.isBayer } == true
            }.map { Candidate(index: $0.offset, format: $0.element) }
            guard !candidates.isEmpty else {
                throw .captureConfiguration(
                    problem: "\(deviceName) has no 420v, 420f or BGRA video format, so the \(rawValue) preset cannot choose one",
                    fix: "Use the inputPriority preset and set the device's activeFormat yourself.")
            }
            switch self {
            case .photo:
                return candidates.min { a, b in
                    let sa = a.format.maxStillDimensions.pixelCount
                    let sb = b.format.maxStillDimensions.pixelCount
                    if sa != sb { return sa > sb }
                    if a.format.isHighestPhotoQualitySupported != b.format.isHighestPhotoQualitySupported {
                        return a.format.isHighestPhotoQualitySupported
                    }
                    if a.rank != b.rank { return a.rank < b.rank }
                    if a.format.dimensions.pixelCount != b.format.dimensions.pixelCount {
                        return a.format.dimensions.pixelCount > b.format.dimensions.pixelCount
                    }
                    return Candidate.preferred(a, b)
                }?.format
            case .high:
                if let hd = Self.best(of: 1920, 1080, in: candidates) { return hd }
                let fitting = candidates.filter { $0.format.dimensions.width <= 1920 && $0.format.dimensions.height <= 1080 }
                return fitting.isEmpty ? Self.smallest(candidates) : Self.largest(fitting)
            case .medium:
                if let exact = Self.best(of: 480, 360, in: candidates) { return exact }
                let wide = candidates.filter { $0.format.dimensions.width >= 640 }
                return wide.isEmpty ? Self.largest(candidates) : Self.smallest(wide)
            case .low:
                return Self.best(of: 192, 144, in: candidates) ?? Self.smallest(candidates)
            case .hd1920x1080, .hd1280x720:
                let (w, h) = self == .hd1920x1080 ? (1920, 1080) : (1280, 720)
                guard let exact = Self.best(of: w, h, in: candidates) else {
                    throw .captureConfiguration(
                        problem:
                            "\(deviceName) has no \(w)×\(h) format, which the \(rawValue) preset requires (its sizes: \(Self.sizes(candidates)))",
                        fix: "Use the high or medium preset, which fall back to the nearest size, or check canSetSessionPreset(_:) first.")
                }
                return exact
            case .inputPriority:
                return nil
            }
        }

        /// The preset's choice for a device's formats (nil for ``inputPriority``).
        public func selectFormat(for device: any CaptureDevice) throws(DaguerreError) -> CaptureDeviceFormat? {
            try selectFormat(from: device.formats, deviceName: device.localizedName)
        }

        private struct Candidate {
            let index: Int
            let format: CaptureDeviceFormat
            /// 420f before 420v before BGRA.
            var rank: Int {
                switch format.pixelFormat {
                case .yuv420FullRange?: return 0
                case .yuv420VideoRange?: return 1
                default: return 2
                }
            }
            /// The tie-break of formats otherwise equal: pixel format, frame rate, listing order.
            static func preferred(_ a: Candidate, _ b: Candidate) -> Bool {
                if a.rank != b.rank { return a.rank < b.rank }
                if a.format.frameRateRange.maxFrameRate != b.format.frameRateRange.maxFrameRate {
                    return a.format.frameRateRange.maxFrameRate > b.format.frameRateRange.maxFrameRate
                }
                return a.index < b.index
            }
        }

        private static func best(of width: Int, _ height: Int, in candidates: [Candidate]) -> CaptureDeviceFormat? {
            candidates.filter { $0.format.dimensions.width == width && $0.format.dimensions.height == height }
                .min(by: Candidate.preferred)?.format
        }

        private static func smallest(_ candidates: [Candidate]) -> CaptureDeviceFormat? {
            candidates.min { a, b in
                let pa = a.format.dimensions.pixelCount
                let pb = b.format.dimensions.pixelCount
                return pa != pb ? pa < pb : Candidate.preferred(a, b)
            }?.format
        }

        private static func largest(_ candidates: [Candidate]) -> CaptureDeviceFormat? {
            candidates.min { a, b in
                let pa = a.format.dimensions.pixelCount
                let pb = b.format.dimensions.pixelCount
                return pa != pb ? pa > pb : Candidate.preferred(a, b)
            }?.format
        }

        private static func sizes(_ candidates: [Candidate]) -> String {
            var seen: [String] = []
            for c in candidates where !seen.contains(c.format.dimensions.description) { seen.append(c.format.dimensions.description) }
            return seen.joined(separator: ", ")
        }
    }
}
