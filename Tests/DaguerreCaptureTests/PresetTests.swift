import DaguerreCapture
import DaguerreCore
import Testing

/// The preset table of CaptureSessionPreset.swift, case by case.
@Suite("Presets choose the camera's format (C3, C5)")
struct PresetTests {
    /// An iPad Pro 9.7-like back camera: 420v/420f pairs; 12 MP is the photo format.
    static func backFormats() throws(DaguerreError) -> [CaptureDeviceFormat] {
        var formats: [CaptureDeviceFormat] = []
        formats += try CaptureDeviceFormat.videoRangePair(width: 192, height: 144, wideColor: false)
        formats += try CaptureDeviceFormat.videoRangePair(width: 480, height: 360, wideColor: false)
        formats += try CaptureDeviceFormat.videoRangePair(width: 640, height: 480, wideColor: false)
        formats += try CaptureDeviceFormat.videoRangePair(width: 1280, height: 720, maxFrameRate: 60, wideColor: false)
        formats += try CaptureDeviceFormat.videoRangePair(width: 1920, height: 1080, wideColor: true)
        formats += try CaptureDeviceFormat.videoRangePair(width: 4032, height: 3024, wideColor: true, isHighestPhotoQualitySupported: true)
        formats.append(try CaptureDeviceFormat(width: 4032, height: 3024, pixelFormat: .bayer(.rggb)))
        return formats
    }

    /// The seeds' front camera (C5): streams 1280×960 but takes 5 MP stills; also 1920×1080.
    static func frontFormats() throws(DaguerreError) -> [CaptureDeviceFormat] {
        try CaptureDeviceFormat.videoRangePair(width: 1920, height: 1080, wideColor: false)
            + CaptureDeviceFormat.videoRangePair(
                width: 1280, height: 960, wideColor: true,
                highResolutionStillDimensions: CaptureDimensions(width: 2576, height: 1932))
    }

    private func choose(_ preset: CaptureSession.Preset, _ formats: [CaptureDeviceFormat]) throws -> CaptureDeviceFormat? {
        try preset.selectFormat(from: formats)
    }

    @Test("photo: the largest-still 420f format (12 MP on the back camera)")
    func photoBack() throws {
        let f = try #require(try choose(.photo, Self.backFormats()))
        #expect(f.dimensions == CaptureDimensions(width: 4032, height: 3024))
        #expect(f.pixelFormat == .yuv420FullRange, "420f, never the Bayer format of the same size")
        #expect(f.isWideColorSupported)
    }

    @Test("photo on the front camera (C5): 1280×960 streaming with 5 MP stills beats 1920×1080")
    func photoFront() throws {
        let f = try #require(try choose(.photo, Self.frontFormats()))
        #expect(f.dimensions == CaptureDimensions(width: 1280, height: 960))
        #expect(f.highResolutionStillDimensions == CaptureDimensions(width: 2576, height: 1932))
        #expect(f.pixelFormat == .yuv420FullRange)
    }

    @Test("photo: between equal still sizes, the highest-photo-quality format wins")
    func photoQualityTieBreak() throws {
        let plain = try CaptureDeviceFormat(width: 2048, height: 1536, pixelFormat: .yuv420FullRange)
        let best = try CaptureDeviceFormat(width: 2048, height: 1536, pixelFormat: .yuv420VideoRange, isHighestPhotoQualitySupported: true)
        #expect(try choose(.photo, [plain, best]) == best)
    }

    @Test("high: 1920×1080 420f when present")
    func highExact() throws {
        let f = try #require(try choose(.high, Self.backFormats()))
        #expect(f.dimensions == CaptureDimensions(width: 1920, height: 1080) && f.pixelFormat == .yuv420FullRange)
    }

    @Test("high without 1080p: the largest format within 1920×1080; if all are larger, the smallest")
    func highFallbacks() throws {
        let formats =
            try CaptureDeviceFormat.videoRangePair(width: 4032, height: 3024, wideColor: true)
            + CaptureDeviceFormat.videoRangePair(width: 1280, height: 720, wideColor: false)
            + CaptureDeviceFormat.videoRangePair(width: 640, height: 480, wideColor: false)
        #expect(try choose(.high, formats)?.dimensions == CaptureDimensions(width: 1280, height: 720))
        let huge =
            try CaptureDeviceFormat.videoRangePair(width: 4032, height: 3024, wideColor: true)
            + CaptureDeviceFormat.videoRangePair(width: 3840, height: 2160, wideColor: true)
        #expect(try choose(.high, huge)?.dimensions == CaptureDimensions(width: 3840, height: 2160))
    }

    @Test("medium: 480×360 when present; else the smallest at least 640 wide; else the largest")
    func medium() throws {
        #expect(try choose(.medium, Self.backFormats())?.dimensions == CaptureDimensions(width: 480, height: 360))
        let noMedium =
            try CaptureDeviceFormat.videoRangePair(width: 320, height: 240, wideColor: false)
            + CaptureDeviceFormat.videoRangePair(width: 1280, height: 720, wideColor: false)
            + CaptureDeviceFormat.videoRangePair(width: 640, height: 480, wideColor: false)
        #expect(try choose(.medium, noMedium)?.dimensions == CaptureDimensions(width: 640, height: 480))
        let tiny =
            try CaptureDeviceFormat.videoRangePair(width: 192, height: 144, wideColor: false)
            + CaptureDeviceFormat.videoRangePair(width: 320, height: 240, wideColor: false)
        #expect(try choose(.medium, tiny)?.dimensions == CaptureDimensions(width: 320, height: 240))
    }

    @Test("low: 192×144 when present; else the smallest")
    func low() throws {
        #expect(try choose(.low, Self.backFormats())?.dimensions == CaptureDimensions(width: 192, height: 144))
        #expect(try choose(.low, Self.frontFormats())?.dimensions == CaptureDimensions(width: 1280, height: 960))
    }

    @Test("hd1920x1080: exactly that size, or an error naming the sizes there are")
    func hd1080() throws {
        #expect(try choose(.hd1920x1080, Self.backFormats())?.dimensions == CaptureDimensions(width: 1920, height: 1080))
        let small = try CaptureDeviceFormat.videoRangePair(width: 640, height: 480, wideColor: false)
        #expect(throws: DaguerreError.self) { try choose(.hd1920x1080, small) }
    }

    @Test("hd1280x720: exactly that size (the 60 fps 420f twin), no fallback: an error saying which preset to use instead")
    func hd720() throws {
        let f = try #require(try choose(.hd1280x720, Self.backFormats()))
        #expect(f.dimensions == CaptureDimensions(width: 1280, height: 720) && f.pixelFormat == .yuv420FullRange)
        do throws(DaguerreError) {
            _ = try CaptureSession.Preset.hd1280x720.selectFormat(from: Self.frontFormats(), deviceName: "Front Camera")
            Issue.record("the front camera has no 1280×720 format")
        } catch {
            guard case .captureConfiguration(let problem, let fix) = error else {
                Issue.record("wrong case \(error)")
                return
            }
            #expect(problem.contains("Front Camera has no 1280×720 format"))
            #expect(problem.contains("1920×1080, 1280×960"))
            #expect(fix.contains("high"))
        }
    }

    @Test("Ties: 420f before 420v before BGRA, then the higher frame rate")
    func pixelFormatPreference() throws {
        let bgra = try CaptureDeviceFormat(width: 1920, height: 1080, pixelFormat: .bgra)
        let v = try CaptureDeviceFormat(width: 1920, height: 1080, pixelFormat: .yuv420VideoRange)
        let f30 = try CaptureDeviceFormat(width: 1920, height: 1080, pixelFormat: .yuv420FullRange)
        let f60 = try CaptureDeviceFormat(
            width: 1920, height: 1080, pixelFormat: .yuv420FullRange,
            frameRateRange: try CaptureFrameRateRange(minFrameRate: 1, maxFrameRate: 60))
        #expect(try choose(.high, [bgra, v]) == v)
        #expect(try choose(.high, [bgra, v, f30]) == f30)
        #expect(try choose(.high, [bgra, f30, v, f60]) == f60)
    }

    @Test("inputPriority leaves the format alone; a Bayer-only camera supports no other preset")
    func inputPriorityAndBayer() throws {
        #expect(try choose(.inputPriority, Self.backFormats()) == nil)
        let bayerOnly = [try CaptureDeviceFormat(width: 4032, height: 3024, pixelFormat: .bayer(.grbg))]
        #expect(try choose(.inputPriority, bayerOnly) == nil)
        #expect(throws: DaguerreError.self) { try choose(.photo, bayerOnly) }
    }

    @Test("In a session: the preset's format becomes active; an unsupported preset fails and changes nothing")
    func sessionAppliesPreset() throws {
        let camera = try FakeCamera(formats: Self.frontFormats(), name: "Front Camera", position: .front)
        let session = CaptureSession(clock: VirtualClock())
        try session.addInput(input(camera))
        #expect(session.sessionPreset == .high)
        #expect(camera.activeFormat.dimensions == CaptureDimensions(width: 1920, height: 1080), "high picks 1080p")
        try session.setSessionPreset(.photo)
        #expect(camera.activeFormat.dimensions == CaptureDimensions(width: 1280, height: 960), "photo picks the 5 MP-still format")
        #expect(!session.canSetSessionPreset(.hd1280x720))
        #expect(session.canSetSessionPreset(.hd1920x1080))
        #expect(throws: DaguerreError.self) { try session.setSessionPreset(.hd1280x720) }
        #expect(session.sessionPreset == .photo)
        #expect(camera.activeFormat.dimensions == CaptureDimensions(width: 1280, height: 960))

        // inputPriority: the app's own format stays, through later commits too.
        let own = try #require(camera.formats.first { $0.pixelFormat == .yuv420VideoRange && $0.dimensions.width == 1920 })
        try session.setSessionPreset(.inputPriority)
        try camera.setActiveFormat(own)
        try session.addOutput(VideoDataOutput())
        #expect(camera.activeFormat == own)
    }
}
