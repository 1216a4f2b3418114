// The session's automatic wide-colour choice, as a pure function (SPEC W3; session 501: "wide
// color, in iOS 10, is only for photography").
//
// The rule, when automaticallyConfiguresCaptureDeviceForWideColor is on:
//
// | photo output | other outputs present                  | preset      | colour space      |
// | ------------ | -------------------------------------- | ----------- | ----------------- |
// | no           | any                                    | any         | sRGB              |
// | yes          | none, or only preview sinks            | any         | P3                |
// | yes          | a MovieFileOutput (with anything else) | any         | sRGB              |
// | yes          | a VideoDataOutput, no MovieFileOutput  | photo       | P3                |
// | yes          | a VideoDataOutput, no MovieFileOutput  | not photo   | sRGB              |
//
// and P3 only when the camera's active format supports it (W2: 420f formats of a wide-colour
// camera); otherwise sRGB. The seed's reasons: without a photo output the app is not doing
// photography; a preview beside photos is still photography; a movie output makes the intent
// ambiguous and most video players are not colour-managed, so sRGB; buffers delivered to app
// code are assumed to be for video unless the photo preset says otherwise.

/// W3 as a pure function: which colour space the session gives the camera.
///
/// ```swift
/// let space = WideColorPolicy.resolve(.init(hasPhotoOutput: true, hasPreviewSink: true,
///                                           preset: .photo, formatSupportsWideColor: true))
/// // .p3D65
/// ```
public enum WideColorPolicy {
    /// What the rule looks at.
    ///
    /// ```swift
    /// let s = WideColorPolicy.Situation(hasPhotoOutput: true, hasMovieFileOutput: true,
    ///                                   preset: .photo, formatSupportsWideColor: true)
    /// WideColorPolicy.resolve(s)   // .sRGB
    /// ```
    public struct Situation: Sendable, Hashable {
        public var hasPhotoOutput: Bool
        public var hasPreviewSink: Bool
        public var hasMovieFileOutput: Bool
        public var hasVideoDataOutput: Bool
        public var preset: CaptureSession.Preset
        /// Whether the camera's active format lists Display P3 (W2).
        public var formatSupportsWideColor: Bool

        public init(
            hasPhotoOutput: Bool = false, hasPreviewSink: Bool = false, hasMovieFileOutput: Bool = false,
            hasVideoDataOutput: Bool = false, preset: CaptureSession.Preset, formatSupportsWideColor: Bool
        ) {
            self.hasPhotoOutput = hasPhotoOutput
            self.hasPreviewSink = hasPreviewSink
            self.hasMovieFileOutput = hasMovieFileOutput
            self.hasVideoDataOutput = hasVideoDataOutput
            self.preset = preset
            self.formatSupportsWideColor = formatSupportsWideColor
        }
    }

    /// The colour space W3 chooses (see the table in this file's header).
    public static func resolve(_ situation: Situation) -> CaptureColorSpace {
        guard situation.formatSupportsWideColor, situation.hasPhotoOutput else { return .sRGB }
        if situation.hasMovieFileOutput { return .sRGB }
        if situation.hasVideoDataOutput && situation.preset != .photo { return .sRGB }
        return .p3D65
    }

    /// The colour space a session's configuration gives its camera, streaming `format` in
    /// `current`: W3's choice with the automatic switch on; otherwise the app's (W4), or sRGB
    /// when `format` lacks it. The one place a commit and startRunning() decide it.
    static func colorSpace(for config: SessionConfiguration, format: CaptureDeviceFormat, current: CaptureColorSpace) -> CaptureColorSpace {
        if config.automaticallyConfiguresWideColor {
            return resolve(situation(outputs: config.outputs, preset: config.preset, format: format))
        }
        return format.supportedColorSpaces.contains(current) ? current : .sRGB
    }

    /// The situation of a set of outputs, a preset and a format.
    private static func situation(outputs: [CaptureOutput], preset: CaptureSession.Preset, format: CaptureDeviceFormat?) -> Situation {
        Situation(
            hasPhotoOutput: outputs.contains { $0.role == .photo },
            hasPreviewSink: outputs.contains { $0.role == .preview },
            hasMovieFileOutput: outputs.contains { $0.role == .movieFile },
            hasVideoDataOutput: outputs.contains { $0.role == .videoData },
            preset: preset, formatSupportsWideColor: format?.isWideColorSupported ?? false)
    }
}
