// The README's capture sample (SPEC C1–C3, A1): a session with the virtual back
// camera and microphone, 30 frames from a VideoDataOutput (one written as PNG), then 3 s
// recorded with a MovieFileOutput. Runs in real time on the host clock.
//
//   swift run -c release capture-sample OUTPUT-FOLDER
import Daguerre
import Dispatch
import Foundation

let args = CommandLine.arguments
guard args.count == 2 else {
    FileHandle.standardError.write(Data("usage: capture-sample OUTPUT-FOLDER\n".utf8))
    exit(2)
}
let folder = args[1]

func run() async throws {
    CaptureAuthorization.shared.usageDescriptions = UsageDescriptions(
        camera: "To show the sample's frames.",
        microphone: "To record the sample's sound.")
    guard let camera = CaptureDevices.default(for: .video, position: .back),
        let microphone = CaptureDevices.default(for: .audio)
    else {
        throw DaguerreError.unsupported(
            feature: "capture without a camera and a microphone", hint: "Register devices in CaptureDeviceRegistry.shared.")
    }
    let session = CaptureSession()
    let frames = VideoDataOutput()
    let movie = MovieFileOutput()
    session.beginConfiguration()
    try session.setSessionPreset(.hd1920x1080)
    try session.addInput(CaptureDeviceInput(device: camera))
    try session.addInput(CaptureDeviceInput(device: microphone))
    try session.addOutput(frames)
    try session.addOutput(movie)
    try session.commitConfiguration()

    // 30 frames from the VideoDataOutput; the last one is written as PNG.
    let (stream, continuation) = AsyncStream.makeStream(of: SampleBuffer.self)
    frames.setSampleBufferHandler(queue: DispatchQueue(label: "frames")) { frame, _ in continuation.yield(frame) }
    try session.startRunning()
    var count = 0
    for await frame in stream {
        count += 1
        guard count == 30, let yuv = frame.yCbCrBuffer else { continue }
        let rgba = try YCbCrConversion.makeRGBA(from: yuv)
        let path = folder + "/frame.png"
        try ImageWriter.write(
            rgba, to: path,
            options: EncoderOptions(
                format: .png, width: rgba.width, height: rgba.height,
                rowFormat: .rgba8, iccProfile: try (frame.colorSpace ?? .sRGB).iccProfileData()))
        print(
            "\(path): frame \(frame.metadata.sequenceNumber), \(frame.width)×\(frame.height) \(frame.pixelFormatType?.fourCC ?? "?"), \(frame.captureColorSpace?.description ?? "?")"
        )
        break
    }
    frames.removeSampleBufferHandler()

    // 3 s with the MovieFileOutput.
    let path: String = try await withCheckedThrowingContinuation { done in
        do {
            try movie.startRecording(to: folder + "/clip.mov") { done.resume(with: $0) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 3) { movie.stopRecording() }
        } catch { done.resume(throwing: error) }
    }
    session.stopRunning()
    print("\(path): \(movie.recordedFrameCount) frames, \(movie.recordedDuration) s")
}

do { try await run() } catch {
    FileHandle.standardError.write(Data("capture-sample: \(error)\n".utf8))
    exit(1)
}
