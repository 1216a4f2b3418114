// Reading a DNG's colour calibration and its preview.
import DaguerreCore

extension DNGReader {
    static func color(_ ifd0: TIFFNode, _ raw: TIFFNode, _ r: TIFFStructureReader) -> RawColorCalibration {
        func m3(_ tag: TIFFTagID) -> [Double]? {
            guard let v = ifd0.doubles(tag, in: r), v.count == 9, v.allSatisfy(\.isFinite) else { return nil }
            return v
        }
        func illuminant(_ tag: TIFFTagID) -> RawColorCalibration.Illuminant? {
            ifd0.uint(tag, in: r).map { RawColorCalibration.Illuminant(rawValue: UInt16(truncatingIfNeeded: $0)) ?? .unknown }
        }
        var c = RawColorCalibration()
        // Three-colour cameras only: 4-colour (CMYG) matrices are 12 values and are left out.
        // A DNG without ColorMatrix1 (the spec requires it for colour) develops in raw colour,
        // as LibRaw does, rather than with an identity matrix that would make XYZ of camera RGB.
        if let m = m3(.colorMatrix1) {
            c.colorMatrix1 = m
        } else {
            c.colorMatrix1 = RawColorCalibration.rawColorMatrix
            c.calibrationIlluminant1 = .d65
            c.matrixSource = .none
        }
        c.colorMatrix2 = m3(.colorMatrix2)
        if c.matrixSource == .file { c.calibrationIlluminant1 = illuminant(.calibrationIlluminant1) ?? .unknown }
        c.calibrationIlluminant2 = c.colorMatrix2 == nil ? nil : illuminant(.calibrationIlluminant2)
        c.forwardMatrix1 = m3(.forwardMatrix1)
        c.forwardMatrix2 = m3(.forwardMatrix2)
        c.cameraCalibration1 = m3(.cameraCalibration1)
        c.cameraCalibration2 = m3(.cameraCalibration2)
        c.analogBalance = ifd0.doubles(.analogBalance, in: r).flatMap { $0.count == 3 ? $0 : nil }
        c.asShotNeutral = ifd0.doubles(.asShotNeutral, in: r).flatMap { $0.count == 3 ? $0 : nil }
        c.asShotWhiteXY = ifd0.doubles(.asShotWhiteXY, in: r).flatMap { $0.count == 2 ? $0 : nil }
        c.baselineExposure = ifd0.double(.baselineExposure, in: r).flatMap { $0.isFinite ? $0 : nil } ?? 0
        let noise = raw.doubles(.noiseProfile, in: r) ?? ifd0.doubles(.noiseProfile, in: r) ?? []
        c.noiseProfile = stride(from: 0, to: noise.count - 1, by: 2).map { (noise[$0], noise[$0 + 1]) }
        return c
    }

    /// IFD0's preview: uncompressed 8-bit RGB, or a baseline JPEG (Compression 7 or 6).
    static func preview(_ ifd0: TIFFNode, _ r: TIFFStructureReader, limits: Limits) throws(DaguerreError) -> PixelBuffer? {
        guard let w = ifd0.uint(.imageWidth, in: r), let h = ifd0.uint(.imageLength, in: r),
            let offsets = ifd0.uints(.stripOffsets, in: r), let counts = ifd0.uints(.stripByteCounts, in: r),
            offsets.count == counts.count, !offsets.isEmpty
        else { return nil }
        let compression = ifd0.uint(.compression, in: r) ?? 1
        var chunks: [UInt8] = []
        for (o, c) in zip(offsets, counts) {
            guard Int(o) + Int(c) <= r.bytes.count else { throw .truncated(format: "DNG preview", path: nil) }
            chunks += r.bytes[Int(o)..<Int(o) + Int(c)]
        }
        if compression == 7 || compression == 6 { return try ImageReader.readAll(data: chunks, limits: limits) }
        guard compression == 1, ifd0.uint(.photometricInterpretation, in: r) == 2, ifd0.uints(.bitsPerSample, in: r) == [8, 8, 8] else {
            return nil
        }
        var buffer = try PixelBuffer(width: Int(w), height: Int(h), format: .rgb8, colorSpace: .sRGB, alpha: .straight, limits: limits)
        let rowBytes = Int(w) * 3
        guard chunks.count >= rowBytes * Int(h) else { throw .truncated(format: "DNG preview", path: nil) }
        let stride = buffer.bytesPerRow
        buffer.withUnsafeMutableBytes { dst in
            for y in 0..<Int(h) {
                for x in 0..<rowBytes { dst[y * stride + x] = chunks[y * rowBytes + x] }
            }
        }
        return buffer
    }
}
