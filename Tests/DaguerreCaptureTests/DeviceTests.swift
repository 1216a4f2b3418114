import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import Testing

@Suite("Devices: formats, validated controls, frames, registry and discovery (C4, W2)")
struct DeviceTests {
    @Test("Pixel formats carry their four-character codes both ways (C4, R1)")
    func fourCCs() {
        let expected: [(PixelFormatType, String)] = [
            (.yuv420VideoRange, "420v"), (.yuv420FullRange, "420f"), (.bgra, "BGRA"),
            (.bayer(.rggb), "rgg4"), (.bayer(.grbg), "grb4"), (.bayer(.bggr), "bgg4"), (.bayer(.gbrg), "gbr4"),
        ]
        for (format, code) in expected {
            #expect(format.fourCC == code)
            #expect(PixelFormatType(fourCC: code) == format)
        }
        #expect(PixelFormatType(fourCC: "yuvs") == nil)
    }

    @Test("W2: formats come in pairs; 420v supports sRGB only, 420f sRGB and P3 on a wide-colour device")
    func wideColorFormatPairs() throws {
        let pair = try CaptureDeviceFormat.videoRangePair(width: 4032, height: 3024, wideColor: true)
        #expect(pair.map(\.pixelFormat) == [.yuv420VideoRange, .yuv420FullRange])
        #expect(pair[0].supportedColorSpaces == [.sRGB])
        #expect(pair[1].supportedColorSpaces == [.sRGB, .p3D65])
        let narrow = try CaptureDeviceFormat.videoRangePair(width: 1920, height: 1080, wideColor: false)
        #expect(narrow[1].supportedColorSpaces == [.sRGB])

        #expect(throws: DaguerreError.self, "420v with P3 breaks W2") {
            try CaptureDeviceFormat(width: 64, height: 48, pixelFormat: .yuv420VideoRange, supportedColorSpaces: [.sRGB, .p3D65])
        }
        #expect(throws: DaguerreError.self, "sRGB is always supported") {
            try CaptureDeviceFormat(width: 64, height: 48, pixelFormat: .yuv420FullRange, supportedColorSpaces: [.p3D65])
        }
        #expect(throws: DaguerreError.self, "4:2:0 needs even sizes") {
            try CaptureDeviceFormat(width: 63, height: 48, pixelFormat: .yuv420FullRange)
        }
        #expect(throws: DaguerreError.self, "stills smaller than the stream") {
            try CaptureDeviceFormat(
                width: 64, height: 48, pixelFormat: .bgra, highResolutionStillDimensions: CaptureDimensions(width: 32, height: 24))
        }
        #expect(throws: DaguerreError.self) { try CaptureFrameRateRange(minFrameRate: 30, maxFrameRate: 15) }
    }

    @Test("setActiveFormat accepts only the device's own formats; colour space falls back to sRGB on a narrow format")
    func activeFormatMembership() throws {
        let camera = try FakeCamera.small()
        let wide = try #require(camera.formats.first { $0.pixelFormat == .yuv420FullRange && $0.dimensions.width == 640 })
        let videoRange = try #require(camera.formats.first { $0.pixelFormat == .yuv420VideoRange && $0.dimensions.width == 640 })
        let foreign = try CaptureDeviceFormat(width: 1920, height: 1080, pixelFormat: .yuv420FullRange)
        #expect(throws: DaguerreError.self) { try camera.setActiveFormat(foreign) }
        #expect(camera.activeFormat == camera.formats[0], "a refused format changes nothing")

        try camera.setActiveFormat(wide)
        try camera.setActiveColorSpace(.p3D65)
        #expect(camera.activeColorSpace == .p3D65)
        try camera.setActiveFormat(videoRange)
        #expect(camera.activeColorSpace == .sRGB, "420v cannot stay P3 (W2)")
        do throws(DaguerreError) {
            try camera.setActiveColorSpace(.p3D65)
            Issue.record("P3 on a 420v format must throw")
        } catch {
            guard case .captureConfiguration = error else {
                Issue.record("wrong case \(error)")
                return
            }
            #expect(error.message.contains("not P3_D65"))
            #expect(error.recovery.contains("420f"))
        }
    }

    @Test("Exposure and white balance setters validate their ranges (C4)")
    func exposureAndWhiteBalanceRanges() throws {
        let format = try CaptureDeviceFormat(
            width: 64, height: 48, pixelFormat: .yuv420FullRange, isoRange: 32...3200,
            exposureDurationRange: (1.0 / 10_000)...0.5)
        let camera = try FakeCamera(formats: [format])
        #expect(camera.exposure.mode == .auto)
        #expect(throws: DaguerreError.self) { try camera.setCustomExposure(duration: 1.0 / 60, iso: 6400) }
        #expect(throws: DaguerreError.self) { try camera.setCustomExposure(duration: 1, iso: 100) }
        #expect(camera.exposure.mode == .auto, "refused values change nothing")
        try camera.setCustomExposure(duration: 1.0 / 125, iso: 800)
        #expect(camera.exposure == CaptureExposure(mode: .custom, iso: 800, duration: 1.0 / 125))
        try camera.setExposureMode(.locked)
        #expect(camera.exposure.mode == .locked && camera.exposure.iso == 800)

        #expect(throws: DaguerreError.self) { try camera.setWhiteBalanceGains(CaptureWhiteBalanceGains(red: 0.5, green: 1, blue: 1)) }
        #expect(throws: DaguerreError.self) { try camera.setWhiteBalanceGains(CaptureWhiteBalanceGains(red: 1, green: 1, blue: 9)) }
        #expect(camera.whiteBalance.mode == .auto)
        try camera.setWhiteBalanceGains(CaptureWhiteBalanceGains(red: 2, green: 1, blue: 1.5))
        #expect(camera.whiteBalance == CaptureWhiteBalance(mode: .locked, gains: CaptureWhiteBalanceGains(red: 2, green: 1, blue: 1.5)))

        // Automatic loops report only in auto mode.
        camera.controls.reportAutomaticWhiteBalance(gains: CaptureWhiteBalanceGains(red: 3, green: 1, blue: 1))
        #expect(camera.whiteBalance.gains.red == 2)
        try camera.setWhiteBalanceMode(.auto)
        camera.controls.reportAutomaticWhiteBalance(gains: CaptureWhiteBalanceGains(red: 3, green: 1, blue: 1))
        #expect(camera.whiteBalance.gains.red == 3)
    }

    @Test("A microphone has no exposure or white balance: those throw .unsupported")
    func audioDeviceControls() throws {
        let mic = try FakeMicrophone()
        #expect(mic.deviceType == .builtInMicrophone)
        #expect(mic.activeFormat.audioFormat == (try CaptureAudioFormat(sampleRate: 44_100, channels: 1)))
        do throws(DaguerreError) {
            try mic.setExposureMode(.locked)
            Issue.record("must throw")
        } catch {
            guard case .unsupported = error else {
                Issue.record("expected .unsupported, got \(error)")
                return
            }
        }
    }

    @Test("Frames carry their colour space into the buffer's tags; P3 in video range is refused (W2, W4)")
    func frameTags() throws {
        let full = try PlanarYCbCr420Buffer(width: 16, height: 16, fullRange: true)
        let p3 = try SampleBuffer(content: .yCbCr420(full), colorSpace: .displayP3, metadata: CaptureFrameMetadata(timestamp: 1))
        #expect(p3.pixelFormatType == .yuv420FullRange)
        #expect(p3.yCbCrBuffer?.colorProperties.primaries == 12, "P3-D65 primaries")
        #expect(p3.yCbCrBuffer?.fullRange == true)
        let video = try PlanarYCbCr420Buffer(width: 16, height: 16)
        #expect(throws: DaguerreError.self) {
            try SampleBuffer(content: .yCbCr420(video), colorSpace: .displayP3, metadata: CaptureFrameMetadata(timestamp: 0))
        }
        let bgra = try SampleBuffer(
            content: .pixels(try PixelBuffer(width: 4, height: 4, format: .bgra8)), colorSpace: .displayP3,
            metadata: CaptureFrameMetadata(timestamp: 0))
        #expect(bgra.pixelBuffer?.colorSpace == .displayP3)
        #expect(throws: DaguerreError.self) {
            try SampleBuffer(
                content: .pixels(try PixelBuffer(width: 4, height: 4, format: .rgba8)), colorSpace: .sRGB,
                metadata: CaptureFrameMetadata(timestamp: 0))
        }
        #expect(throws: DaguerreError.self, "a buffer of half a frame") {
            try CaptureAudioBuffer(samples: [1, 2, 3], sampleRate: 44_100, channels: 2, timestamp: 0)
        }
    }

    @Test(
        "Registry and discovery: providers in order, duplicates dropped, filters by type, media and position; default prefers the back camera"
    )
    func registryAndDiscovery() throws {
        let registry = CaptureDeviceRegistry()
        let front = try FakeCamera.small(name: "Front", position: .front)
        let back = try FakeCamera.small(name: "Back", position: .back)
        let mic = try FakeMicrophone()
        struct Rig: CaptureDeviceProvider { let devices: [any CaptureDevice] }
        let first = registry.register(Rig(devices: [front, mic]))
        registry.register(device: back)
        registry.register(device: front)  // the same uniqueID again: listed once

        #expect(registry.devices.map(\.uniqueID) == [front.uniqueID, mic.uniqueID, back.uniqueID])
        #expect(CaptureDevices.default(for: .video, registry: registry) === back, "unspecified position prefers back")
        #expect(CaptureDevices.default(for: .video, position: .front, registry: registry) === front)
        #expect(CaptureDevices.default(for: .audio, registry: registry) === mic)
        #expect(CaptureDevices.default(.builtInTelephotoCamera, for: .video, registry: registry) == nil)
        let wide = CaptureDeviceDiscoverySession(
            deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .unspecified, registry: registry)
        #expect(wide.devices.map(\.localizedName) == ["Front", "Back"])
        #expect(registry.device(withUniqueID: mic.uniqueID) === mic)

        registry.unregister(first)
        #expect(registry.devices.map(\.localizedName) == ["Back", "Front"], "the front camera's own registration remains")
        #expect(CaptureDevices.default(for: .audio, registry: registry) == nil)
    }
}
