// What `daguerre inspect` reports: each reader's findings as a JSON-ready tree.
import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import Foundation

/// Builds the inspection report of one file from Daguerre's own readers.
enum FileInspection {
    static func report(path: String) throws -> [String: Any] {
        // Only the first bytes decide the format; each reader then reads what it needs (a
        // movie's reader, only its movie atom).
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DaguerreError.io(operation: "open", path: path, reason: "it does not exist or is not readable")
        }
        // 256 bytes hold a HEIF file's whole ftyp box (its compatible brands tell it from a movie).
        let header = [UInt8](try handle.read(upToCount: 256) ?? Data())
        try handle.close()
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var out: [String: Any] = ["file": path, "bytes": size]
        if header.starts(with: [0xFF, 0xD8]) {
            out["format"] = "JPEG"
            out.merge(try jpeg(path: path)) { $1 }
        } else if ImageFileFormat.detect(header: header) == .tiff,
            case let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))),
            DNGReader.isDNG(head: bytes) == true
        {
            out["format"] = "DNG"
            do { out.merge(self.dng(try DNGReader.read(bytes: bytes))) { $1 } } catch { out["error"] = error.at(path: path).description }
        } else if HEIFFile.isHEIF(head: header) {
            out.merge(try heif(path: path)) { $1 }
        } else if let movie = try QuickTimeInspection.report(header: header, path: path) {
            out.merge(movie) { $1 }
        } else {
            let info = try ImageReader.open(path: path).info
            out["format"] = "\(info.format)".uppercased()
            out["width"] = info.width
            out["height"] = info.height
            out["pixelFormat"] = "\(info.pixelFormat)"
            out["colorSpace"] = info.colorSpace.name
        }
        return out
    }

    static func jpeg(path: String) throws -> [String: Any] {
        let info = try JPEGFileMetadata(path: path)
        var out: [String: Any] = ["width": info.width, "height": info.height, "components": info.components]
        if let icc = info.iccProfile {
            out["colorSpace"] = (try? ICCProfile.colorSpace(from: icc).name) ?? "ICC profile (\(icc.count) bytes)"
        } else {
            out["colorSpace"] = "sRGB (no profile)"
        }
        if let m = info.metadata { out["exif"] = exif(m) }
        if let t = info.thumbnail {
            var thumb: [String: Any] = ["bytes": t.count]
            if let d = try? JPEGFileMetadata(bytes: t) {
                thumb["width"] = d.width
                thumb["height"] = d.height
            }
            out["thumbnail"] = thumb
        }
        if let x = info.xmp {
            out["xmp"] = x.properties.mapValues { $0 }
            if let items = x.containerDirectory {
                out["motionPhoto"] = [
                    "items": items.map { ["mime": $0.mime, "semantic": $0.semantic, "length": $0.length ?? 0] },
                    "videoBytesAfterEOI": info.trailerOffset.map { info.byteCount - $0 } ?? 0,
                ]
            }
        }
        if let id = info.metadata?.livePhotoContentIdentifier { out["pairing"] = pairing(id: id, path: path, isStill: true) }
        return out
    }

    /// A HEIF/HEIC still (an iPhone's photo, a Samsung or Google HEIC motion photo).
    static func heif(path: String) throws -> [String: Any] {
        let f = try HEIFFile(path: path)
        var out: [String: Any] = [
            "format": f.formatName, "majorBrand": f.majorBrand, "compatibleBrands": f.compatibleBrands,
            "width": f.width, "height": f.height, "bitDepth": f.bitDepth, "alpha": f.hasAlpha, "images": f.imageCount,
            "colorProfile": f.colorProfile.summary, "colorSpace": f.colorSpace?.name ?? "not representable (\(f.colorProfile.summary))",
        ]
        if f.storedWidth != f.width || f.storedHeight != f.height {
            out["storedWidth"] = f.storedWidth
            out["storedHeight"] = f.storedHeight
        }
        if let m = f.metadata { out["exif"] = exif(m) }
        if let x = f.xmp { out["xmp"] = x.properties.mapValues { $0 } }
        if !f.thumbnails.isEmpty { out["thumbnails"] = f.thumbnails.map { ["width": $0.width, "height": $0.height] } }
        if !f.auxiliaryImages.isEmpty {
            out["auxiliaryImages"] = f.auxiliaryImages.map {
                ["type": $0.type, "kind": $0.kind.rawValue, "width": $0.width, "height": $0.height, "bitDepth": $0.bitDepth]
                    as [String: Any]
            }
        }
        if !f.depthImages.isEmpty {
            out["depthImages"] = f.depthImages.map { d -> [String: Any] in
                var e: [String: Any] = ["width": d.width, "height": d.height, "bitDepth": d.bitDepth]
                if let r = d.representation { e["representation"] = r.rawValue }
                return e
            }
        }
        if let v = f.motionPhotoVideo {
            out["motionPhoto"] = [
                "videoOffset": v.range.lowerBound, "videoBytes": v.range.count, "in": v.inBox ? "mpvd box" : "bytes after the last box",
            ]
        }
        if let id = f.metadata?.livePhotoContentIdentifier { out["pairing"] = pairing(id: id, path: path, isStill: true) }
        return out
    }

    static func exif(_ m: PhotoMetadata) -> [String: Any] {
        var e: [String: Any] = ["orientation": m.orientation, "colorSpace": m.colorSpace == .sRGB ? "sRGB" : "Uncalibrated"]
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: m.timeZoneOffset)
        let pairs: [(String, Any?)] = [
            ("make", m.make), ("model", m.model), ("software", m.software),
            ("dateTimeOriginal", m.dateTimeOriginal.map { formatter.string(from: $0) }),
            ("exposureTime", m.exposureTime), ("fNumber", m.fNumber), ("iso", m.iso), ("focalLength", m.focalLength),
            ("focalLengthIn35mmFilm", m.focalLengthIn35mmFilm), ("flash", m.flash.map { Int($0) }), ("lensModel", m.lensModel),
            ("gps", m.gps.map { ["latitude": $0.latitude, "longitude": $0.longitude, "altitude": $0.altitude ?? 0] }),
            ("makerNote.contentIdentifier", m.livePhotoContentIdentifier),
        ]
        for (k, v) in pairs { if let v { e[k] = v } }
        return e
    }

    static func dng(_ d: DNGImage) -> [String: Any] {
        var out: [String: Any] = [
            "dngVersion": d.dngVersion.map(String.init).joined(separator: "."),
            "uniqueCameraModel": d.uniqueCameraModel,
            "width": d.rawSize.width, "height": d.rawSize.height,
            "colorMatrix1": d.color.colorMatrix1, "calibrationIlluminant1": Int(d.color.calibrationIlluminant1.rawValue),
            "baselineExposure": d.color.baselineExposure, "exif": exif(d.metadata),
        ]
        if let m = d.mosaicLayout {
            out.merge([
                "rawKind": "CFA", "cfa": m.pattern.fourCC, "bitsPerSample": m.bitsPerSample,
                "blackLevel": m.blackLevel, "whiteLevel": m.whiteLevel,
            ]) { $1 }
        } else if let l = d.linearRaw {
            out.merge([
                "rawKind": "LinearRaw", "samplesPerPixel": l.samplesPerPixel, "bitsPerSample": l.bitsPerSample,
                "blackLevel": l.blackLevel, "whiteLevel": l.whiteLevel,
            ]) { $1 }
        }
        if let m = d.color.colorMatrix2 { out["colorMatrix2"] = m }
        if let i = d.color.calibrationIlluminant2 { out["calibrationIlluminant2"] = Int(i.rawValue) }
        if let m = d.color.forwardMatrix1 { out["forwardMatrix1"] = m }
        if let m = d.color.forwardMatrix2 { out["forwardMatrix2"] = m }
        if let n = d.color.asShotNeutral { out["asShotNeutral"] = n }
        if !d.color.noiseProfile.isEmpty { out["noiseProfile"] = d.color.noiseProfile.map { [$0.scale, $0.offset] } }
        if let a = d.activeArea { out["activeArea"] = [a.y, a.x, a.y + a.height, a.x + a.width] }
        if let c = d.defaultCrop { out["defaultCrop"] = ["x": c.x, "y": c.y, "width": c.width, "height": c.height] }
        if let p = d.preview { out["preview"] = ["width": p.width, "height": p.height] }
        if !d.opcodeLists.isEmpty {
            out["opcodeLists"] = d.opcodeLists.map { ["stage": $0.stage.rawValue, "opcodes": $0.opcodes.map(\.name)] }
        }
        return out
    }

    /// The Live Photo partner next to `path` (same name, .MOV/.mov or .JPG/.jpg/.HEIC/.heic), and
    /// whether its identifier matches.
    static func pairing(id: String, path: String, isStill: Bool) -> [String: Any] {
        let base = URL(fileURLWithPath: path).deletingPathExtension().path
        let candidates = isStill ? ["mov", "MOV"] : ["jpg", "JPG", "jpeg", "HEIC", "heic"]
        var out: [String: Any] = ["contentIdentifier": id]
        for ext in candidates {
            let partner = base + "." + ext
            guard FileManager.default.fileExists(atPath: partner) else { continue }
            let partnerID: String? =
                isStill
                ? (try? MovieReader(path: partner))?.contentIdentifier
                : ext.lowercased() == "heic"
                    ? (try? HEIFFile(path: partner))?.metadata?.livePhotoContentIdentifier
                    : (try? JPEGFileMetadata(path: partner))?.metadata?.livePhotoContentIdentifier
            out["partner"] = partner
            out["partnerContentIdentifier"] = partnerID ?? "none"
            out["paired"] = partnerID == id
            break
        }
        return out
    }

    /// Indented text for people.
    static func text(_ value: Any, indent: String = "") -> String {
        if let d = value as? [String: Any] {
            return d.keys.sorted().map { k in
                let v = d[k]!
                if v is [String: Any] || (v as? [Any])?.first is [String: Any] {
                    return "\(indent)\(k):\n" + text(v, indent: indent + "  ")
                }
                return "\(indent)\(k): \(text(v))"
            }.joined(separator: "\n")
        }
        if let a = value as? [Any] {
            if a.first is [String: Any] { return a.map { text($0, indent: indent + "- ") }.joined(separator: "\n") }
            return "[" + a.map { text($0) }.joined(separator: ", ") + "]"
        }
        return "\(value)"
    }
}
