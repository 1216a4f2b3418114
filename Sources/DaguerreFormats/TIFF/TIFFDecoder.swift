// TIFF decoding through libtiff 4.5 (strips and tiles), via the non-variadic glue in CDaguerreCodecs.
import CDaguerreCodecs
import DaguerreCore
import Foundation

/// Decodes a TIFF's first image: gray or RGB, with or without alpha, 8/16-bit unsigned or
/// 16/32-bit IEEE float samples, in strips or tiles, uncompressed or with any codec libtiff has.
///
/// Rows come out as L8/LA8/L16/LA16, RGB(A)8, RGB(A)16, RGB(A)h or RGB(A)f. Float gray is
/// widened to float RGB(A), since DaguerreCore has no float luminance layout. Associated
/// ExtraSamples give premultiplied alpha; unassociated or unspecified give straight alpha.
/// Separate planes, palette, CMYK, YCbCr, bilevel and raw (CFA/LinearRaw, as in DNG) images are
/// refused with `.unsupported` rather than decoded into wrong pixels.
///
/// Strips and tiles are independent, so rows can be read in any order (`randomAccess`): the
/// decoder keeps the last decoded strip, or the last row of tiles, and decodes another only
/// when a request leaves it. Orientation is not applied (rows are as stored).
/// A decoder is for one render at a time: it is a non-Sendable class.
///
/// ```swift
/// let tiff = try TIFFDecoder(path: "scan.tif")
/// _ = try tiff.setColumns(0..<512)           // only the tiles that cover these columns
/// try tiff.readRows(y: 4000, count: 32, into: buffer, bytesPerRow: 512 * tiff.info.pixelFormat.bytesPerPixel)
/// ```
public final class TIFFDecoder: ImageDecoder {
    public private(set) var info: ImageFileInfo
    private let source: ImageSource
    private let limits: Limits
    private var handle: OpaquePointer?
    /// Samples per pixel in the file, bytes per sample, bytes per file pixel.
    private let samples: Int, sampleBytes: Int, fileBytesPerPixel: Int
    /// Gray float widened to RGB float on output.
    private let widenGray: Bool
    private let tiled: Bool
    /// Rows per strip, or tile width and length.
    private let rowsPerStrip: Int, tileWidth: Int, tileLength: Int
    private var columns: Range<Int>
    /// The cached band: a strip (full width), or a row of tiles (just `columns`), in file pixels.
    private var band: [UInt8] = []
    private var bandIndex = -1
    private var bandRows = 0
    private var bandWidth = 0
    private var tileScratch: [UInt8] = []

    public convenience init(path: String, limits: Limits = .default) throws(DaguerreError) {
        try self.init(source: .file(path), limits: limits)
    }

    /// Reads a TIFF file held in memory (the bytes are copied).
    public convenience init(data: [UInt8], limits: Limits = .default) throws(DaguerreError) {
        try self.init(source: .memory(data), limits: limits)
    }

    init(source: ImageSource, limits: Limits) throws(DaguerreError) {
        self.source = source
        self.limits = limits
        let maxAlloc = UInt64(clamping: limits.maxBufferBytes)
        let opened: OpaquePointer?
        switch source {
        case .file(let path):
            guard access(path, R_OK) == 0 else {
                throw .io(operation: "open", path: path, reason: String(cString: strerror(errno)))
            }
            opened = dag_tiff_open_file(path, "rm", maxAlloc)  // "m": no mmap, so a file cut under us cannot SIGBUS
        case .memory(let bytes):
            opened = bytes.withUnsafeBufferPointer { dag_tiff_open_memory($0.baseAddress, $0.count, maxAlloc) }
        }
        guard let t = opened else { throw .tooLarge(what: "TIFF decoder memory", value: 0, limit: 0) }
        guard dag_tiff_is_open(t) != 0 else {
            let message = bridgeMessage(dag_tiff_message(t))
            _ = dag_tiff_close(t, nil, 0)
            throw Self.error(message, path: source.path)
        }
        handle = t
        func u16(_ tag: UInt32, defaulted: Bool = true) -> UInt16? {
            var v: UInt16 = 0
            return dag_tiff_get_u16(t, tag, defaulted ? 1 : 0, &v) != 0 ? v : nil
        }
        func u32(_ tag: UInt32, defaulted: Bool = true) -> UInt32? {
            var v: UInt32 = 0
            return dag_tiff_get_u32(t, tag, defaulted ? 1 : 0, &v) != 0 ? v : nil
        }
        do throws(DaguerreError) {
            guard let w = u32(TIFFTag.imageWidth, defaulted: false), let h = u32(TIFFTag.imageLength, defaulted: false) else {
                throw DaguerreError.corruptData(format: "TIFF", detail: "no ImageWidth or ImageLength", path: source.path)
            }
            let width = Int(w)
            let height = Int(h)
            let spp = Int(u16(TIFFTag.samplesPerPixel) ?? 1)
            let bits = Int(u16(TIFFTag.bitsPerSample) ?? 1)
            let sampleFormat = u16(TIFFTag.sampleFormat) ?? TIFFTag.sampleFormatUInt
            let planar = u16(TIFFTag.planarConfig) ?? TIFFTag.planarContiguous
            let compression = u16(TIFFTag.compression) ?? TIFFTag.compressionNone
            guard let photometric = u16(TIFFTag.photometric, defaulted: false) else {
                throw DaguerreError.corruptData(format: "TIFF", detail: "no PhotometricInterpretation", path: source.path)
            }
            if dag_tiff_is_dng(t) != 0 {
                // IFD0 of a DNG is usually a small preview; the raw image is elsewhere and needs demosaicking.
                throw DaguerreError.unsupported(
                    feature: "DNG raw files (\(source.displayPath))",
                    hint:
                        "DNG is TIFF-based, but its raw image is not a plain TIFF image; it is read by the RAW pipeline, not by the TIFF reader."
                )
            }
            let hint =
                "Convert the image to a contiguous 8- or 16-bit RGB or gray TIFF (e.g. `tiffcp -c none -p contig`), or export it as PNG."
            guard photometric == TIFFTag.photometricRGB || photometric == TIFFTag.photometricMinIsBlack else {
                throw DaguerreError.unsupported(feature: "TIFF images in \(TIFFTag.photometricName(photometric))", hint: hint)
            }
            guard planar == TIFFTag.planarContiguous else {
                throw DaguerreError.unsupported(feature: "TIFF images with separate colour planes", hint: hint)
            }
            guard dag_tiff_codec_configured(compression) != 0 else {
                throw DaguerreError.unsupported(feature: "TIFF compression scheme \(compression)", hint: hint)
            }
            let color = photometric == TIFFTag.photometricRGB ? 3 : 1
            guard spp == color || spp == color + 1 else {
                throw DaguerreError.unsupported(
                    feature: "TIFF images with \(spp) samples per pixel (\(color == 3 ? "RGB" : "gray"))", hint: hint)
            }
            let hasAlpha = spp == color + 1
            var alpha = PixelBuffer.AlphaMode.straight
            if hasAlpha {
                var count: UInt16 = 0
                var values: UnsafePointer<UInt16>?
                if dag_tiff_get_extra_samples(t, &count, &values) != 0, count >= 1, let values,
                    values[0] == TIFFTag.extraAssociatedAlpha
                {
                    alpha = .premultiplied
                }
            }
            let component: PixelFormat.Component
            switch (sampleFormat, bits) {
            case (TIFFTag.sampleFormatUInt, 8): component = .uint8
            case (TIFFTag.sampleFormatUInt, 16): component = .uint16
            case (TIFFTag.sampleFormatIEEEFP, 16): component = .float16
            case (TIFFTag.sampleFormatIEEEFP, 32): component = .float32
            default:
                let kind =
                    sampleFormat == TIFFTag.sampleFormatIEEEFP ? "float" : sampleFormat == TIFFTag.sampleFormatInt ? "signed" : "unsigned"
                throw DaguerreError.unsupported(
                    feature: "TIFF samples of \(bits)-bit \(kind) type\(bits == 1 ? " (bilevel)" : "")", hint: hint)
            }
            let layout: PixelFormat.Layout
            let widen = color == 1 && component.isFloat
            if color == 3 || widen { layout = hasAlpha ? .rgba : .rgb } else { layout = hasAlpha ? .la : .l }
            let format = PixelFormat(layout, component)
            try limits.check(width: width, height: height, bytesPerPixel: format.bytesPerPixel, what: "TIFF image")

            samples = spp
            sampleBytes = component.size
            fileBytesPerPixel = spp * component.size
            widenGray = widen
            tiled = dag_tiff_is_tiled(t) != 0
            let fileRow = width * spp * component.size
            if tiled {
                let tw = Int(u32(TIFFTag.tileWidth, defaulted: false) ?? 0)
                let tl = Int(u32(TIFFTag.tileLength, defaulted: false) ?? 0)
                guard tw > 0, tl > 0 else {
                    throw DaguerreError.corruptData(format: "TIFF", detail: "tiles of \(tw)×\(tl)", path: source.path)
                }
                try limits.check(width: tw, height: tl, bytesPerPixel: fileBytesPerPixel, what: "TIFF tile")
                let across = (width + tw - 1) / tw
                try limits.check(width: across * tw, height: tl, bytesPerPixel: fileBytesPerPixel, what: "TIFF row of tiles")
                guard dag_tiff_tile_size(t) == UInt64(tw * tl * fileBytesPerPixel) else {
                    throw DaguerreError.unsupported(
                        feature: "TIFF tiles whose size libtiff computes as \(dag_tiff_tile_size(t)) bytes", hint: hint)
                }
                let down = (height + tl - 1) / tl
                guard Int(dag_tiff_number_of_tiles(t)) >= across * down else {
                    throw DaguerreError.corruptData(
                        format: "TIFF", detail: "\(dag_tiff_number_of_tiles(t)) tiles for \(across)×\(down)", path: source.path)
                }
                tileWidth = tw
                tileLength = tl
                rowsPerStrip = 0
            } else {
                let rps = max(1, min(height, Int(u32(TIFFTag.rowsPerStrip) ?? UInt32(height))))
                try limits.check(width: width, height: rps, bytesPerPixel: fileBytesPerPixel, what: "TIFF strip")
                guard dag_tiff_strip_size(t) == UInt64(rps * fileRow) else {
                    throw DaguerreError.unsupported(
                        feature: "TIFF strips whose size libtiff computes as \(dag_tiff_strip_size(t)) bytes", hint: hint)
                }
                guard Int(dag_tiff_number_of_strips(t)) >= (height + rps - 1) / rps else {
                    throw DaguerreError.corruptData(
                        format: "TIFF", detail: "\(dag_tiff_number_of_strips(t)) strips for \(height) rows", path: source.path)
                }
                rowsPerStrip = rps
                tileWidth = 0
                tileLength = 0
            }
            var iccProfile: [UInt8]?
            var space: ColorSpace = layout == .l || layout == .la ? .genericGray : .sRGB
            var length: UInt32 = 0
            var data: UnsafePointer<UInt8>?
            if dag_tiff_get_icc(t, &length, &data) != 0, let data, length > 0 {
                let bytes = Array(UnsafeBufferPointer(start: data, count: Int(length)))
                iccProfile = bytes
                space = ImageFileInfo.colorSpace(fromICC: bytes, gray: layout == .l || layout == .la)
            }
            info = ImageFileInfo(
                format: .tiff, width: width, height: height, pixelFormat: format, alpha: alpha,
                iccProfile: iccProfile, colorSpace: space, randomAccess: true)
            columns = 0..<width
        } catch {
            _ = dag_tiff_close(t, nil, 0)
            handle = nil
            throw error
        }
    }

    deinit { _ = dag_tiff_close(handle, nil, 0) }

    /// Classifies a libtiff message: reads past the end of the data are truncation.
    private static func error(_ message: String, path: String?) -> DaguerreError {
        let m = message.lowercased()
        if m.contains("read error") || m.contains("seek error") || m.contains("cannot read tiff header")
            || m.contains("premature") || m.contains("eof")
        {
            return .truncated(format: "TIFF", path: path)
        }
        return .corruptData(format: "TIFF", detail: message.isEmpty ? "libtiff could not read it" : message, path: path)
    }

    public func setColumns(_ requested: Range<Int>) throws(DaguerreError) -> Range<Int> {
        guard !requested.isEmpty, requested.lowerBound >= 0, requested.upperBound <= info.width else {
            throw .invalidArgument(what: "Columns \(requested)", problem: "must be a non-empty range within 0..<\(info.width)")
        }
        if requested != columns, tiled { bandIndex = -1 }
        columns = requested
        return requested
    }

    public func readRows(y: Int, count: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) throws(DaguerreError) {
        guard y >= 0, count >= 0, y <= info.height - count else {
            throw .invalidArgument(what: "Rows \(y)..<\(y + count)", problem: "must lie within 0..<\(info.height)")
        }
        let outBpp = info.pixelFormat.bytesPerPixel
        guard bytesPerRow >= columns.count * outBpp else {
            throw .invalidArgument(what: "bytesPerRow \(bytesPerRow)", problem: "must be at least \(columns.count * outBpp)")
        }
        var row = y
        while row < y + count {
            let bandHeight = tiled ? tileLength : rowsPerStrip
            let index = row / bandHeight
            if index != bandIndex { try loadBand(index) }
            let first = index * bandHeight
            let n = min(y + count, first + bandRows) - row
            // In the band, a strip holds full rows; a row of tiles holds just `columns`.
            let bandStart = tiled ? 0 : columns.lowerBound
            band.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                for i in 0..<n {
                    let src = base + ((row - first + i) * bandWidth + bandStart) * fileBytesPerPixel
                    let dst = destination + (row - y + i) * bytesPerRow
                    convert(src, dst, pixels: columns.count)
                }
            }
            row += n
        }
    }

    /// Copies file pixels to output pixels (widening float gray to RGB when needed).
    private func convert(_ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer, pixels: Int) {
        guard widenGray else {
            dst.copyMemory(from: src, byteCount: pixels * fileBytesPerPixel)
            return
        }
        let sb = sampleBytes
        let inBpp = fileBytesPerPixel
        let outBpp = info.pixelFormat.bytesPerPixel
        for x in 0..<pixels {
            let s = src + x * inBpp
            let d = dst + x * outBpp
            for c in 0..<3 { (d + c * sb).copyMemory(from: s, byteCount: sb) }
            if samples == 2 { (d + 3 * sb).copyMemory(from: s + sb, byteCount: sb) }
        }
    }

    /// Decodes strip `index`, or the row of tiles `index` (only the tiles under `columns`).
    private func loadBand(_ index: Int) throws(DaguerreError) {
        guard let t = handle else { throw .corruptData(format: "TIFF", detail: "decoder closed", path: source.path) }
        bandIndex = -1
        let bandHeight = tiled ? tileLength : rowsPerStrip
        let rows = min(bandHeight, info.height - index * bandHeight)
        if !tiled {
            let bytes = rows * info.width * fileBytesPerPixel
            if band.count < bytes { band = [UInt8](repeating: 0, count: bytes) }
            let got = band.withUnsafeMutableBytes { dag_tiff_read_strip(t, UInt32(index), $0.baseAddress, UInt64(bytes)) }
            guard got == Int64(bytes) else { throw failure(got < 0 ? nil : "strip \(index) decoded to \(got) of \(bytes) bytes") }
            bandWidth = info.width
        } else {
            let tw = tileWidth
            let tl = tileLength
            let tileBytes = tw * tl * fileBytesPerPixel
            if tileScratch.count != tileBytes { tileScratch = [UInt8](repeating: 0, count: tileBytes) }
            let bytes = rows * columns.count * fileBytesPerPixel
            if band.count < bytes { band = [UInt8](repeating: 0, count: bytes) }
            bandWidth = columns.count
            var tx = (columns.lowerBound / tw) * tw
            while tx < columns.upperBound {
                let got = tileScratch.withUnsafeMutableBytes {
                    dag_tiff_read_tile(t, UInt32(tx), UInt32(index * tl), $0.baseAddress, UInt64(tileBytes))
                }
                guard got == Int64(tileBytes) else { throw failure(got < 0 ? nil : "tile decoded to \(got) of \(tileBytes) bytes") }
                // The part of this tile inside `columns`.
                let x0 = max(tx, columns.lowerBound)
                let x1 = min(tx + tw, columns.upperBound)
                let bpp = fileBytesPerPixel
                let cols = columns
                tileScratch.withUnsafeBytes { tile in
                    band.withUnsafeMutableBytes { out in
                        guard let src = tile.baseAddress, let dst = out.baseAddress else { return }
                        for r in 0..<rows {
                            (dst + (r * cols.count + x0 - cols.lowerBound) * bpp)
                                .copyMemory(from: src + (r * tw + x0 - tx) * bpp, byteCount: (x1 - x0) * bpp)
                        }
                    }
                }
                tx += tw
            }
        }
        bandRows = rows
        bandIndex = index
    }

    private func failure(_ detail: String?) -> DaguerreError {
        let message = handle.map { bridgeMessage(dag_tiff_message($0)) } ?? ""
        if let detail, message.isEmpty { return .corruptData(format: "TIFF", detail: detail, path: source.path) }
        return Self.error(message, path: source.path)
    }
}
