// The photo pipeline's schedule (SPEC P8; responsive capture and zero shutter lag as iOS 17
// has them): three serial queues, so a request's exposures can be made while earlier photos
// are still processed, and every callback still comes in request order.
//
//   capturePhoto ─▶ delivery: willBegin
//                 └▶ capture queue: choose or expose the stills ─▶ delivery: willCapture, didCapture
//                      └▶ processing queue: read out, fuse, develop, encode ─▶ delivery: photos, didFinish
//
// Stills are read out on the processing queue (a device's still holds its buffer or, for the
// virtual camera, the frame's description), so requests waiting in the queues hold no pixels.
import DaguerreCore
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

final class PhotoCapturePipeline: Sendable {
    private let captureQueue = DispatchQueue(label: "daguerre.photo-output.capture")
    private let processingQueue = DispatchQueue(label: "daguerre.photo-output.processing")
    /// Where every delegate callback is made, one at a time.
    let deliveryQueue = DispatchQueue(label: "daguerre.photo-output.delivery")

    /// Requests accepted and not yet delivered from which readiness says "waiting for processing".
    static let processingBacklogLimit = 3

    private struct Counters: Sendable {
        var running = false
        /// Requests submitted and not past their capture stage, and how many of them expose anew
        /// (flash, bracket, burst).
        var inCapture = 0
        var exposingInCapture = 0
        /// Requests past capture, not yet finished.
        var inProcessing = 0
        var newestFrame: Int64 = .min
    }
    private let counters = Mutex(Counters())
    /// Signalled for every new frame (zero shutter lag may wait for the next one).
    private let frameSignal = NSCondition()

    func frameArrived(_ metadata: CaptureFrameMetadata) {
        frameSignal.lock()
        counters.withLock { $0.newestFrame = max($0.newestFrame, metadata.sequenceNumber) }
        frameSignal.broadcast()
        frameSignal.unlock()
    }

    /// Waits up to `timeout` seconds of real time for a frame newer than `sequenceNumber`.
    func waitForFrame(newerThan sequenceNumber: Int64, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        frameSignal.lock()
        defer { frameSignal.unlock() }
        while counters.withLock({ $0.newestFrame <= sequenceNumber }) {
            if !frameSignal.wait(until: deadline) { return false }
        }
        return true
    }

    func sessionRunning(_ running: Bool, observers: PhotoOutputObservers) {
        counters.withLock {
            $0.running = running
            if !running { $0.newestFrame = .min }
        }
        publishReadiness(observers)
    }

    var readiness: PhotoCaptureReadiness {
        counters.withLock { c in
            if !c.running { return .sessionNotRunning }
            // Requests waiting in either stage will all be processed before a new one: past
            // the backlog limit, the shutter waits for processing.
            if c.inProcessing + c.inCapture >= Self.processingBacklogLimit { return .notReadyWaitingForProcessing }
            if c.exposingInCapture > 0 { return .notReadyWaitingForCapture }
            if c.inCapture > 0 { return .notReadyMomentarily }
            return .ready
        }
    }

    private func publishReadiness(_ observers: PhotoOutputObservers) {
        observers.publish(readiness: readiness)
    }

    /// Runs an accepted request through the three stages. `capture` must deliver willCapture
    /// and didCapture, also when it throws; `captured` hears its outcome at once, on the capture
    /// queue (a Live Photo's movie learns the still's time from it).
    func submit(
        _ job: PhotoCaptureJob, output: PhotoOutput,
        capture: @escaping @Sendable (PhotoCaptureJob) throws(DaguerreError) -> [PhotoImageStills],
        captured: @escaping @Sendable (PhotoCaptureJob, Result<[PhotoImageStills], DaguerreError>) -> Void = { _, _ in },
        process: @escaping @Sendable (PhotoCaptureJob, Result<[PhotoImageStills], DaguerreError>, PhotoOutput) -> Void
    ) {
        let exposing = job.plan != .zeroShutterLag && job.plan != .newExposure
        counters.withLock { c in
            c.inCapture += 1
            if exposing { c.exposingInCapture += 1 }
        }
        publishReadiness(output.observers)
        let delegate = job.delegate
        let resolved = job.resolved
        deliveryQueue.async { delegate.willBeginCapture(output, resolved) }
        captureQueue.async { [self] in
            let result: Result<[PhotoImageStills], DaguerreError>
            do throws(DaguerreError) {
                result = .success(try capture(job))
            } catch {
                // The capture stage delivered willCapture and didCapture; the photos and
                // didFinish carry the error.
                result = .failure(error)
            }
            captured(job, result)
            counters.withLock { c in
                c.inCapture -= 1
                if exposing { c.exposingInCapture -= 1 }
                c.inProcessing += 1
            }
            publishReadiness(output.observers)
            processingQueue.async { [self] in
                process(job, result, output)
                deliveryQueue.async { [self] in
                    let idle = counters.withLock { c in
                        c.inProcessing -= 1
                        return c.inProcessing == 0 && c.inCapture == 0
                    }
                    publishReadiness(output.observers)
                    if idle { Self.returnFreedMemory() }
                }
            }
        }
    }

    /// Gives the photos' freed buffers back to the system once no request is left: glibc keeps
    /// freed heap memory for reuse, and a burst of 12 MP photos would otherwise leave the
    /// process tens of megabytes larger each time.
    private static func returnFreedMemory() {
        _ = mallocTrim?(0)
    }

    /// glibc's malloc_trim (malloc.h is not in Swift's Glibc module), found at run time; nil
    /// with another C library.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
            // RTLD_DEFAULT is the null handle in glibc.
            guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
            return nil
        #endif
    }()

    /// Calls `body` on the delivery queue, after every callback already queued.
    func deliver(_ body: @escaping @Sendable () -> Void) {
        deliveryQueue.async(execute: body)
    }
}

/// The stills one image of a request is made from: one, or a stabilization burst.
struct PhotoImageStills: Sendable {
    var stills: [SensorStill]
    var bracket: BracketedStillImageSettings?
}
