import DaguerreCapture
import DaguerreCore
import Testing

@Suite("Running sessions: events, C6 disruptive reconfiguration, runtime errors and interruptions", .hangGuard)
struct SessionRunningTests {
    private func running(_ configure: (CaptureSession, FakeCamera) throws -> Void = { _, _ in })
        throws -> (CaptureSession, FakeCamera, VirtualClock, VideoDataOutput, FrameLog, EventLog)
    {
        let clock = VirtualClock()
        let session = CaptureSession(clock: clock)
        let events = EventLog(session)
        let camera = try FakeCamera.small()
        let output = VideoDataOutput()
        output.alwaysDiscardsLateVideoFrames = false
        output.maximumQueuedFrameCount = 1000
        let frames = FrameLog(output)
        session.beginConfiguration()
        try session.setSessionPreset(.photo)
        try session.addInput(input(camera))
        try session.addOutput(output)
        try configure(session, camera)
        try session.commitConfiguration()
        try session.startRunning()
        return (session, camera, clock, output, frames, events)
    }

    @Test("start and stop: isRunning, didStartRunning / didStopRunning, frames only while running")
    func startStop() throws {
        let (session, camera, clock, _, frames, events) = try running()
        #expect(session.isRunning && camera.isStreaming)
        try session.startRunning()  // a second start does nothing
        clock.advance(by: 0.2)
        session.stopRunning()
        session.stopRunning()
        #expect(!session.isRunning && !camera.isStreaming)
        clock.advance(by: 1)
        #expect(frames.all.count == 7, "t = 0 … 0.2 at 30 fps, nothing after stopping")
        #expect(events.all == [.didStartRunning, .didStopRunning])
        #expect(camera.startCount == 1 && camera.stopCount == 1)
    }

    @Test("C6: enabling high-resolution capture while running rebuilds the pipeline (stream stopped, restarted) and says so")
    func highResolutionWhileRunning() throws {
        let photo = PhotoOutput()
        let (session, camera, clock, _, frames, events) = try running { session, _ in try session.addOutput(photo) }
        clock.advance(by: 0.1)
        #expect(frames.all.map(\.metadata.sequenceNumber) == [0, 1, 2, 3])
        try photo.setHighResolutionCaptureEnabled(true)
        #expect(photo.isHighResolutionCaptureEnabled)
        #expect(camera.startCount == 2 && camera.stopCount == 1, "torn down and rebuilt")
        clock.advance(by: 0.05)
        #expect(frames.all.map(\.metadata.sequenceNumber) == [0, 1, 2, 3, 0, 1], "the rebuilt stream starts over")
        // Setting the same value again is not a change.
        try photo.setHighResolutionCaptureEnabled(true)
        session.stopRunning()
        #expect(
            events.all == [
                .didStartRunning, .pipelineRebuilt(.photoOutputOptionChanged("isHighResolutionCaptureEnabled")), .didStopRunning,
            ])
    }

    @Test("C6: Live Photo opted in while running rebuilds too; opted in before startRunning it does not")
    func livePhotoWhileRunning() throws {
        let early = PhotoOutput()
        try early.setLivePhotoCaptureEnabled(true)  // not in a session yet: just set
        let (session, camera, _, _, _, events) = try running { session, _ in try session.addOutput(early) }
        #expect(camera.startCount == 1)
        try early.setLivePhotoCaptureEnabled(false)
        try early.setLivePhotoCaptureEnabled(true)
        session.stopRunning()
        #expect(
            events.all == [
                .didStartRunning,
                .pipelineRebuilt(.photoOutputOptionChanged("isLivePhotoCaptureEnabled")),
                .pipelineRebuilt(.photoOutputOptionChanged("isLivePhotoCaptureEnabled")),
                .didStopRunning,
            ])
        #expect(camera.startCount == 3)
    }

    @Test("C6: pipeline options changed inside a transaction while running rebuild once, at the commit")
    func optionsInTransaction() throws {
        let photo = PhotoOutput()
        let (session, camera, _, _, _, events) = try running { session, _ in try session.addOutput(photo) }
        session.beginConfiguration()
        try photo.setHighResolutionCaptureEnabled(true)
        try photo.setLivePhotoCaptureEnabled(true)
        #expect(camera.startCount == 1, "nothing happens before the commit")
        try session.commitConfiguration()
        #expect(camera.startCount == 2)
        session.stopRunning()
        #expect(
            events.all == [
                .didStartRunning, .pipelineRebuilt(.photoOutputOptionChanged("isHighResolutionCaptureEnabled")), .didStopRunning,
            ])
    }

    @Test(
        "C3, C6: options set inside an open transaction are staged: the outputs show the committed ones, a session started before the commit runs without them, and the commit applies them with a rebuild"
    )
    func stagedOptionsReachThePipelineAtTheCommit() throws {
        let clock = VirtualClock()
        let session = CaptureSession(clock: clock)
        let events = EventLog(session)
        let camera = try FakeCamera.small()
        let photo = PhotoOutput()
        try session.addInput(input(camera))
        try session.addOutput(photo)
        session.beginConfiguration()
        try photo.setHighResolutionCaptureEnabled(true)
        #expect(!photo.isHighResolutionCaptureEnabled, "staged until the commit")
        try session.startRunning()  // runs the committed configuration
        #expect(camera.startCount == 1)
        try session.commitConfiguration()
        #expect(photo.isHighResolutionCaptureEnabled)
        #expect(camera.startCount == 2, "the commit changed a pipeline option of a running session: rebuilt")
        session.stopRunning()
        #expect(
            events.all == [
                .didStartRunning, .pipelineRebuilt(.photoOutputOptionChanged("isHighResolutionCaptureEnabled")), .didStopRunning,
            ])
    }

    @Test("Changing the preset while running rebuilds with the new format")
    func presetWhileRunning() throws {
        let (session, camera, clock, _, frames, events) = try running()
        try session.setSessionPreset(.low)
        clock.advance(by: 0.01)
        let format = camera.activeFormat
        #expect(format.dimensions == CaptureDimensions(width: 160, height: 120))
        #expect(frames.all.last?.dimensions == CaptureDimensions(width: 160, height: 120))
        session.stopRunning()
        #expect(events.all == [.didStartRunning, .pipelineRebuilt(.activeFormatChanged(format)), .didStopRunning])
    }

    @Test("PhotoOutput.capturePhoto outside a running session is refused by the active-connection rule (P6)")
    func capturePhotoWithoutSession() {
        final class Nobody: PhotoProcessingDelegate {
            func capture(
                _ captureOutput: PhotoOutput, didFinishProcessingPhotoSampleBuffer photoSampleBuffer: SampleBuffer?,
                previewPhotoSampleBuffer: SampleBuffer?, resolvedSettings: ResolvedPhotoSettings,
                bracketSettings: BracketedStillImageSettings?, error: DaguerreError?
            ) {}
        }
        do throws(DaguerreError) {
            try PhotoOutput().capturePhoto(with: PhotoSettings(), delegate: Nobody())
            Issue.record("must throw")
        } catch {
            guard case .photoSettings(let rule, _, _) = error else {
                Issue.record("wrong case \(error)")
                return
            }
            #expect(rule == PhotoSettingsRule.activeConnection.rawValue)
        }
    }

    @Test("A device failure is a runtime error, after which the session stops")
    func runtimeError() async throws {
        let (session, camera, clock, _, _, _) = try running()
        let stream = session.events()
        clock.advance(by: 0.05)
        let failure = DaguerreError.io(operation: "read the sensor", path: "/dev/fake", reason: "the cable came loose")
        camera.simulate(.failed(failure))
        var seen: [CaptureSessionEvent] = []
        for await event in stream {
            seen.append(event)
            if event == .didStopRunning { break }
        }
        #expect(seen == [.runtimeError(failure), .didStopRunning])
        #expect(!session.isRunning && !camera.isStreaming)
    }

    @Test("Interruptions are reported and tracked by isInterrupted")
    func interruptions() throws {
        let (session, camera, _, _, _, events) = try running()
        camera.simulate(.interrupted(.videoDeviceInUseByAnotherClient))
        #expect(session.isInterrupted)
        camera.simulate(.interruptionEnded)
        #expect(!session.isInterrupted)
        session.stopRunning()
        #expect(events.all == [.didStartRunning, .wasInterrupted(.videoDeviceInUseByAnotherClient), .interruptionEnded, .didStopRunning])
    }

    @Test("A device that cannot start makes startRunning throw its error; the session stays stopped")
    func deviceRefusesToStart() throws {
        let session = CaptureSession(clock: VirtualClock())
        let events = EventLog(session)
        let camera = try FakeCamera.small()
        let mic = try FakeMicrophone()
        try session.addInput(input(mic))
        try session.addInput(input(camera))
        try session.addOutput(MovieFileOutput())
        camera.refuseToStart(true)
        do throws(DaguerreError) {
            try session.startRunning()
            Issue.record("must throw")
        } catch {
            #expect(problem(error).contains("in use by another client"))
        }
        #expect(!session.isRunning)
        camera.refuseToStart(false)
        try session.startRunning()
        #expect(session.isRunning)
        session.stopRunning()
        #expect(events.all == [.didStartRunning, .didStopRunning])
    }

    @Test("A session dropped while running stops its devices")
    func droppedSessionStopsDevices() throws {
        let camera = try FakeCamera.small()
        weak var weakSession: CaptureSession?
        do {
            let session = CaptureSession(clock: VirtualClock())
            try session.addInput(input(camera))
            try session.addOutput(PreviewSink())
            try session.startRunning()
            weakSession = session
            #expect(camera.isStreaming)
        }
        #expect(weakSession == nil)
        #expect(!camera.isStreaming && camera.stopCount == 1)
    }

    @Test("A disabled connection stops frames to its output only")
    func disabledConnection() throws {
        let preview = PreviewSink()
        let (session, _, clock, output, frames, _) = try running { session, _ in try session.addOutput(preview) }
        clock.advance(by: 0.05)
        try #require(output.connection(with: .video)).isEnabled = false
        clock.advance(by: 0.1)
        session.stopRunning()
        #expect(frames.all.count == 2, "t = 0 and 1/30 only")
        #expect(preview.frameCount == 5, "t = 0 … 4/30")
    }
}
