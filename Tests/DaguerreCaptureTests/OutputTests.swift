import DaguerreCapture
import DaguerreCore
import Dispatch
import Synchronization
import Testing

@Suite("Outputs: VideoDataOutput late-frame dropping, delegates, the preview sink (C2)", .hangGuard)
struct OutputTests {
    /// A running session whose VideoDataOutput callback blocks on `gate` for the first frame
    /// and signals `entered` when it gets there.
    private func slowCallbackSession(configure: (VideoDataOutput) -> Void)
        throws -> (CaptureSession, VirtualClock, VideoDataOutput, FrameLog, gate: DispatchSemaphore, entered: DispatchSemaphore)
    {
        let clock = VirtualClock()
        let session = CaptureSession(clock: clock)
        let output = VideoDataOutput()
        configure(output)
        let gate = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let first = Locked(true)
        let frames = FrameLog(output) { _ in
            if first.mutate({ f in
                defer { f = false }
                return f
            }) {
                entered.signal()
                gate.wait()
            }
        }
        try session.addInput(input(FakeCamera.small()))
        try session.addOutput(output)
        try session.startRunning()
        return (session, clock, output, frames, gate, entered)
    }

    @Test(
        "alwaysDiscardsLateVideoFrames: while the callback is busy, each newer frame replaces the waiting one; the callback then gets only the newest"
    )
    func discardsLateFrames() throws {
        let (session, clock, output, frames, gate, entered) = try slowCallbackSession { _ in }
        #expect(output.alwaysDiscardsLateVideoFrames, "the default")
        clock.advance(by: 0)  // frame 0
        #expect(wait(entered, "the first callback"))
        clock.advance(by: 29.5 / 30)  // frames 1 … 29 arrive while frame 0's callback is stuck
        #expect(output.droppedFrameCount == 28)
        gate.signal()
        let delivered = frames.all.map(\.metadata.sequenceNumber)
        session.stopRunning()
        #expect(delivered == [0, 29])
        #expect(output.deliveredFrameCount == 2)
        let drops = frames.dropped
        #expect(drops.map(\.0) == Array(1...28))
        #expect(drops.allSatisfy { $0.1 == .frameWasLate })
    }

    @Test("Without discarding, frames queue up to maximumQueuedFrameCount and later ones are dropped as out of buffers")
    func queuesWithoutDiscarding() throws {
        let (session, clock, output, frames, gate, entered) = try slowCallbackSession { output in
            output.alwaysDiscardsLateVideoFrames = false
            output.maximumQueuedFrameCount = 4
        }
        clock.advance(by: 0)
        #expect(wait(entered, "the first callback"))
        clock.advance(by: 29.5 / 30)
        gate.signal()
        let delivered = frames.all.map(\.metadata.sequenceNumber)
        session.stopRunning()
        #expect(delivered == [0, 1, 2, 3, 4])
        #expect(output.droppedFrameCount == 25)
        #expect(frames.dropped.map(\.0) == Array(5...29))
        #expect(frames.dropped.allSatisfy { $0.1 == .outOfBuffers })
    }

    final class Delegate: VideoDataOutputSampleBufferDelegate {
        let frames = Mutex<[(Int64, CaptureColorSpace?, CaptureMediaType)]>([])
        func captureOutput(_ output: VideoDataOutput, didOutput frame: SampleBuffer, from connection: CaptureConnection) {
            frames.withLock { $0.append((frame.metadata.sequenceNumber, frame.captureColorSpace, connection.mediaType)) }
        }
    }

    @Test("A delegate (held weakly) gets frames with their colour space and connection on its queue; a delegate without a queue is refused")
    func delegate() throws {
        let clock = VirtualClock()
        let session = CaptureSession(clock: clock)
        let output = VideoDataOutput()
        output.alwaysDiscardsLateVideoFrames = false  // every frame, however the queue is scheduled
        let queue = DispatchQueue(label: "delegate")
        var delegate: Delegate? = Delegate()
        #expect(throws: DaguerreError.self) { try output.setSampleBufferDelegate(delegate, queue: nil) }
        try output.setSampleBufferDelegate(delegate, queue: queue)
        try session.addInput(input(FakeCamera.small()))
        try session.addOutput(output)
        try session.startRunning()
        clock.advance(by: 0.05)
        queue.sync {}
        let received = delegate?.frames.withLock { $0 } ?? []
        #expect(received.map(\.0) == [0, 1])
        #expect(received.allSatisfy { $0.1 == .sRGB && $0.2 == .video })
        delegate = nil  // weakly held: gone, and delivery stops quietly
        clock.advance(by: 0.1)
        queue.sync {}
        session.stopRunning()
        #expect(output.deliveredFrameCount >= 2)
    }

    @Test("The preview sink keeps the newest frame and streams new ones")
    func previewSink() async throws {
        let clock = VirtualClock()
        let session = CaptureSession(clock: clock)
        let preview = PreviewSink()
        try session.addInput(input(FakeCamera.small()))
        try session.addOutput(preview)
        let stream = preview.frames()
        #expect(preview.latestFrame == nil)
        try session.startRunning()
        clock.advance(by: 0.1)
        #expect(preview.frameCount == 4)
        #expect(preview.latestFrame?.metadata.sequenceNumber == 3)
        #expect(preview.latestFrame?.yCbCrBuffer?.luma.first == FakeCamera.luma(3))
        var iterator = stream.makeAsyncIterator()
        let next = await iterator.next()
        #expect(next?.metadata.sequenceNumber == 3, "the stream buffers only the newest frame")
        session.stopRunning()
    }
}
