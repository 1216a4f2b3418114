// PhotoMetadata <-> EXIF IFDs (EXIF 2.32 / CIPA DC-008-2019 tags, TIFF 6.0 IFD0/IFD1 fields).
import DaguerreCore
import Foundation

/// Builds and parses the EXIF directories of a photo: IFD0 with its EXIF and GPS children, and
/// IFD1 with the thumbnail (SPEC P12, V4).
///
/// The same builder serves JPEG (APP1) and DNG (IFD0's EXIF sub-IFD): `forDNG` leaves out the
/// JPEG-only fields (ComponentsConfiguration, pixel dimensions of a compressed image).
///
/// ```swift
/// let ifds = EXIFCodec.directories(for: metadata, thumbnail: thumbJPEG)
/// let block = TIFFSerializer.file(ifds, byteOrder: .bigEndian)
/// let back = try EXIFCodec.metadata(from: TIFFStructureReader(bytes: block))
/// ```
public enum EXIFCodec {
    /// "YYYY:MM:DD HH:MM:SS" at a fixed offset from UTC.
    static func exifDate(_ date: Date, offset: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset) ?? TimeZone(secondsFromGMT: 0)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d:%02d:%02d %02d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// "+HH:MM" (EXIF 2.31 OffsetTime*).
    static func exifOffset(_ seconds: Int) -> String {
        let m = abs(seconds) / 60
        return String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", m / 60, m % 60)
    }

    static func parseDate(_ text: String, offset: String?) -> (Date, Int)? {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        guard parts.count >= 6 else { return nil }
        var seconds = 0
        if let o = offset, o.count >= 6, let h = Int(o.dropFirst().prefix(2)), let m = Int(o.suffix(2)) {
            seconds = (h * 60 + m) * 60 * (o.hasPrefix("-") ? -1 : 1)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: seconds) ?? TimeZone(secondsFromGMT: 0)!
        let dc = DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5])
        return calendar.date(from: dc).map { ($0, seconds) }
    }

    /// IFD0 (with EXIF and GPS children) and, when `thumbnail` is given, IFD1 holding it.
    public static func directories(for m: PhotoMetadata, thumbnail: [UInt8]? = nil, forDNG: Bool = false) -> [TIFFDirectory] {
        var ifd0 = TIFFDirectory()
        ifd0FieldsInto(&ifd0, m, forDNG: forDNG)
        ifd0.children[.exifIFD] = [exifDirectory(m, forDNG: forDNG)]
        if let gps = m.gps, gps.latitude.isFinite, gps.longitude.isFinite, abs(gps.latitude) <= 90, abs(gps.longitude) <= 180 {
            ifd0.children[.gpsIFD] = [gpsDirectory(gps)]
        }
        guard let thumbnail else { return [ifd0] }
        var ifd1 = TIFFDirectory()
        ifd1[.compression] = .shorts([6])
        ifd1[.xResolution] = .rationals([TIFFRational(72, 1)])
        ifd1[.yResolution] = .rationals([TIFFRational(72, 1)])
        ifd1[.resolutionUnit] = .shorts([2])
        ifd1.data = .thumbnail(thumbnail)
        return [ifd0, ifd1]
    }

    /// The IFD0 fields that describe the capture (Make, Model, Orientation, Software, DateTime).
    public static func ifd0FieldsInto(_ ifd0: inout TIFFDirectory, _ m: PhotoMetadata, forDNG: Bool) {
        if let v = m.make { ifd0[.make] = .ascii(v) }
        if let v = m.model { ifd0[.model] = .ascii(v) }
        ifd0[.orientation] = .shorts([UInt16(clamping: (1...8).contains(m.orientation) ? m.orientation : 1)])
        if let v = m.software { ifd0[.software] = .ascii(v) }
        if let d = m.dateTimeOriginal { ifd0[.dateTime] = .ascii(exifDate(d, offset: m.timeZoneOffset)) }
        if !forDNG {
            ifd0[.xResolution] = .rationals([TIFFRational(72, 1)])
            ifd0[.yResolution] = .rationals([TIFFRational(72, 1)])
            ifd0[.resolutionUnit] = .shorts([2])
            ifd0[.yCbCrPositioning] = .shorts([1])
        }
    }

    static func exifDirectory(_ m: PhotoMetadata, forDNG: Bool) -> TIFFDirectory {
        var e = TIFFDirectory()
        e[.exifVersion] = .undefined(Array("0232".utf8))
        if let t = m.exposureTime, t.isFinite, t > 0 {
            // Shutter speeds shorter than 1 s are written 1/N, as cameras do.
            e[.exposureTime] = .rationals([
                t < 1 ? TIFFRational(1, UInt32(min((1 / t).rounded(), 4e9))) : TIFFRational(t, denominator: 1000)
            ])
            e[.shutterSpeedValue] = .srationals([TIFFSRational(-log2(t), denominator: 1000)])
        }
        if let f = m.fNumber, f.isFinite, f > 0 {
            e[.fNumber] = .rationals([TIFFRational(f, denominator: 100)])
            e[.apertureValue] = .rationals([TIFFRational(2 * log2(f), denominator: 1000)])
        }
        e[.exposureProgram] = .shorts([2])
        if let iso = m.iso {
            e[.photographicSensitivity] = .shorts([UInt16(clamping: iso)])
            e[.sensitivityType] = .shorts([2])
        }
        if let d = m.dateTimeOriginal {
            let text = exifDate(d, offset: m.timeZoneOffset)
            let offset = exifOffset(m.timeZoneOffset)
            e[.dateTimeOriginal] = .ascii(text)
            e[.dateTimeDigitized] = .ascii(text)
            e[.offsetTime] = .ascii(offset)
            e[.offsetTimeOriginal] = .ascii(offset)
            e[.offsetTimeDigitized] = .ascii(offset)
            let millis = Int(((d.timeIntervalSince1970 * 1000).rounded()).truncatingRemainder(dividingBy: 1000))
            e[.subSecTimeOriginal] = .ascii(String(format: "%03d", max(0, millis)))
        }
        if let b = m.exposureBias { e[.exposureBiasValue] = .srationals([TIFFSRational(b, denominator: 100)]) }
        e[.meteringMode] = .shorts([5])
        if let f = m.flash { e[.flash] = .shorts([f]) }
        if let f = m.focalLength, f.isFinite, f > 0 { e[.focalLength] = .rationals([TIFFRational(f, denominator: 100)]) }
        if let f = m.focalLengthIn35mmFilm { e[.focalLengthIn35mmFilm] = .shorts([UInt16(clamping: f)]) }
        e[.sensingMethod] = .shorts([2])
        e[.sceneType] = .undefined([1])
        e[.exposureMode] = .shorts([0])
        e[.whiteBalance] = .shorts([0])
        e[.sceneCaptureType] = .shorts([0])
        if let v = m.lensMake { e[.lensMake] = .ascii(v) }
        if let v = m.lensModel { e[.lensModel] = .ascii(v) }
        if !forDNG {
            e[.componentsConfiguration] = .undefined([1, 2, 3, 0])
            e[.flashpixVersion] = .undefined(Array("0100".utf8))
            e[.colorSpace] = .shorts([m.colorSpace.rawValue])
            if let w = m.pixelWidth, let h = m.pixelHeight {
                e[.pixelXDimension] = .longs([UInt32(clamping: w)])
                e[.pixelYDimension] = .longs([UInt32(clamping: h)])
            }
        }
        if m.livePhotoContentIdentifier != nil || m.writesAppleMakerNote {
            e[.makerNote] = .undefined(AppleMakerNote(contentIdentifier: m.livePhotoContentIdentifier).encoded())
        }
        return e
    }

    static func gpsDirectory(_ g: GPSLocation) -> TIFFDirectory {
        func dms(_ degrees: Double) -> [TIFFRational] {
            let a = abs(degrees)
            let d = a.rounded(.down)
            let mFull = (a - d) * 60
            let m = mFull.rounded(.down)
            let s = (mFull - m) * 60
            return [TIFFRational(UInt32(d), 1), TIFFRational(UInt32(m), 1), TIFFRational(s, denominator: 10_000)]
        }
        var d = TIFFDirectory()
        d[.gpsVersionID] = .bytes([2, 3, 0, 0])
        d[.gpsLatitudeRef] = .ascii(g.latitude < 0 ? "S" : "N")
        d[.gpsLatitude] = .rationals(dms(g.latitude))
        d[.gpsLongitudeRef] = .ascii(g.longitude < 0 ? "W" : "E")
        d[.gpsLongitude] = .rationals(dms(g.longitude))
        if let a = g.altitude, a.isFinite {
            d[.gpsAltitudeRef] = .bytes([a < 0 ? 1 : 0])
            d[.gpsAltitude] = .rationals([TIFFRational(abs(a), denominator: 1000)])
        }
        if let t = g.timestamp {
            let text = exifDate(t, offset: 0)
            let parts = text.split(separator: " ")
            let hms = parts[1].split(separator: ":").compactMap { UInt32($0) }
            d[.gpsTimeStamp] = .rationals(hms.map { TIFFRational($0, 1) })
            d[.gpsDateStamp] = .ascii(String(parts[0]))
        }
        return d
    }

    // MARK: Reading

    /// The metadata in an EXIF tree (IFD0 of `reader.tree()` and its children).
    public static func metadata(from reader: TIFFStructureReader) throws(DaguerreError) -> PhotoMetadata {
        guard let ifd0 = try reader.tree().first else { return PhotoMetadata() }
        return metadata(ifd0: ifd0, reader: reader)
    }

    /// The metadata and the IFD1 thumbnail JPEG of an EXIF block whose TIFF header starts at
    /// `origin`: 6 in a JPEG's APP1 segment (after "Exif\0\0"), 4 plus the stated offset in a
    /// HEIF file's Exif item.
    public static func read(block: [UInt8], origin: Int) throws(DaguerreError) -> (metadata: PhotoMetadata?, thumbnail: [UInt8]?) {
        let reader = try TIFFStructureReader(bytes: block, origin: origin, format: "EXIF")
        let tree = try reader.tree()
        var found: PhotoMetadata?
        if let ifd0 = tree.first { found = metadata(ifd0: ifd0, reader: reader) }
        guard tree.count > 1, let o = tree[1].uint(.jpegInterchangeFormat, in: reader),
            let n = tree[1].uint(.jpegInterchangeFormatLength, in: reader)
        else { return (found, nil) }
        let start = origin + Int(o)
        let end = start + Int(n)
        guard end <= block.count else {
            throw .corruptData(format: "EXIF", detail: "the thumbnail runs past its segment", path: nil)
        }
        return (found, Array(block[start..<end]))
    }

    /// The metadata in an already-parsed IFD0.
    public static func metadata(ifd0: TIFFNode, reader r: TIFFStructureReader) -> PhotoMetadata {
        var m = PhotoMetadata(make: ifd0.string(.make, in: r), model: ifd0.string(.model, in: r), software: ifd0.string(.software, in: r))
        if let o = ifd0.uint(.orientation, in: r), (1...8).contains(o) { m.orientation = Int(o) }
        if let e = ifd0.children[.exifIFD]?.first {
            if let d = e.string(.dateTimeOriginal, in: r), let (date, offset) = parseDate(d, offset: e.string(.offsetTimeOriginal, in: r)) {
                m.dateTimeOriginal = date
                m.timeZoneOffset = offset
            }
            m.exposureTime = e.double(.exposureTime, in: r)
            m.fNumber = e.double(.fNumber, in: r)
            m.iso = e.uint(.photographicSensitivity, in: r).map(Int.init)
            m.focalLength = e.double(.focalLength, in: r)
            m.focalLengthIn35mmFilm = e.uint(.focalLengthIn35mmFilm, in: r).map(Int.init)
            m.exposureBias = e.double(.exposureBiasValue, in: r)
            m.flash = e.uint(.flash, in: r).map { UInt16(truncatingIfNeeded: $0) }
            if let c = e.uint(.colorSpace, in: r) { m.colorSpace = c == 1 ? .sRGB : .uncalibrated }
            m.lensMake = e.string(.lensMake, in: r)
            m.lensModel = e.string(.lensModel, in: r)
            m.pixelWidth = e.uint(.pixelXDimension, in: r).map(Int.init)
            m.pixelHeight = e.uint(.pixelYDimension, in: r).map(Int.init)
            if let entry = e.entries[.makerNote], let bytes = try? r.rawBytes(entry), let note = AppleMakerNote(parsing: Array(bytes)) {
                m.livePhotoContentIdentifier = note.contentIdentifier
                m.writesAppleMakerNote = note.contentIdentifier == nil
            }
        }
        if let g = ifd0.children[.gpsIFD]?.first, let lat = g.doubles(.gpsLatitude, in: r), let lon = g.doubles(.gpsLongitude, in: r),
            lat.count == 3, lon.count == 3
        {
            var location = GPSLocation(latitude: lat[0] + lat[1] / 60 + lat[2] / 3600, longitude: lon[0] + lon[1] / 60 + lon[2] / 3600)
            if g.string(.gpsLatitudeRef, in: r) == "S" { location.latitude.negate() }
            if g.string(.gpsLongitudeRef, in: r) == "W" { location.longitude.negate() }
            if let a = g.double(.gpsAltitude, in: r) { location.altitude = g.uint(.gpsAltitudeRef, in: r) == 1 ? -a : a }
            if let day = g.string(.gpsDateStamp, in: r), let t = g.doubles(.gpsTimeStamp, in: r), t.count == 3,
                t.allSatisfy({ $0.isFinite && $0 >= 0 && $0 < 100 }),
                let (date, _) = parseDate(day + " " + String(format: "%02d:%02d:%02d", Int(t[0]), Int(t[1]), Int(t[2])), offset: nil)
            {
                location.timestamp = date
            }
            m.gps = location
        }
        return m
    }
}
