import DaguerreCapture
import DaguerreCore
import Testing

/// The commit-time rules (ConfigurationRules.swift), each checked, and each failure shown to
/// change nothing.
@Suite("Session configuration: atomic commits and their validation (C1, C3, L5)")
struct SessionConfigurationTests {
    /// Everything observable about a session and its camera, to compare before and after.
    struct Snapshot: Equatable {
        let inputs: [ObjectIdentifier]
        let outputs: [ObjectIdentifier]
        let connections: [ObjectIdentifier]
        let preset: CaptureSession.Preset
        let format: CaptureDeviceFormat
        let colorSpace: CaptureColorSpace

        init(_ session: CaptureSession, _ camera: any CaptureDevice) {
            inputs = session.inputs.map(ObjectIdentifier.init)
            outputs = session.outputs.map(ObjectIdentifier.init)
            connections = session.connections.map(ObjectIdentifier.init)
            preset = session.sessionPreset
            format = camera.activeFormat
            colorSpace = camera.activeColorSpace
        }
    }

    /// A session with one camera, a photo output and a preview at the photo preset.
    private func photoSession() throws -> (CaptureSession, FakeCamera, PhotoOutput) {
        let session = CaptureSession(clock: VirtualClock())
        let camera = try FakeCamera.small()
        let photo = PhotoOutput()
        session.beginConfiguration()
        try session.setSessionPreset(.photo)
        try session.addInput(input(camera))
        try session.addOutput(photo)
        try session.addOutput(PreviewSink())
        try session.commitConfiguration()
        return (session, camera, photo)
    }

    /// Runs `change` in a transaction, expects the commit to fail with a message containing
    /// `expected`, and expects nothing to have changed.
    private func expectFailedCommit(
        _ session: CaptureSession, _ camera: any CaptureDevice, mentioning expected: String,
        _ change: () throws -> Void
    ) throws {
        let before = Snapshot(session, camera)
        session.beginConfiguration()
        try change()
        do throws(DaguerreError) {
            try session.commitConfiguration()
            Issue.record("the commit should have failed (\(expected))")
        } catch {
            guard case .captureConfiguration = error else {
                Issue.record("wrong case: \(error)")
                return
            }
            #expect(problem(error).contains(expected), "\(error)")
        }
        #expect(Snapshot(session, camera) == before, "a failed commit changes nothing")
    }

    @Test("Connections are made on commit, one per output and compatible input, and survive later commits")
    func connections() throws {
        let session = CaptureSession(clock: VirtualClock())
        let camera = try FakeCamera.small()
        let mic = try FakeMicrophone()
        let movie = MovieFileOutput()
        let videoData = VideoDataOutput()
        try session.addInput(input(camera))
        try session.addOutput(videoData)
        let first = try #require(videoData.connection(with: .video))
        first.videoOrientation = .portrait
        try session.addInput(input(mic))
        try session.addOutput(movie)
        #expect(session.connections.count == 3, "video data: camera; movie: camera and microphone")
        #expect(movie.connections.map(\.mediaType).sorted { $0.rawValue > $1.rawValue } == [.video, .audio])
        #expect(videoData.connection(with: .audio) == nil)
        #expect(videoData.connection(with: .video) === first, "the same connection object, settings kept")
        #expect(first.videoOrientation == .portrait && first.isEnabled)
        try session.removeOutput(videoData)
        #expect(videoData.connections.isEmpty && session.connections.count == 2)
    }

    @Test("Two cameras: refused at commit, and nothing changes")
    func twoCameras() throws {
        let (session, camera, _) = try photoSession()
        let other = try FakeCamera.small(name: "Fake Front Camera", position: .front)
        try expectFailedCommit(session, camera, mentioning: "2 camera inputs") {
            try session.addInput(input(other))
        }
        #expect(!session.canAddInput(try input(other)), "outside a transaction canAddInput sees the rule")
        #expect(throws: DaguerreError.self) { try session.addInput(try input(other)) }
    }

    @Test("Switching cameras inside one transaction (add the new, remove the old) commits")
    func switchCameras() throws {
        let (session, back, _) = try photoSession()
        let front = try FakeCamera(formats: PresetTests.frontFormats(), name: "Front", position: .front)
        let frontInput = try input(front)
        session.beginConfiguration()
        #expect(session.canAddInput(frontInput), "inside a transaction only the input itself is checked")
        try session.addInput(frontInput)
        try session.removeInput(try #require(session.inputs.first))
        #expect(session.inputs.first?.device === back, "staged, not applied")
        try session.commitConfiguration()
        #expect(session.inputs.map { $0.device.localizedName } == ["Front"])
        #expect(front.activeFormat.dimensions == CaptureDimensions(width: 1280, height: 960), "photo preset on the new camera")
    }

    @Test("Two microphones: refused at commit")
    func twoMicrophones() throws {
        let (session, camera, _) = try photoSession()
        try expectFailedCommit(session, camera, mentioning: "2 microphone inputs") {
            try session.addInput(input(FakeMicrophone(name: "Mic A")))
            try session.addInput(input(FakeMicrophone(name: "Mic B")))
        }
    }

    @Test("An output with no connectable input: refused at commit")
    func unconnectableOutput() throws {
        let session = CaptureSession(clock: VirtualClock())
        let mic = try FakeMicrophone()
        let camera = try FakeCamera.small()
        session.beginConfiguration()
        try session.addInput(input(mic))
        try session.addOutput(VideoDataOutput())
        do throws(DaguerreError) {
            try session.commitConfiguration()
            Issue.record("a video output with only a microphone must not commit")
        } catch {
            #expect(problem(error).contains("VideoDataOutput takes video"))
        }
        #expect(session.inputs.isEmpty && session.outputs.isEmpty)
        // A movie output with only a microphone is refused too.
        session.beginConfiguration()
        try session.addInput(input(mic))
        try session.addOutput(MovieFileOutput())
        #expect(throws: DaguerreError.self) { try session.commitConfiguration() }
        #expect(session.inputs.isEmpty)
        _ = camera
    }

    @Test("Outputs before inputs are allowed, but startRunning refuses an output without a connection")
    func outputsBeforeInputs() throws {
        let session = CaptureSession(clock: VirtualClock())
        try session.addOutput(VideoDataOutput())
        #expect(session.outputs.count == 1 && session.connections.isEmpty)
        do throws(DaguerreError) {
            try session.startRunning()
            Issue.record("must not run")
        } catch {
            #expect(problem(error).contains("has no connection"))
        }
        #expect(!session.isRunning)
    }

    @Test("A preset the camera lacks: refused at commit, with the rest of the transaction")
    func unsupportedPreset() throws {
        let (session, camera, _) = try photoSession()
        try expectFailedCommit(session, camera, mentioning: "no 1280×720 format") {
            try session.addOutput(VideoDataOutput())
            try session.setSessionPreset(.hd1280x720)
        }
        #expect(session.outputs.count == 2, "the staged VideoDataOutput was dropped with the commit")
    }

    @Test(
        "L5: a Live Photo–enabled photo output and a MovieFileOutput cannot share a session; the option is restored after the failed commit"
    )
    func livePhotoAndMovie() throws {
        let (session, camera, photo) = try photoSession()
        try expectFailedCommit(session, camera, mentioning: "SPEC L5") {
            try photo.setLivePhotoCaptureEnabled(true)
            try session.addOutput(MovieFileOutput())
        }
        #expect(!photo.isLivePhotoCaptureEnabled, "set inside the failed transaction, so restored")

        // Outside a transaction: enabling Live Photo with a movie output present throws at once.
        let movie = MovieFileOutput()
        try session.addOutput(movie)
        #expect(throws: DaguerreError.self) { try photo.setLivePhotoCaptureEnabled(true) }
        #expect(!photo.isLivePhotoCaptureEnabled)
        try session.removeOutput(movie)
        try photo.setLivePhotoCaptureEnabled(true)
        #expect(photo.isLivePhotoCaptureEnabled)
        #expect(throws: DaguerreError.self, "and now a movie output cannot be added") { try session.addOutput(MovieFileOutput()) }
    }

    @Test("L5: Live Photo capture needs the photo preset")
    func livePhotoNeedsPhotoPreset() throws {
        let (session, camera, photo) = try photoSession()
        try photo.setLivePhotoCaptureEnabled(true)
        try expectFailedCommit(session, camera, mentioning: "need the photo preset") {
            try session.setSessionPreset(.high)
        }
    }

    @Test("C3, L5: options staged for an output the same transaction removes leave with it, unapplied (the rules never checked them)")
    func stagedOptionsOfRemovedOutput() throws {
        let (session, _, photo) = try photoSession()
        session.beginConfiguration()
        try photo.setLivePhotoCaptureEnabled(true)
        try session.setSessionPreset(.high)  // Live Photo capture would need the photo preset
        try session.removeOutput(photo)
        try session.commitConfiguration()
        #expect(!session.outputs.contains { $0 === photo })
        #expect(!photo.isLivePhotoCaptureEnabled, "the staged option was dropped with the output")
    }

    @Test("An input or output belongs to one session")
    func oneSessionEach() throws {
        let (session, camera, photo) = try photoSession()
        let other = CaptureSession(clock: VirtualClock())
        let cameraInput = try #require(session.inputs.first)
        #expect(!other.canAddInput(cameraInput))
        #expect(throws: DaguerreError.self) { try other.addInput(cameraInput) }
        #expect(throws: DaguerreError.self) { try other.addOutput(photo) }
        #expect(throws: DaguerreError.self, "twice in the same session") { try session.addOutput(photo) }
        try session.removeOutput(photo)
        try other.addInput(try input(camera))
        try other.addOutput(photo)
        #expect(photo.connections.first?.inputPort.input.device === camera)
    }

    @Test("Transactions nest (the outermost commit applies); a commit without begin throws")
    func nesting() throws {
        let session = CaptureSession(clock: VirtualClock())
        let camera = try FakeCamera.small()
        #expect(throws: DaguerreError.self) { try session.commitConfiguration() }
        session.beginConfiguration()
        session.beginConfiguration()
        try session.addInput(input(camera))
        try session.commitConfiguration()
        #expect(session.inputs.isEmpty, "the inner commit applies nothing")
        try session.addOutput(VideoDataOutput())
        try session.commitConfiguration()
        #expect(session.inputs.count == 1 && session.outputs.count == 1 && session.connections.count == 1)
    }
}
