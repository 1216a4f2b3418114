// The checks a session configuration must pass before it is committed (SPEC C1, C3 atomic
// commits; L5 for Live Photo beside movies). A failed check throws and the commit changes
// nothing.
import DaguerreCore

/// The commit-time rules, in the order they are checked:
///
/// 1. Inputs and outputs belong to no other session.
/// 2. At most one camera input and one microphone input (iOS 10 streamed one camera at a time).
/// 3. When the session has inputs, every output can connect to one of them; a MovieFileOutput
///    needs a camera, and one that streams 420v, 420f or BGRA (not Bayer).
/// 4. The preset is supported by the camera (checked by the preset's format selection, before
///    these rules run).
/// 5. L5: a photo output with Live Photo capture enabled excludes a MovieFileOutput and needs
///    the photo preset.
/// 6. P14: the deprecated StillImageOutput cannot sit beside a PhotoOutput.
///
/// A session whose outputs wait for inputs (none added yet) is allowed; startRunning() refuses
/// to run an output that has no connection.
enum ConfigurationRules {
    static func validate(_ config: SessionConfiguration, cameraFormat: CaptureDeviceFormat?, session: CaptureSession) throws(DaguerreError)
    {
        for input in config.inputs { try checkOwner(of: input, session: session) }
        for output in config.outputs { try checkOwner(of: output, session: session) }
        for mediaType in CaptureMediaType.allCases {
            let devices = config.inputs.filter { $0.device.mediaType == mediaType }
            guard devices.count > 1 else { continue }
            let names = devices.map(\.device.localizedName).joined(separator: ", ")
            let kind = mediaType == .video ? "camera" : "microphone"
            throw .captureConfiguration(
                problem: "the configuration has \(devices.count) \(kind) inputs (\(names)), and a session takes one \(kind) at a time",
                fix:
                    "Remove one; to switch \(kind)s, remove the old input and add the new one between beginConfiguration() and commitConfiguration()."
            )
        }
        let types = config.mediaTypes
        if !types.isEmpty {
            for output in config.outputs where output.acceptedMediaTypes.isDisjoint(with: types) {
                throw .captureConfiguration(
                    problem:
                        "the \(output.displayName) takes \(Self.list(output.acceptedMediaTypes)) and the session's inputs give only \(Self.list(types)), so it would have no connection",
                    fix: "Add an input of a media type the output takes (a camera for video), or remove the output.")
            }
            for output in config.outputs where output.role == .movieFile {
                guard types.contains(.video) else {
                    throw .captureConfiguration(
                        problem: "the MovieFileOutput has only a microphone to record, and movies need video",
                        fix: "Add a camera input, or remove the MovieFileOutput.")
                }
                if let format = cameraFormat, format.pixelFormat?.isBayer ?? true {
                    throw .captureConfiguration(
                        problem: "the camera's format \(format) cannot be recorded by a MovieFileOutput",
                        fix: "Use a preset (which picks a 420f, 420v or BGRA format) or make such a format active.")
                }
            }
        }
        if config.outputs.contains(where: { $0.role == .stillImage }), config.outputs.contains(where: { $0.role == .photo }) {
            throw .captureConfiguration(
                problem: "the session has a PhotoOutput and the deprecated StillImageOutput, which cannot be used together (SPEC P14)",
                fix: "Remove the StillImageOutput: the PhotoOutput takes every photo it took.")
        }
        let hasMovieOutput = config.outputs.contains { $0.role == .movieFile }
        for case let photo as PhotoOutput in config.outputs where config.pipelineOptions(of: photo).isLivePhotoCaptureEnabled {
            if hasMovieOutput {
                throw .captureConfiguration(
                    problem:
                        "the PhotoOutput has Live Photo capture enabled and the session has a MovieFileOutput, which cannot be used together (SPEC L5)",
                    fix: "Remove the MovieFileOutput, or call setLivePhotoCaptureEnabled(false) on the PhotoOutput first.")
            }
            if config.preset != .photo {
                throw .captureConfiguration(
                    problem:
                        "the PhotoOutput has Live Photo capture enabled and the session preset is \(config.preset.rawValue); Live Photos need the photo preset (SPEC L5)",
                    fix: "Set the photo preset (in the same configuration), or turn Live Photo capture off.")
            }
        }
    }

    /// Rule 1 for one input. The session also checks it when the input is staged, so that
    /// `canAddInput` says no at once; the commit checks again, since another session may have
    /// taken the input in between.
    static func checkOwner(of input: CaptureDeviceInput, session: CaptureSession) throws(DaguerreError) {
        try checkOwner(
            input.session, of: "the input for \(input.device.localizedName)", session: session, replacement: "CaptureDeviceInput")
    }

    /// Rule 1 for one output (see the input's).
    static func checkOwner(of output: CaptureOutput, session: CaptureSession) throws(DaguerreError) {
        try checkOwner(output.session, of: "this \(output.displayName)", session: session, replacement: "output")
    }

    private static func checkOwner(_ owner: CaptureSession?, of what: String, session: CaptureSession, replacement: String)
        throws(DaguerreError)
    {
        guard let owner, owner !== session else { return }
        throw .captureConfiguration(
            problem: "\(what) already belongs to another session",
            fix: "Remove it from the other session first, or make a new \(replacement).")
    }

    private static func list(_ types: Set<CaptureMediaType>) -> String {
        CaptureMediaType.allCases.filter(types.contains).map(\.rawValue).joined(separator: " and ")
    }
}
