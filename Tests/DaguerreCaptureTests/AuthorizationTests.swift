import DaguerreCapture
import DaguerreCore
import DaguerreTestSupport
import Foundation
import Synchronization
import Testing

/// Each test makes its own CaptureAuthorization and registry: nothing global is touched, so
/// these run in parallel with everything else.
@Suite("Authorization: usage reasons, policies, remembered answers (A1)")
struct AuthorizationTests {
    @Test("Without a usage description, a camera input is refused with an error naming NSCameraUsageDescription")
    func missingCameraReason() throws {
        let auth = CaptureAuthorization(policy: .grantAll, registry: CaptureDeviceRegistry())
        do throws(DaguerreError) {
            _ = try CaptureDeviceInput(device: try FakeCamera.small(), authorization: auth)
            Issue.record("must throw")
        } catch {
            #expect(error.message.contains("NSCameraUsageDescription"))
            #expect(error.recovery.contains("NSCameraUsageDescription"))
        }
        do throws(DaguerreError) {
            _ = try CaptureDeviceInput(device: try FakeMicrophone(), authorization: auth)
            Issue.record("must throw")
        } catch {
            #expect(error.message.contains("NSMicrophoneUsageDescription"))
        }
    }

    @Test("Without a reason the policy is never asked, requestAccess is false, and the status stays notDetermined")
    func missingReasonDoesNotAsk() async throws {
        let asked = Locked(0)
        let auth = CaptureAuthorization(
            policy: .ask { _ in
                asked.mutate { $0 += 1 }
                return .granted
            }, registry: CaptureDeviceRegistry())
        #expect(await auth.requestAccess(for: .photoLibrary) == false)
        do throws(DaguerreError) {
            try await auth.requireAccess(for: .photoLibrary)
            Issue.record("must throw")
        } catch {
            #expect(error.message.contains("NSPhotoLibraryUsageDescription"))
        }
        #expect(asked.value == 0)
        #expect(auth.authorizationStatus(for: .photoLibrary) == .notDetermined)
        // Blank reasons count as missing.
        auth.usageDescriptions = UsageDescriptions(photoLibrary: "   ")
        #expect(await auth.requestAccess(for: .photoLibrary) == false)
    }

    @Test("A policy that asks the user grants access once per media type, even for concurrent requests; the answer is remembered")
    func grantViaPolicy() async throws {
        let asked = Locked<[AuthorizationRequest]>([])
        let registry = CaptureDeviceRegistry()
        let realCamera = try FakeCamera.small(isVirtual: false)
        registry.register(device: realCamera)
        let auth = CaptureAuthorization(
            usageDescriptions: UsageDescriptions(camera: "To take photos."),
            policy: .ask { request in
                asked.mutate { $0.append(request) }
                try? await Task.sleep(nanoseconds: 1_000_000)
                return .granted
            },
            registry: registry)
        #expect(auth.authorizationStatus(for: .video) == .notDetermined)
        #expect(throws: DaguerreError.self, "undetermined, and the policy needs to ask: no input yet") {
            try CaptureDeviceInput(device: realCamera, authorization: auth)
        }
        async let a = auth.requestAccess(for: .video)
        async let b = auth.requestAccess(for: .video)
        let results = await [a, b]
        #expect(results == [true, true])
        let requests = asked.value
        #expect(requests.count == 1, "asked once")
        #expect(requests.first?.usageDescription == "To take photos.")
        #expect(requests.first?.devices.map(\.uniqueID) == [realCamera.uniqueID])
        #expect(auth.authorizationStatus(for: .video) == .authorized)
        _ = try CaptureDeviceInput(device: realCamera, authorization: auth)
        #expect(await auth.requestAccess(for: .video), "remembered, not asked again")
        #expect(asked.value.count == 1)
        auth.reset()
        #expect(auth.authorizationStatus(for: .video) == .notDetermined)
    }

    @Test("A denial is remembered and refuses inputs with a message saying so")
    func denial() async throws {
        let auth = CaptureAuthorization(
            usageDescriptions: UsageDescriptions(camera: "To scan documents."), policy: .denyAll,
            registry: CaptureDeviceRegistry())
        #expect(await auth.requestAccess(for: .video) == false)
        #expect(auth.authorizationStatus(for: .video) == .denied)
        do throws(DaguerreError) {
            _ = try CaptureDeviceInput(device: try FakeCamera.small(), authorization: auth)
            Issue.record("must throw")
        } catch {
            #expect(error.message.contains("camera access is denied"))
        }
        let restricted = CaptureAuthorization(
            usageDescriptions: UsageDescriptions(microphone: "Voice memos."),
            policy: FixedAuthorizationPolicy(.restricted), registry: CaptureDeviceRegistry())
        #expect(await restricted.requestAccess(for: .audio) == false)
        #expect(restricted.authorizationStatus(for: .audio) == .restricted)
    }

    @Test("The default policy grants virtual devices at once (reason still required) and refuses real ones, without remembering either")
    func grantVirtualDevices() throws {
        let auth = CaptureAuthorization(usageDescriptions: UsageDescriptions(camera: "To take photos."), registry: CaptureDeviceRegistry())
        _ = try CaptureDeviceInput(device: try FakeCamera.small(isVirtual: true), authorization: auth)
        #expect(auth.authorizationStatus(for: .video) == .notDetermined, "a virtual device's grant authorizes no real camera")
        do throws(DaguerreError) {
            _ = try CaptureDeviceInput(device: try FakeCamera.small(isVirtual: false), authorization: auth)
            Issue.record("must throw")
        } catch {
            #expect(error.message.contains("refused"))
        }
        #expect(throws: DaguerreError.self, "no microphone reason") {
            try CaptureDeviceInput(device: try FakeMicrophone(), authorization: auth)
        }
    }

    @Test("Usage descriptions load from a JSON manifest keyed like Info.plist; bad manifests say what is wrong")
    func manifest() throws {
        let dir = try TemporaryDirectory("capture-auth")
        let good = dir.path("privacy.json")
        try Data(
            #"{"NSCameraUsageDescription": "To take photos.", "NSMicrophoneUsageDescription": "To record sound.", "CFBundleName": "Demo"}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: good))
        let reasons = try UsageDescriptions(contentsOf: good)
        #expect(reasons.camera == "To take photos." && reasons.microphone == "To record sound." && reasons.photoLibrary == nil)
        #expect(reasons[.camera] == reasons.camera)

        let notJSON = dir.path("broken.json")
        try Data("{".utf8).write(to: URL(fileURLWithPath: notJSON))
        #expect(throws: DaguerreError.self) { try UsageDescriptions(contentsOf: notJSON) }
        let wrongType = dir.path("number.json")
        try Data(#"{"NSCameraUsageDescription": 3}"#.utf8).write(to: URL(fileURLWithPath: wrongType))
        do throws(DaguerreError) {
            _ = try UsageDescriptions(contentsOf: wrongType)
            Issue.record("must throw")
        } catch {
            #expect(error.message.contains("NSCameraUsageDescription must be a string"))
        }
        do throws(DaguerreError) {
            _ = try UsageDescriptions(contentsOf: dir.path("absent.json"))
            Issue.record("must throw")
        } catch {
            guard case .io = error else {
                Issue.record("expected .io, got \(error)")
                return
            }
        }
        #expect(UsageDescriptions(infoDictionary: ["NSPhotoLibraryUsageDescription": "To save photos."]).photoLibrary == "To save photos.")
    }
}
