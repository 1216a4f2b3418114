// Writes DNG 1.4 files (SPEC R1, R5): an RGB preview in IFD0, the Bayer mosaic in a SubIFD as
// lossless-JPEG tiles (our codec, see LosslessJPEG.swift), colour and EXIF tags. The TIFF layout
// is the hand-written IFD layer (TIFFSerializer), because libtiff cannot carry our tiles.
import DaguerreCore
import Dispatch

/// How the mosaic is stored.
public enum DNGCompression: Sendable, Equatable {
    /// Lossless JPEG (Compression 7) tiles with the two-component trick (DNG 1.4 §3, "Compression").
    case losslessJPEG
    /// Uncompressed 16-bit tiles.
    case none
    /// Uncompressed 16-bit strips of ``DNGWriter/stripRows`` rows, the layout of many cameras'
    /// uncompressed DNGs (no tiles).
    case noneInStrips
}

/// Writes ``DNGImage`` values as DNG 1.4.
///
/// Layout with a preview: IFD0 is the RGB preview (NewSubFileType 1) holding the DNG-wide tags,
/// and the raw IFD is its SubIFD (NewSubFileType 0). Without a preview, IFD0 is the raw IFD.
/// Tiles are 256×256, encoded in parallel; the file appears atomically.
///
/// ```swift
/// try DNGWriter.write(dng, to: "IMG_0001.dng")
/// let bytes = try DNGWriter.data(for: dng, compression: .none)
/// ```
public enum DNGWriter {
    public static let tileSize = 256
    /// Rows per strip for ``DNGCompression/noneInStrips`` (the last strip holds what is left).
    public static let stripRows = 16

    /// The tile edge for a mosaic `width` photosites wide: 256, except that LibRaw 0.22 misreads
    /// two-component tiles when exactly two of them span the image, so a 512-wide mosaic gets
    /// one 512-wide tile column instead.
    public static func tileSize(forWidth width: Int) -> Int { width == 2 * tileSize ? 2 * tileSize : tileSize }

    /// Tile width and height: ``tileSize(forWidth:)``, shrunk for images smaller than a tile to
    /// the image rounded up to a multiple of 16 (TIFF 6.0 requires multiples of 16).
    static func tileShape(width: Int, height: Int) -> (width: Int, height: Int) {
        func up16(_ v: Int) -> Int { (v + 15) / 16 * 16 }
        return (min(tileSize(forWidth: width), up16(width)), min(tileSize, up16(height)))
    }

    /// The file's bytes.
    public static func data(for image: DNGImage, compression: DNGCompression = .losslessJPEG) throws(DaguerreError) -> [UInt8] {
        let raw: BayerImage
        switch image.rawData {
        case .mosaic(let m): raw = m
        case .storedMosaic(let stored): raw = try stored.decoded()
        case .linear:
            throw .unsupported(
                feature: "writing LinearRaw DNGs", hint: "The writer stores Bayer mosaics (SPEC R1); demosaiced images go to TIFF or JPEG.")
        }
        guard raw.samples.count == raw.width * raw.height else {
            throw .invalidArgument(what: "Bayer samples", problem: "\(raw.samples.count) samples for \(raw.width)×\(raw.height)")
        }
        guard raw.whiteLevel > 0, raw.whiteLevel < 1 << raw.bitsPerSample else {
            throw .invalidArgument(what: "white level \(raw.whiteLevel)", problem: "must fit in \(raw.bitsPerSample) bits")
        }
        if compression == .losslessJPEG, raw.width % 2 != 0 {
            throw .invalidArgument(what: "Bayer width \(raw.width)", problem: "must be even for lossless-JPEG tiles")
        }
        var rawIFD = TIFFDirectory()
        rawIFD[.newSubFileType] = .longs([0])
        rawIFD[.imageWidth] = .longs([UInt32(raw.width)])
        rawIFD[.imageLength] = .longs([UInt32(raw.height)])
        rawIFD[.bitsPerSample] = .shorts([16])
        rawIFD[.compression] = .shorts([compression == .losslessJPEG ? 7 : 1])
        rawIFD[.photometricInterpretation] = .shorts([32803])
        rawIFD[.samplesPerPixel] = .shorts([1])
        rawIFD[.planarConfiguration] = .shorts([1])
        let tile = tileShape(width: raw.width, height: raw.height)
        if compression == .noneInStrips {
            rawIFD[.rowsPerStrip] = .longs([UInt32(stripRows)])
        } else {
            rawIFD[.tileWidth] = .longs([UInt32(tile.width)])
            rawIFD[.tileLength] = .longs([UInt32(tile.height)])
        }
        let area = image.activeArea ?? IntRect(width: raw.width, height: raw.height)
        // DNG counts CFAPattern and BlackLevel from the ActiveArea's top-left; BayerImage from
        // the stored image's (they differ when the ActiveArea starts on an odd row or column).
        if let xTrans = raw.xTrans {
            rawIFD[.cfaRepeatPatternDim] = .shorts([6, 6])
            rawIFD[.cfaPattern] = .bytes(xTrans.shifted(x: area.x, y: area.y).cfaPattern)
        } else {
            rawIFD[.cfaRepeatPatternDim] = .shorts([2, 2])
            rawIFD[.cfaPattern] = .bytes(raw.pattern.shifted(x: area.x, y: area.y).cfaPattern)
        }
        rawIFD[.cfaPlaneColor] = .bytes([0, 1, 2])
        rawIFD[.cfaLayout] = .shorts([1])
        rawIFD[.blackLevelRepeatDim] = .shorts([2, 2])
        rawIFD[.blackLevel] = .rationals(
            BayerPattern.shift(raw.blackLevel, x: area.x, y: area.y).map { TIFFRational($0, denominator: 100) })
        rawIFD[.whiteLevel] = .longs([UInt32(raw.whiteLevel)])
        guard area.x >= 0, area.y >= 0, area.width > 0, area.height > 0, area.x + area.width <= raw.width,
            area.y + area.height <= raw.height
        else {
            throw .invalidArgument(what: "active area \(area)", problem: "must lie inside the \(raw.width)×\(raw.height) mosaic")
        }
        if image.activeArea != nil {
            rawIFD[.activeArea] = .longs([area.y, area.x, area.y + area.height, area.x + area.width].map { UInt32($0) })
        }
        // Demosaicing needs neighbours: the default crop leaves an 8-photosite margin (2 for tiny
        // mosaics), which DNG readers trim (dng_validate warns below 1.9).
        let margin = min(area.width, area.height) >= 64 ? 8.0 : 2.0
        let crop =
            image.defaultCrop
            ?? DNGCrop(
                x: margin, y: margin, width: Double(area.width) - 2 * margin,
                height: Double(area.height) - 2 * margin)
        rawIFD[.defaultScale] = .rationals([TIFFRational(1, 1), TIFFRational(1, 1)])
        rawIFD[.defaultCropOrigin] = .rationals([TIFFRational(crop.x, denominator: 1), TIFFRational(crop.y, denominator: 1)])
        rawIFD[.defaultCropSize] = .rationals([TIFFRational(crop.width, denominator: 1), TIFFRational(crop.height, denominator: 1)])
        rawIFD[.bayerGreenSplit] = .longs([0])
        rawIFD[.antiAliasStrength] = .rationals([TIFFRational(1, 1)])
        rawIFD[.bestQualityScale] = .rationals([TIFFRational(1, 1)])
        if !image.color.noiseProfile.isEmpty {
            rawIFD[.noiseProfile] = .doubles(image.color.noiseProfile.flatMap { [$0.scale, $0.offset] })
        }
        for list in image.opcodeLists { rawIFD[list.stage.tag] = .undefined(list.encoded()) }
        rawIFD.data = compression == .noneInStrips ? .strips(strips(raw)) : .tiles(try tiles(raw, tile: tile, compression: compression))

        // DNG-wide tags live in IFD0 (DNG 1.4 Chapter 4, "IFD 0").
        var ifd0: TIFFDirectory
        if let preview = image.preview {
            ifd0 = try previewDirectory(preview)
            ifd0.children[.subIFDs] = [rawIFD]
        } else {
            ifd0 = rawIFD
        }
        var metadata = image.metadata
        metadata.colorSpace = .sRGB
        EXIFCodec.ifd0FieldsInto(&ifd0, metadata, forDNG: true)
        ifd0.children[.exifIFD] = [EXIFCodec.exifDirectory(metadata, forDNG: true)]
        ifd0[.dngVersion] = .bytes([1, 4, 0, 0])
        ifd0[.dngBackwardVersion] = .bytes(image.opcodeLists.isEmpty ? [1, 1, 0, 0] : [1, 3, 0, 0])
        ifd0[.uniqueCameraModel] = .ascii(image.uniqueCameraModel)
        try colorTags(image.color, into: &ifd0)
        return TIFFSerializer.file([ifd0], byteOrder: .littleEndian)
    }

    /// Writes the file atomically (temporary file, then rename).
    public static func write(_ image: DNGImage, to path: String, compression: DNGCompression = .losslessJPEG) throws(DaguerreError) {
        let bytes = try data(for: image, compression: compression)
        try AtomicFile.write(bytes, to: path)
    }

    static func matrix(_ m: [Double], _ what: String) throws(DaguerreError) -> TIFFValue {
        guard m.count == 9, m.allSatisfy(\.isFinite) else {
            throw .invalidArgument(what: what, problem: "must be 9 finite numbers (row-major 3×3)")
        }
        return .srationals(m.map { TIFFSRational($0, denominator: 10_000) })
    }

    static func colorTags(_ c: RawColorCalibration, into ifd: inout TIFFDirectory) throws(DaguerreError) {
        ifd[.colorMatrix1] = try matrix(c.colorMatrix1, "ColorMatrix1")
        ifd[.calibrationIlluminant1] = .shorts([c.calibrationIlluminant1.rawValue])
        if let m = c.colorMatrix2 {
            ifd[.colorMatrix2] = try matrix(m, "ColorMatrix2")
            ifd[.calibrationIlluminant2] = .shorts([(c.calibrationIlluminant2 ?? .d65).rawValue])
        }
        if let m = c.forwardMatrix1 { ifd[.forwardMatrix1] = try matrix(m, "ForwardMatrix1") }
        if let m = c.forwardMatrix2 { ifd[.forwardMatrix2] = try matrix(m, "ForwardMatrix2") }
        if let m = c.cameraCalibration1 { ifd[.cameraCalibration1] = try matrix(m, "CameraCalibration1") }
        if let m = c.cameraCalibration2 { ifd[.cameraCalibration2] = try matrix(m, "CameraCalibration2") }
        if let n = c.asShotNeutral {
            guard n.count == 3, n.allSatisfy({ $0.isFinite && $0 > 0 }) else {
                throw .invalidArgument(what: "AsShotNeutral", problem: "must be 3 positive numbers")
            }
            ifd[.asShotNeutral] = .rationals(n.map { TIFFRational($0, denominator: 1_000_000) })
        } else if let xy = c.asShotWhiteXY, xy.count == 2 {
            ifd[.asShotWhiteXY] = .rationals(xy.map { TIFFRational($0, denominator: 1_000_000) })
        } else {
            // No white given: the shot is taken as lit by D65 (DNG readers fall back to guessing,
            // and dng_validate warns when a file names no white at all).
            ifd[.asShotWhiteXY] = .rationals([TIFFRational(0.3127, denominator: 1_000_000), TIFFRational(0.3290, denominator: 1_000_000)])
        }
        if let a = c.analogBalance, a.count == 3 { ifd[.analogBalance] = .rationals(a.map { TIFFRational($0, denominator: 1_000_000) }) }
        ifd[.baselineExposure] = .srationals([TIFFSRational(c.baselineExposure, denominator: 100)])
    }

    /// IFD0 as an uncompressed 8-bit RGB preview (sRGB), at most 1024 pixels on its long side.
    static func previewDirectory(_ preview: PixelBuffer) throws(DaguerreError) -> TIFFDirectory {
        let rgb = try PreviewScaler.fit(preview, maxWidth: 1024, maxHeight: 1024)
        var d = TIFFDirectory()
        d[.newSubFileType] = .longs([1])
        d[.imageWidth] = .longs([UInt32(rgb.width)])
        d[.imageLength] = .longs([UInt32(rgb.height)])
        d[.bitsPerSample] = .shorts([8, 8, 8])
        d[.compression] = .shorts([1])
        d[.photometricInterpretation] = .shorts([2])
        d[.samplesPerPixel] = .shorts([3])
        d[.planarConfiguration] = .shorts([1])
        d[.rowsPerStrip] = .longs([UInt32(rgb.height)])
        d[.previewColorSpace] = .longs([2])
        var strip = [UInt8]()
        strip.reserveCapacity(rgb.width * rgb.height * 3)
        for y in 0..<rgb.height {
            strip += UnsafeBufferPointer(start: rgb.rowAddress(y).assumingMemoryBound(to: UInt8.self), count: rgb.width * 3)
        }
        d.data = .strips([strip])
        return d
    }

    /// The mosaic as uncompressed little-endian strips of ``stripRows`` rows.
    static func strips(_ raw: BayerImage) -> [[UInt8]] {
        stride(from: 0, to: raw.height, by: stripRows).map { y0 in
            let start = y0 * raw.width
            let end = min(y0 + stripRows, raw.height) * raw.width
            var out = [UInt8](repeating: 0, count: (end - start) * 2)
            for i in start..<end {
                out[(i - start) * 2] = UInt8(raw.samples[i] & 0xFF)
                out[(i - start) * 2 + 1] = UInt8(raw.samples[i] >> 8)
            }
            return out
        }
    }

    /// The mosaic cut into 256×256 tiles (edge tiles padded by repeating the last row and
    /// column), each compressed on its own, all cores in parallel.
    static func tiles(_ raw: BayerImage, tile: (width: Int, height: Int), compression: DNGCompression) throws(DaguerreError) -> [[UInt8]] {
        let t = tile.width
        let th = tile.height
        let across = (raw.width + t - 1) / t
        let down = (raw.height + th - 1) / th
        let results = TileResults<[UInt8]>(count: across * down)
        let precision = raw.bitsPerSample
        raw.samples.withUnsafeBufferPointer { all in
            let source = UnsafeTransfer(all.baseAddress!)
            // Safety: each iteration reads the shared mosaic and writes only its own results slot.
            WorkerPool.forEach(across * down) { index in
                let tx = index % across
                let ty = index / across
                let x0 = tx * t
                let y0 = ty * th
                var padded = [UInt16]()
                let full = x0 + t <= raw.width && y0 + th <= raw.height
                if !full {
                    padded = [UInt16](repeating: 0, count: t * th)
                    for y in 0..<th {
                        let sy = min(y0 + y, raw.height - 1)
                        for x in 0..<t { padded[y * t + x] = source.value[sy * raw.width + min(x0 + x, raw.width - 1)] }
                    }
                }
                do throws(DaguerreError) {
                    let bytes: [UInt8]
                    if full {
                        bytes = try encodeTile(
                            source.value + y0 * raw.width + x0, stride: raw.width, width: t, height: th,
                            compression: compression, precision: precision)
                    } else {
                        bytes = try padded.withUnsafeBufferPointer { p throws(DaguerreError) in
                            try encodeTile(p.baseAddress!, stride: t, width: t, height: th, compression: compression, precision: precision)
                        }
                    }
                    results.set(index, .success(bytes))
                } catch { results.set(index, .failure(error)) }
            }
        }
        return try results.collect()
    }

    static func encodeTile(
        _ p: UnsafePointer<UInt16>, stride: Int, width t: Int, height th: Int, compression: DNGCompression,
        precision: Int
    ) throws(DaguerreError) -> [UInt8] {
        switch compression {
        case .losslessJPEG:
            return try LosslessJPEG.encode(
                samples: p, rowStride: stride, width: t / 2, height: th, components: 2, precision: precision, predictor: 1)
        case .none, .noneInStrips:
            var out = [UInt8](repeating: 0, count: t * th * 2)
            for y in 0..<th {
                for x in 0..<t {
                    let v = p[y * stride + x]
                    out[(y * t + x) * 2] = UInt8(v & 0xFF)
                    out[(y * t + x) * 2 + 1] = UInt8(v >> 8)
                }
            }
            return out
        }
    }

}
