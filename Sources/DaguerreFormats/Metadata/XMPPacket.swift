// XMP packets (ISO 16684-1, Adobe XMP Part 3 for JPEG APP1): written as RDF/XML text, read with
// Foundation's XMLParser (libxml2). Holds simple properties plus the Google Container directory
// that Motion Photos need.
import DaguerreCore
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XMP packet: simple properties by namespace, plus a Container:Directory (Motion Photo 1.0).
///
/// ```swift
/// var xmp = XMPPacket()
/// xmp.set("MotionPhoto", "1", in: .googleCamera)
/// xmp.containerDirectory = [.init(mime: "image/jpeg", semantic: "Primary"),
///                           .init(mime: "video/mp4", semantic: "MotionPhoto", length: movie.count)]
/// let text = xmp.serialized()
/// ```
public struct XMPPacket: Sendable, Equatable {
    /// An XMP namespace: its URI and the prefix used when writing.
    public struct Namespace: Sendable, Hashable {
        public var uri: String
        public var prefix: String
        public init(uri: String, prefix: String) {
            self.uri = uri
            self.prefix = prefix
        }
        public static let googleCamera = Namespace(uri: "http://ns.google.com/photos/1.0/camera/", prefix: "GCamera")
        public static let container = Namespace(uri: "http://ns.google.com/photos/1.0/container/", prefix: "Container")
        public static let containerItem = Namespace(uri: "http://ns.google.com/photos/1.0/container/item/", prefix: "Item")
        public static let xmp = Namespace(uri: "http://ns.adobe.com/xap/1.0/", prefix: "xmp")
        public static let dc = Namespace(uri: "http://purl.org/dc/elements/1.1/", prefix: "dc")
        public static let photoshop = Namespace(uri: "http://ns.adobe.com/photoshop/1.0/", prefix: "photoshop")
    }

    /// One item of a Container:Directory.
    public struct ContainerItem: Sendable, Equatable {
        public var mime: String
        public var semantic: String
        public var length: Int?
        public var padding: Int?
        public init(mime: String, semantic: String, length: Int? = nil, padding: Int? = nil) {
            self.mime = mime
            self.semantic = semantic
            self.length = length
            self.padding = padding
        }
    }

    /// Simple properties: namespace URI → name → value.
    public var properties: [String: [String: String]] = [:]
    /// Prefixes for the namespaces in ``properties`` (for writing).
    public var prefixes: [String: String] = [:]
    /// The Google Container directory, when the file is a container (Motion Photo).
    public var containerDirectory: [ContainerItem]?

    public init() {}

    public mutating func set(_ name: String, _ value: String, in ns: Namespace) {
        properties[ns.uri, default: [:]][name] = value
        prefixes[ns.uri] = ns.prefix
    }

    public func value(_ name: String, in ns: Namespace) -> String? { properties[ns.uri]?[name] }

    /// The packet as UTF-8 text with the `<?xpacket?>` wrapper.
    public func serialized() -> String {
        func esc(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: ">", with: "&gt;")
        }
        // URI → prefix. Every namespace keeps its own prefix where it has a usable one that no
        // other namespace took first; the rest get ns0, ns1, … in the order of their URIs, so
        // the same packet is always the same text.
        var prefixOf: [String: String] = [:]
        var taken: Set<String> = ["rdf", "x"]
        if containerDirectory != nil {
            for ns in [Namespace.container, Namespace.containerItem] {
                prefixOf[ns.uri] = ns.prefix
                taken.insert(ns.prefix)
            }
        }
        // Properties with no namespace cannot be written as RDF/XML attributes: left out.
        let written = properties.keys.filter { !$0.isEmpty }.sorted()
        var unnamed: [String] = []
        for uri in written where prefixOf[uri] == nil {
            if let prefix = prefixes[uri], Self.isUsablePrefix(prefix), !taken.contains(prefix) {
                prefixOf[uri] = prefix
                taken.insert(prefix)
            } else {
                unnamed.append(uri)
            }
        }
        var next = 0
        for uri in unnamed {
            while taken.contains("ns\(next)") { next += 1 }
            prefixOf[uri] = "ns\(next)"
            taken.insert("ns\(next)")
        }
        var s = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
        s += "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\" x:xmptk=\"Daguerre\">\n"
        s += " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
        s += "  <rdf:Description rdf:about=\"\""
        for (uri, prefix) in prefixOf.sorted(by: { $0.value < $1.value }) { s += "\n    xmlns:\(prefix)=\"\(esc(uri))\"" }
        for uri in written {
            guard let prefix = prefixOf[uri] else { continue }
            for (name, value) in (properties[uri] ?? [:]).sorted(by: { $0.key < $1.key }) {
                s += "\n    \(prefix):\(name)=\"\(esc(value))\""
            }
        }
        if let items = containerDirectory {
            s += ">\n   <Container:Directory>\n    <rdf:Seq>\n"
            for item in items {
                s += "     <rdf:li rdf:parseType=\"Resource\">\n      <Container:Item\n"
                s += "        Item:Mime=\"\(esc(item.mime))\"\n        Item:Semantic=\"\(esc(item.semantic))\""
                if let l = item.length { s += "\n        Item:Length=\"\(l)\"" }
                if let p = item.padding { s += "\n        Item:Padding=\"\(p)\"" }
                s += "/>\n     </rdf:li>\n"
            }
            s += "    </rdf:Seq>\n   </Container:Directory>\n  </rdf:Description>\n"
        } else {
            s += "/>\n"
        }
        s += " </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>"
        return s
    }

    /// Parses packet text. Unknown structure is ignored; malformed XML is `.corruptData`.
    public init(parsing text: String) throws(DaguerreError) {
        let collector = XMPCollector()
        let parser = XMLParser(data: Self.withoutProcessingInstructions(text))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.delegate = collector
        guard parser.parse() else {
            throw .corruptData(format: "XMP", detail: parser.parserError.map { "\($0)" } ?? "the XML does not parse", path: nil)
        }
        properties = collector.properties
        prefixes = collector.prefixes
        containerDirectory = collector.items.isEmpty && !collector.sawDirectory ? nil : collector.items
    }
}

extension XMPPacket {
    /// An XML name without a colon (NCName), as a namespace prefix must be: letters, digits, `_`,
    /// `-` and `.`, not starting with a digit, `-` or `.`, nor with "xml".
    static func isUsablePrefix(_ prefix: String) -> Bool {
        guard let first = prefix.unicodeScalars.first, first.properties.isAlphabetic || first == "_",
            !prefix.lowercased().hasPrefix("xml")
        else { return false }
        return prefix.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || $0.properties.numericType != nil || "_-.".unicodeScalars.contains($0)
        }
    }

    /// The packet's bytes with every processing instruction (`<?…?>`) removed.
    ///
    /// XMP's only PIs are the `<?xpacket?>` wrapper, which carries nothing the packet needs, and
    /// swift-corelibs-foundation's XMLParser dereferences a null pointer on a PI without data
    /// (found by FuzzJPEGMetadata; Tests/fuzz-regressions/jpegmeta-xmp-pi-crash.jpg): so no PI
    /// ever reaches it. An unterminated PI drops the rest of the text, which then fails to parse.
    package static func withoutProcessingInstructions(_ text: String) -> Data {
        let b = Array(text.utf8)
        var out = [UInt8]()
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            if b[i] == 0x3C, i + 1 < b.count, b[i + 1] == 0x3F {  // "<?"
                var j = i + 2
                while j + 1 < b.count, !(b[j] == 0x3F && b[j + 1] == 0x3E) { j += 1 }  // "?>"
                i = j + 2
                continue
            }
            out.append(b[i])
            i += 1
        }
        return Data(out)
    }
}

/// The XMLParser delegate: attribute-form and element-form simple properties, and
/// Container:Directory items.
private final class XMPCollector: NSObject, XMLParserDelegate {
    package var properties: [String: [String: String]] = [:]
    /// The prefix each property namespace was first written with.
    package var prefixes: [String: String] = [:]
    package var items: [XMPPacket.ContainerItem] = []
    package var sawDirectory = false
    private var stack: [(uri: String, name: String)] = []
    private var text = ""
    private static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    private static let ignoredURIs: Set<String> = [rdf, "adobe:ns:meta/", "http://www.w3.org/2000/xmlns/"]

    package func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let uri = namespaceURI ?? ""
        stack.append((uri, name))
        text = ""
        if uri == XMPPacket.Namespace.container.uri && name == "Directory" { sawDirectory = true }
        if uri == XMPPacket.Namespace.container.uri && name == "Item" {
            // Attributes arrive by qualified name; the Item namespace prefix may differ, so match local names.
            func attr(_ local: String) -> String? {
                attributes.first { $0.key.split(separator: ":").last.map(String.init) == local }?.value
            }
            items.append(
                .init(
                    mime: attr("Mime") ?? "", semantic: attr("Semantic") ?? "",
                    length: attr("Length").flatMap { Int($0) }, padding: attr("Padding").flatMap { Int($0) }))
            return
        }
        if uri == Self.rdf && name == "Description" {
            // Properties in attribute form; rdf:about and the like are RDF's syntax, not properties.
            for (qname, value) in attributes {
                let parts = qname.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let nsURI = namespaces[String(parts[0])], !Self.ignoredURIs.contains(nsURI) else { continue }
                properties[nsURI, default: [:]][String(parts[1])] = value
                if prefixes[nsURI] == nil { prefixes[nsURI] = String(parts[0]) }
            }
        }
    }

    /// Prefix → URI as declared so far (attributes keep their prefixes).
    private var namespaces: [String: String] = [:]
    package func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        namespaces[prefix] = namespaceURI
    }

    package func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    package func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let uri = namespaceURI ?? ""
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // An element-form simple property: a leaf directly inside rdf:Description.
        if !Self.ignoredURIs.contains(uri), !trimmed.isEmpty, stack.count >= 2,
            stack[stack.count - 2].uri == Self.rdf, stack[stack.count - 2].name == "Description"
        {
            properties[uri, default: [:]][name] = trimmed
            let parts = (qualifiedName ?? "").split(separator: ":", maxSplits: 1)
            if prefixes[uri] == nil, parts.count == 2 { prefixes[uri] = String(parts[0]) }
        }
        text = ""
        _ = stack.popLast()
    }
}
