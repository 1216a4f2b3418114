// An edit's description, kept with the edited Live Photo so that the edit can be resumed from
// the original (SPEC E7; PhotoKit's PHAdjustmentData): who made it, in which version of its
// format, and the app's own bytes. Written into the still's XMP and into an `.AAE` sidecar
// (a property list with the keys Apple's sidecars use).
import DaguerreCore
import DaguerreFormats
import Foundation

/// What an app needs to redo an edit: its format's identifier and version, and its data.
///
/// The app chooses all three; an app resuming an edit checks that it can handle the identifier
/// and version (``canHandle(formatIdentifier:versions:)``) before it reads the data.
///
/// ```swift
/// let adjustment = AdjustmentData(formatIdentifier: "photo.daguerre.live-edit", formatVersion: "1",
///                                 data: Array(#"{"crop":"square"}"#.utf8))
/// output.adjustmentData = adjustment
/// ```
public struct AdjustmentData: Sendable, Hashable {
    public var formatIdentifier: String
    public var formatVersion: String
    public var data: [UInt8]

    public init(formatIdentifier: String, formatVersion: String, data: [UInt8]) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }

    /// Whether an app that reads `formatIdentifier` in one of `versions` can resume this edit.
    public func canHandle(formatIdentifier: String, versions: Set<String>) -> Bool {
        self.formatIdentifier == formatIdentifier && versions.contains(formatVersion)
    }

    /// Checks that an app reading `formatIdentifier` in `versions` can resume this edit, or
    /// throws saying which format and version it is.
    public func requireHandled(formatIdentifier: String, versions: Set<String>) throws(DaguerreError) {
        guard canHandle(formatIdentifier: formatIdentifier, versions: versions) else {
            throw .unsupported(
                feature: "Adjustment data in format \(self.formatIdentifier) version \(formatVersion)",
                hint:
                    "This edit was made by another app or version (this one reads \(formatIdentifier) \(versions.sorted().joined(separator: ", "))); start a new edit from the original."
            )
        }
    }

    // MARK: XMP

    /// The XMP namespace of the adjustment data in a saved still.
    static let namespace = XMPPacket.Namespace(uri: "http://ns.daguerre.photo/adjustment/1.0/", prefix: "DaguerreAdjustment")

    /// Adds the adjustment data to `xmp` (the data in base64).
    func write(into xmp: inout XMPPacket) {
        xmp.set("FormatIdentifier", formatIdentifier, in: Self.namespace)
        xmp.set("FormatVersion", formatVersion, in: Self.namespace)
        xmp.set("Data", Data(data).base64EncodedString(), in: Self.namespace)
    }

    /// The adjustment data in `xmp`, if it has any.
    init?(xmp: XMPPacket) {
        guard let identifier = xmp.value("FormatIdentifier", in: Self.namespace),
            let version = xmp.value("FormatVersion", in: Self.namespace),
            let encoded = xmp.value("Data", in: Self.namespace), let bytes = Data(base64Encoded: encoded)
        else { return nil }
        self.init(formatIdentifier: identifier, formatVersion: version, data: [UInt8](bytes))
    }

    /// The adjustment data saved in a still's XMP (a JPEG's APP1 packet or a HEIC's XMP item),
    /// or nil when it has none.
    public static func read(fromStill path: String) throws(DaguerreError) -> AdjustmentData? {
        let bytes = try ImageSource.readFile(path)
        let xmp = HEIFFile.isHEIF(head: Array(bytes.prefix(64))) ? try HEIFFile(bytes: bytes).xmp : try JPEGFileMetadata(bytes: bytes).xmp
        return xmp.flatMap { AdjustmentData(xmp: $0) }
    }

    // MARK: Sidecar

    /// The sidecar of a still: the same name with the extension `AAE`.
    public static func sidecarURL(forStill still: URL) -> URL { still.deletingPathExtension().appendingPathExtension("AAE") }

    /// The sidecar's property list: the keys of Apple's `.AAE` files, the data in base64.
    func sidecar() throws(DaguerreError) -> [UInt8] {
        let plist: [String: Any] = [
            "adjustmentFormatIdentifier": formatIdentifier, "adjustmentFormatVersion": formatVersion,
            "adjustmentData": Data(data), "adjustmentBaseVersion": 0,
        ]
        do {
            return [UInt8](try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0))
        } catch {
            throw .invalidArgument(what: "Adjustment data", problem: "could not be written as a property list (\(error))")
        }
    }

    /// Reads an `.AAE` sidecar.
    public init(sidecar url: URL) throws(DaguerreError) {
        let bytes = try ImageSource.readFile(url.path)
        let plist = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any]
        guard let plist, let identifier = plist["adjustmentFormatIdentifier"] as? String,
            let version = plist["adjustmentFormatVersion"] as? String, let data = plist["adjustmentData"] as? Data
        else {
            throw .corruptData(
                format: "adjustment sidecar",
                detail: "it is not a property list with adjustmentFormatIdentifier, adjustmentFormatVersion and adjustmentData",
                path: url.path)
        }
        self.init(formatIdentifier: identifier, formatVersion: version, data: [UInt8](data))
    }
}
