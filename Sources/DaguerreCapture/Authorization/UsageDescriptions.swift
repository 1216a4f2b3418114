// The reasons an app gives for camera, microphone and photo-library access, keyed as iOS's
// Info.plist keys them (SPEC A1: "without a reason, access is not granted").
import DaguerreCore
import Foundation

/// The Info.plist keys that carry usage reasons (session 511: "NSCameraUsageDescription,
/// NSMicrophoneUsageDescription, and NSPhotoLibraryUsageDescription").
///
/// ```swift
/// UsageDescriptionKey.camera.rawValue     // "NSCameraUsageDescription"
/// ```
public enum UsageDescriptionKey: String, Sendable, Hashable, CaseIterable, CodingKey {
    case camera = "NSCameraUsageDescription"
    case microphone = "NSMicrophoneUsageDescription"
    case photoLibrary = "NSPhotoLibraryUsageDescription"
}

/// An app's declared reasons for access: what iOS reads from Info.plist. Declare them in code
/// or load them from a JSON manifest whose keys are the Info.plist keys.
///
/// A reason that is empty or only whitespace counts as missing.
///
/// ```swift
/// let reasons = UsageDescriptions(camera: "To take photos and video.",
///                                 microphone: "To record sound with your videos.")
/// // or, from a file holding {"NSCameraUsageDescription": "To take photos and video."}
/// let fromFile = try UsageDescriptions(contentsOf: "Privacy.json")
/// ```
public struct UsageDescriptions: Sendable, Hashable {
    private var reasons: [UsageDescriptionKey: String] = [:]

    public init(camera: String? = nil, microphone: String? = nil, photoLibrary: String? = nil) {
        reasons[.camera] = camera
        reasons[.microphone] = microphone
        reasons[.photoLibrary] = photoLibrary
    }

    /// From an Info.plist-style dictionary; keys other than the three usage keys are ignored
    /// (an Info.plist has many).
    public init(infoDictionary: [String: String]) {
        for key in UsageDescriptionKey.allCases { reasons[key] = infoDictionary[key.rawValue] }
    }

    /// From a JSON manifest: one object whose string members include the usage keys. Throws
    /// `.io` when the file cannot be read and `.corruptData` when it is not such an object.
    public init(contentsOf path: String) throws(DaguerreError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(operation: "read the usage-description manifest", path: path, reason: "the file does not exist or is not readable")
        }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw .corruptData(
                format: "JSON usage-description manifest", detail: "not valid JSON (\(error.localizedDescription))", path: path)
        }
        guard let dictionary = object as? [String: Any] else {
            throw .corruptData(
                format: "JSON usage-description manifest", detail: "the top level must be an object of key: reason strings", path: path)
        }
        var strings: [String: String] = [:]
        for key in UsageDescriptionKey.allCases {
            guard let value = dictionary[key.rawValue] else { continue }
            guard let text = value as? String else {
                throw .corruptData(format: "JSON usage-description manifest", detail: "\(key.rawValue) must be a string", path: path)
            }
            strings[key.rawValue] = text
        }
        self.init(infoDictionary: strings)
    }

    /// The reason for `key`, or nil when missing or blank.
    public subscript(key: UsageDescriptionKey) -> String? {
        get {
            guard let text = reasons[key], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
            return text
        }
        set { reasons[key] = newValue }
    }

    public var camera: String? { self[.camera] }
    public var microphone: String? { self[.microphone] }
    public var photoLibrary: String? { self[.photoLibrary] }
}
