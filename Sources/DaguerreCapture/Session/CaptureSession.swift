import DaguerreCore
// The capture session: inputs feed it, outputs receive, connections join them; it is started
// and stopped, batches configuration changes atomically, picks the camera's format from a
// preset and its colour space by the wide-colour rule, and rebuilds its pipeline when a
// pipeline-shaping option changes while running (SPEC C1, C3, C6, W3, W4).
import Dispatch
import Synchronization

/// The centre of capture (AVCaptureSession): add inputs (cameras, microphones) and outputs,
/// start it, stop it.
///
/// **Configuration.** `addInput`, `addOutput`, `removeInput`, `removeOutput` and
/// `setSessionPreset` each commit at once, unless they sit between ``beginConfiguration()`` and
/// ``commitConfiguration()``: then they are staged and applied all together at the commit, which
/// validates the whole configuration first (see `ConfigurationRules`: one camera and one
/// microphone, connectable outputs, a preset the camera supports, L5). A commit that fails
/// throws and changes nothing. Reads (``inputs``, ``outputs``, ``sessionPreset``) show the
/// committed state. Transactions nest; the outermost commit applies.
///
/// **Camera format and colour.** When the preset or the camera changes, the session makes the
/// preset's format active on the camera (see `CaptureSessionPreset.swift`; `.inputPriority`
/// leaves it to the app). With ``automaticallyConfiguresCaptureDeviceForWideColor`` on (the
/// default) the session sets the camera's colour space by the W3 rule (``WideColorPolicy``) at
/// every commit and at ``startRunning()``. Turn it off to choose yourself (W4): P3 frames then
/// flow to every video output.
///
/// **Running.** ``startRunning()`` starts every input's stream against the session's
/// ``clock``; frames go to each enabled connection's output on the device's delivery thread
/// (outputs hand them to their own queues). ``stopRunning()`` stops the streams and finishes
/// recordings. Changing the inputs, the camera's format or colour space, or a photo output's
/// pipeline options while running stops the streams, reconfigures, restarts and reports
/// ``CaptureSessionEvent/pipelineRebuilt(_:)`` (C6).
///
/// **Events.** ``events()`` (an AsyncStream each) and ``setEventHandler(queue:_:)``: started,
/// stopped, runtime errors (after which the session stops), interruptions, rebuilds.
///
/// **Threads.** Every method is safe from any thread. Configuration and run-state changes are
/// serialized by one mutex, held while devices are configured, started and stopped; the
/// delivery path takes only a second, short-held mutex, so devices never wait on
/// configuration. A third mutex holds only the observers (the streams and the handler), and no
/// observer is called while any of the three is held: events are yielded to AsyncStreams or
/// dispatched to the handler's queue. All stored state is in those mutexes or
/// immutable, so the class is checked `Sendable` (no `@unchecked` needed).
///
/// ```swift
/// let session = CaptureSession()
/// session.beginConfiguration()
/// try session.setSessionPreset(.photo)
/// try session.addInput(CaptureDeviceInput(device: camera))
/// let photoOutput = PhotoOutput(), preview = PreviewSink()
/// try session.addOutput(photoOutput)
/// try session.addOutput(preview)
/// try session.commitConfiguration()            // camera: largest 420f photo format, Display P3 (W3)
/// try photoOutput.setHighResolutionCaptureEnabled(true)
/// try session.startRunning()
/// ```
public final class CaptureSession: Sendable {
    private struct Control: Sendable {
        var committed = SessionConfiguration()
        var staged: SessionConfiguration?
        var depth = 0
        var running = false
        /// The camera and preset whose format was last made active.
        var appliedPreset: AppliedPreset?
    }

    private struct AppliedPreset: Sendable {
        let camera: any CaptureDevice
        let preset: Preset
    }

    /// The delivery path's state. It owns the committed connections: configuration changes
    /// them under both mutexes, delivery reads them under this one alone.
    private struct Routing: Sendable {
        var running = false
        var generation: UInt64 = 0
        var connections: [CaptureConnection] = []
        var interrupted = false
    }

    private struct EventHandler: Sendable {
        let queue: DispatchQueue
        let handler: @Sendable (CaptureSessionEvent) -> Void
    }

    private struct Observers: Sendable {
        var nextID: UInt64 = 0
        var streams: [UInt64: AsyncStream<CaptureSessionEvent>.Continuation] = [:]
        var handler: EventHandler?
    }

    /// What a commit will do to the camera.
    private struct Plan {
        var camera: (any CaptureDevice)?
        var format: CaptureDeviceFormat?
        var colorSpace: CaptureColorSpace?
    }

    /// The clock devices stream against (``HostClock/shared`` unless given).
    public let clock: any CaptureClock
    private let control = Mutex(Control())
    private let routing = Mutex(Routing())
    private let observers = Mutex(Observers())

    public init(clock: any CaptureClock = HostClock.shared) {
        self.clock = clock
    }

    /// A session dropped while running stops its devices (their handlers hold it weakly, so
    /// nothing would receive their frames).
    deinit {
        let inputs = control.withLock { $0.running ? $0.committed.inputs : [] }
        for input in inputs { input.device.stopStreaming() }
    }

    // MARK: State

    /// The committed inputs.
    public var inputs: [CaptureDeviceInput] { control.withLock { $0.committed.inputs } }
    /// The committed outputs.
    public var outputs: [CaptureOutput] { control.withLock { $0.committed.outputs } }
    /// The committed preset (default `.high`).
    public var sessionPreset: Preset { control.withLock { $0.committed.preset } }
    /// Every connection of the committed configuration.
    public var connections: [CaptureConnection] { routing.withLock { $0.connections } }
    public var isRunning: Bool { routing.withLock { $0.running } }
    /// Whether a device reported an interruption that has not ended.
    public var isInterrupted: Bool { routing.withLock { $0.interrupted } }

    /// W3 (default true): the session sets the camera's colour space itself: Display P3 for
    /// photography (see ``WideColorPolicy``), sRGB otherwise. Turn it off to set the camera's
    /// `activeColorSpace` yourself (W4). Staged inside a transaction.
    public var automaticallyConfiguresCaptureDeviceForWideColor: Bool {
        get { control.withLock { $0.staged?.automaticallyConfiguresWideColor ?? $0.committed.automaticallyConfiguresWideColor } }
        set {
            do { try mutate { $0.automaticallyConfiguresWideColor = newValue } } catch { emit(.runtimeError(error)) }
        }
    }

    // MARK: Configuration

    /// Opens a transaction: changes until the matching ``commitConfiguration()`` are staged.
    public func beginConfiguration() {
        control.withLock { c in
            c.depth += 1
            if c.depth == 1 { c.staged = c.committed }
        }
    }

    /// Closes a transaction; the outermost commit validates and applies every staged change at
    /// once, photo-output options included. On error nothing changes and the error says what to fix.
    public func commitConfiguration() throws(DaguerreError) {
        try control.withLock { (c) throws(DaguerreError) in
            guard c.depth > 0, let staged = c.staged else {
                throw .captureConfiguration(
                    problem: "commitConfiguration() was called without a matching beginConfiguration()",
                    fix: "Call beginConfiguration() first, and pair every begin with one commit.")
            }
            c.depth -= 1
            guard c.depth == 0 else { return }
            c.staged = nil
            try commit(staged, control: &c)
        }
    }

    /// Whether a transaction is open (between beginConfiguration and its commit).
    var isInsideConfiguration: Bool { control.withLock { $0.depth > 0 } }

    /// Whether ``setSessionPreset(_:)`` would succeed: the camera (staged, inside a
    /// transaction) supports the preset.
    public func canSetSessionPreset(_ preset: Preset) -> Bool {
        control.withLock { c in
            guard let camera = (c.staged ?? c.committed).videoInput?.device else { return true }
            return (try? preset.selectFormat(for: camera)) != nil
        }
    }

    public func setSessionPreset(_ preset: Preset) throws(DaguerreError) {
        try mutate { $0.preset = preset }
    }

    /// Whether ``addInput(_:)`` would succeed now. Inside a transaction only the input itself is
    /// checked (not yet added, not in another session); the rest waits for the commit.
    public func canAddInput(_ input: CaptureDeviceInput) -> Bool {
        canApply { (config) throws(DaguerreError) in try self.stageAdd(input, to: &config) }
    }

    public func addInput(_ input: CaptureDeviceInput) throws(DaguerreError) {
        try mutate { (config) throws(DaguerreError) in try self.stageAdd(input, to: &config) }
    }

    /// Removes an input (a no-op for one not in the session). Throws when the rest of the
    /// configuration is invalid without it (an output left unconnectable).
    public func removeInput(_ input: CaptureDeviceInput) throws(DaguerreError) {
        try mutate { $0.inputs.removeAll { $0 === input } }
    }

    /// Whether ``addOutput(_:)`` would succeed now (inside a transaction: the output itself only).
    public func canAddOutput(_ output: CaptureOutput) -> Bool {
        canApply { (config) throws(DaguerreError) in try self.stageAdd(output, to: &config) }
    }

    public func addOutput(_ output: CaptureOutput) throws(DaguerreError) {
        try mutate { (config) throws(DaguerreError) in try self.stageAdd(output, to: &config) }
    }

    /// Removes an output (a no-op for one not in the session). Inside a transaction, pipeline
    /// options staged for it are dropped with it at the commit: it keeps its committed ones (C3).
    public func removeOutput(_ output: CaptureOutput) throws(DaguerreError) {
        try mutate { $0.outputs.removeAll { $0 === output } }
    }

    // MARK: Running

    /// Starts every input's stream. Throws when an output has no connection, or a device cannot
    /// start (its error); on success reports ``CaptureSessionEvent/didStartRunning``. Does nothing
    /// when already running.
    public func startRunning() throws(DaguerreError) {
        try control.withLock { (c) throws(DaguerreError) in
            guard !c.running else { return }
            let config = c.committed
            let connections = routing.withLock { $0.connections }
            for output in config.outputs where !connections.contains(where: { $0.output === output }) {
                throw .captureConfiguration(
                    problem: "the session's \(output.displayName) has no connection (no input of a media type it takes)",
                    fix: "Add a camera input (a microphone for audio) before starting, or remove the output.")
            }
            // The app may have changed the camera's format since the last commit.
            if let camera = config.videoInput?.device {
                let space = WideColorPolicy.colorSpace(for: config, format: camera.activeFormat, current: camera.activeColorSpace)
                if space != camera.activeColorSpace { try camera.setActiveColorSpace(space) }
            }
            try startStreams(config.inputs)
            c.running = true
            for output in config.outputs { output.sessionDidStartRunning() }
            emit(.didStartRunning)
        }
    }

    /// Stops every stream and finishes recordings; reports ``CaptureSessionEvent/didStopRunning``.
    /// Does nothing when not running.
    public func stopRunning() {
        control.withLock { c in stopLocked(&c) }
    }

    // MARK: Events

    /// A stream of every event from now on (each call makes a new one; it buffers without
    /// limit, so read it or drop it).
    public func events() -> AsyncStream<CaptureSessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: CaptureSessionEvent.self)
        let id = observers.withLock { o in
            let id = o.nextID
            o.nextID += 1
            o.streams[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `handler` on `queue` with every event from now on (nil removes it). Events are
    /// dispatched as they happen, so once a call such as ``stopRunning()`` returns, its event
    /// is already queued.
    public func setEventHandler(queue: DispatchQueue, _ handler: (@Sendable (CaptureSessionEvent) -> Void)?) {
        observers.withLock { $0.handler = handler.map { EventHandler(queue: queue, handler: $0) } }
    }

    // MARK: Internals

    /// Changes a photo output's pipeline options (C6) like any other configuration change:
    /// staged inside a transaction (the output keeps its committed options until the commit);
    /// otherwise validated and applied at once, rebuilding the pipeline when running.
    func changePipelineOptions(of output: PhotoOutput, _ change: (inout PhotoOutput.PipelineOptions) -> Void) throws(DaguerreError) {
        try mutate { config in
            var options = config.pipelineOptions(of: output)
            change(&options)
            config.stage(options, for: output)
        }
    }

    /// Applies `change` to the staged configuration inside a transaction, else commits it.
    private func mutate(_ change: (inout SessionConfiguration) throws(DaguerreError) -> Void) throws(DaguerreError) {
        try control.withLock { (c) throws(DaguerreError) in
            if var staged = c.staged {
                try change(&staged)
                c.staged = staged
                return
            }
            var next = c.committed
            try change(&next)
            try commit(next, control: &c)
        }
    }

    /// Whether `change` would succeed now (see canAddInput).
    private func canApply(_ change: (inout SessionConfiguration) throws(DaguerreError) -> Void) -> Bool {
        control.withLock { c in
            if var staged = c.staged { return (try? change(&staged)) != nil }
            var next = c.committed
            do {
                try change(&next)
                _ = try plan(next, control: c)
                return true
            } catch {
                return false
            }
        }
    }

    private func stageAdd(_ input: CaptureDeviceInput, to config: inout SessionConfiguration) throws(DaguerreError) {
        guard !config.inputs.contains(where: { $0 === input }) else {
            throw .captureConfiguration(
                problem: "the input for \(input.device.localizedName) is already in this session", fix: "Add each input once.")
        }
        try ConfigurationRules.checkOwner(of: input, session: self)
        config.inputs.append(input)
    }

    private func stageAdd(_ output: CaptureOutput, to config: inout SessionConfiguration) throws(DaguerreError) {
        guard !config.outputs.contains(where: { $0 === output }) else {
            throw .captureConfiguration(problem: "this \(output.displayName) is already in this session", fix: "Add each output once.")
        }
        try ConfigurationRules.checkOwner(of: output, session: self)
        config.outputs.append(output)
    }

    /// Validates `next` and works out the camera's format and colour space, changing nothing.
    private func plan(_ next: SessionConfiguration, control c: Control) throws(DaguerreError) -> Plan {
        let camera = next.videoInput?.device
        var format = camera?.activeFormat
        if let camera, next.preset != .inputPriority,
            !(c.appliedPreset.map { $0.camera === camera && $0.preset == next.preset } ?? false)
        {
            format = try next.preset.selectFormat(for: camera)
        }
        try ConfigurationRules.validate(next, cameraFormat: format, session: self)
        var colorSpace = camera?.activeColorSpace
        if let format, let current = colorSpace {
            colorSpace = WideColorPolicy.colorSpace(for: next, format: format, current: current)
        }
        return Plan(camera: camera, format: format, colorSpace: colorSpace)
    }

    /// Validates and applies `next` (the caller holds the control mutex).
    private func commit(_ next: SessionConfiguration, control c: inout Control) throws(DaguerreError) {
        let plan = try plan(next, control: c)
        let previous = c.committed
        let camera = plan.camera
        let oldFormat = camera?.activeFormat
        let oldColorSpace = camera?.activeColorSpace

        var reason: CapturePipelineRebuildReason?
        if c.running {
            // A session output's options change only at a commit (C3, C6), so the running
            // pipeline was built with the committed options of the outputs it has, and with none
            // of an output this commit adds (which the app may have opted in before adding it).
            let changedOptions = next.outputs.compactMap { $0 as? PhotoOutput }.flatMap { photo in
                let built = previous.outputs.contains { $0 === photo } ? photo.pipelineOptions : PhotoOutput.PipelineOptions()
                return next.pipelineOptions(of: photo).changedNames(from: built)
            }
            if let name = changedOptions.first {
                reason = .photoOutputOptionChanged(name)
            } else if Set(next.inputs.map(ObjectIdentifier.init)) != Set(previous.inputs.map(ObjectIdentifier.init)) {
                reason = .inputsChanged
            } else if let format = plan.format, format != oldFormat {
                reason = .activeFormatChanged(format)
            } else if let space = plan.colorSpace, space != oldColorSpace {
                reason = .colorSpaceChanged(space)
            }
        }

        if reason != nil { stopStreams(previous.inputs) }
        if let camera {
            do throws(DaguerreError) {
                if let format = plan.format, format != camera.activeFormat { try camera.setActiveFormat(format) }
                if let space = plan.colorSpace, space != camera.activeColorSpace { try camera.setActiveColorSpace(space) }
            } catch {
                // Put the camera back as it was and resume the old pipeline.
                if let oldFormat { try? camera.setActiveFormat(oldFormat) }
                if let oldColorSpace { try? camera.setActiveColorSpace(oldColorSpace) }
                if reason != nil { restartAfterRebuild(previous.inputs, control: &c) }
                throw error
            }
            c.appliedPreset = AppliedPreset(camera: camera, preset: next.preset)
        } else {
            c.appliedPreset = nil
        }

        // Photo-output options, ownership, then connections: existing ones are kept with their settings.
        // Only outputs of `next` get their staged options: those are the ones the rules checked
        // (L5), and an output this commit removes leaves with its committed options (C3).
        for staged in next.stagedPhotoOptions.values where next.outputs.contains(where: { $0 === staged.output }) {
            staged.output.setOptionsUnchecked(staged.options)
        }
        var next = next
        next.stagedPhotoOptions = [:]
        for input in previous.inputs where !next.inputs.contains(where: { $0 === input }) {
            input.owner.withLock { $0 = WeakSession(nil) }
        }
        for output in previous.outputs where !next.outputs.contains(where: { $0 === output }) {
            output.owner.withLock { $0 = WeakSession(nil) }
        }
        for input in next.inputs { input.owner.withLock { $0 = WeakSession(self) } }
        for output in next.outputs { output.owner.withLock { $0 = WeakSession(self) } }
        let existingConnections = routing.withLock { $0.connections }
        var connections: [CaptureConnection] = []
        for output in next.outputs {
            for input in next.inputs where output.acceptedMediaTypes.contains(input.device.mediaType) {
                if let existing = existingConnections.first(where: { $0.output === output && $0.inputPort.input === input }) {
                    connections.append(existing)
                } else {
                    connections.append(
                        CaptureConnection(inputPort: CaptureInputPort(input: input, mediaType: input.device.mediaType), output: output))
                }
            }
        }
        c.committed = next
        routing.withLock { $0.connections = connections }
        if c.running { updateFrameDemand(next.inputs) }

        if c.running {
            for output in next.outputs where !previous.outputs.contains(where: { $0 === output }) { output.sessionDidStartRunning() }
            for output in previous.outputs where !next.outputs.contains(where: { $0 === output }) { output.sessionDidStopRunning() }
        }
        if let reason {
            restartAfterRebuild(next.inputs, control: &c)
            if c.running { emit(.pipelineRebuilt(reason)) }
        }
        for output in next.outputs { output.sessionDidCommitConfiguration() }
    }

    /// Starts the streams of a rebuilt pipeline; if a device refuses, the session stops and
    /// reports the error.
    private func restartAfterRebuild(_ inputs: [CaptureDeviceInput], control c: inout Control) {
        do {
            try startStreams(inputs)
        } catch {
            emit(.runtimeError(error))
            c.running = false
            for output in c.committed.outputs { output.sessionDidStopRunning() }
            emit(.didStopRunning)
        }
    }

    private func startStreams(_ inputs: [CaptureDeviceInput]) throws(DaguerreError) {
        let generation = routing.withLock { r in
            r.running = true
            r.generation &+= 1
            return r.generation
        }
        var started: [CaptureDeviceInput] = []
        updateFrameDemand(inputs)
        for input in inputs {
            do throws(DaguerreError) {
                try input.device.startStreaming(clock: clock) { [weak self] event in
                    self?.route(event, from: input, generation: generation)
                }
                started.append(input)
            } catch {
                routing.withLock { r in
                    r.running = false
                    r.generation &+= 1
                }
                for input in started { input.device.stopStreaming() }
                throw error
            }
        }
    }

    /// Tells each camera what its outputs need of its frames' pixels.
    private func updateFrameDemand(_ inputs: [CaptureDeviceInput]) {
        let connections = routing.withLock { $0.connections }
        for input in inputs where input.device.mediaType == .video {
            let demand = connections.filter { $0.inputPort.input === input }
                .reduce(FramePixelDemand.none) { $0.combined(with: $1.output.framePixelDemand) }
            input.device.setFramePixelDemand(demand)
        }
    }

    private func stopStreams(_ inputs: [CaptureDeviceInput]) {
        routing.withLock { r in
            r.running = false
            r.generation &+= 1
            r.interrupted = false
        }
        for input in inputs { input.device.stopStreaming() }
    }

    private func stopLocked(_ c: inout Control) {
        guard c.running else { return }
        stopStreams(c.committed.inputs)
        c.running = false
        for output in c.committed.outputs { output.sessionDidStopRunning() }
        emit(.didStopRunning)
    }

    /// The delivery path: runs on the device's thread.
    private func route(_ event: CaptureStreamEvent, from input: CaptureDeviceInput, generation: UInt64) {
        let connections: [CaptureConnection]? = routing.withLock { r in
            guard r.running, r.generation == generation else { return nil }
            if case .interrupted = event { r.interrupted = true }
            if case .interruptionEnded = event { r.interrupted = false }
            return r.connections.filter { $0.inputPort.input === input }
        }
        guard let connections else { return }
        switch event {
        case .video(let frame):
            for connection in connections where connection.isEnabled && connection.mediaType == .video {
                connection.output.deliver(metering: frame.metadata, from: connection)
                connection.output.deliver(frame: frame, from: connection)
            }
        case .metering(let metadata):
            for connection in connections where connection.isEnabled && connection.mediaType == .video {
                connection.output.deliver(metering: metadata, from: connection)
            }
        case .audio(let buffer):
            for connection in connections where connection.isEnabled && connection.mediaType == .audio {
                connection.output.deliver(audio: buffer, from: connection)
            }
        case .interrupted(let reason):
            emit(.wasInterrupted(reason))
        case .interruptionEnded:
            emit(.interruptionEnded)
        case .failed(let error):
            emit(.runtimeError(error))
            // Stop from another thread: the device may be unable to stop from inside its handler.
            DispatchQueue.global().async { [weak self] in self?.stopAfterFailure(generation: generation) }
        }
    }

    private func stopAfterFailure(generation: UInt64) {
        control.withLock { c in
            guard routing.withLock({ $0.generation == generation }) else { return }
            stopLocked(&c)
        }
    }

    private func emit(_ event: CaptureSessionEvent) {
        let (streams, handler) = observers.withLock { (Array($0.streams.values), $0.handler) }
        for stream in streams { stream.yield(event) }
        if let handler { handler.queue.async { handler.handler(event) } }
    }
}
