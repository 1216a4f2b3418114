import DaguerreCore
import DaguerreFormats
import DaguerreTestSupport
import Foundation
import Testing

@testable import DaguerreMovie

/// Helpers for the QuickTime tests: synthetic frames and audio, the exiftool judge (ffprobe's
/// is DaguerreTestSupport's MovieProbe), and keeping judged files (DAGUERRE_SAMPLES_DIR).
enum MovieFixture {
    /// A tall RGBA8 picture (gradients and colour bars); frame `i` is the window starting `8·i` rows
    /// down, so consecutive frames show motion. Built once per size: rows are copied per frame.
    final class Source: @unchecked Sendable {
        let width: Int, height: Int, tall: PixelBuffer
        init(width: Int, height: Int, frames: Int, colorSpace: ColorSpace = .sRGB) throws {
            self.width = width
            self.height = height
            var t = try PixelBuffer(width: width, height: height + 8 * frames, format: .rgba8, colorSpace: colorSpace, alpha: .straight)
            let rb = t.bytesPerRow
            let th = t.height
            t.withUnsafeMutableBytes { raw in
                let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                // One row pattern per band of 64 rows, so generation is cheap even in debug builds.
                var row = [UInt8](repeating: 255, count: width * 4)
                for y in 0..<th {
                    if y % 64 == 0 {
                        let band = y / 64
                        for x in 0..<width {
                            let bar = (x * 8 / width + band) % 8
                            row[4 * x] = UInt8((bar & 1) * 150 + (x * 100 / width))
                            row[4 * x + 1] = UInt8(((bar >> 1) & 1) * 140 + (band * 7) % 100)
                            row[4 * x + 2] = UInt8(((bar >> 2) & 1) * 130 + 60 - (x * 60 / width))
                        }
                    }
                    row.withUnsafeBytes { (p + y * rb).update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: width * 4) }
                }
            }
            tall = t
        }

        /// The same window over photographs: Kodak images tiled 768×512 (a second column, and
        /// further rows, as the size needs), so the encoder meets a photograph's detail.
        init(width: Int, height: Int, frames: Int, kodak: [Int]) throws {
            self.width = width
            self.height = height
            let tallHeight = height + 8 * frames
            var t = try PixelBuffer(width: width, height: tallHeight, format: .rgba8, colorSpace: .sRGB, alpha: .straight)
            let (cellW, cellH) = (768, 512)
            let columns = (width + cellW - 1) / cellW
            let rows = (tallHeight + cellH - 1) / cellH
            let rb = t.bytesPerRow
            for cell in 0..<(columns * rows) {
                let photo = try ImageReader.readAll(path: Fixture.kodim(kodak[cell % kodak.count]))
                let n = photo.format.channels
                let (x0, y0) = (cell % columns * cellW, cell / columns * cellH)
                t.withUnsafeMutableBytes { raw in
                    photo.withUnsafeBytes { src in
                        for y in 0..<min(cellH, photo.height, tallHeight - y0) {
                            for x in 0..<min(cellW, photo.width, width - x0) {
                                let o = (y0 + y) * rb + 4 * (x0 + x)
                                let i = y * photo.bytesPerRow + n * x
                                raw[o] = src[i]
                                raw[o + 1] = src[i + 1]
                                raw[o + 2] = src[i + 2]
                                raw[o + 3] = 255
                            }
                        }
                    }
                }
            }
            tall = t
        }

        func frame(_ i: Int) throws -> PixelBuffer {
            var f = try PixelBuffer(width: width, height: height, format: .rgba8, colorSpace: tall.colorSpace, alpha: .straight)
            let rb = f.bytesPerRow
            let offset = 8 * i
            f.withUnsafeMutableBytes { raw in
                tall.withUnsafeBytes { src in
                    raw.baseAddress!.copyMemory(from: src.baseAddress! + offset * tall.bytesPerRow, byteCount: rb * height)
                }
            }
            return f
        }

        /// Mean R, G, B of frame `i` (0–255).
        func mean(_ i: Int) -> SIMD3<Double> {
            meanRGB(try! frame(i))
        }
    }

    /// A 440 Hz tone, interleaved when stereo (the right channel at 660 Hz).
    static func tone(seconds: Double, sampleRate: Int = 44_100, channels: Int) -> [Int16] {
        let n = Int(seconds * Double(sampleRate))
        var out = [Int16](repeating: 0, count: n * channels)
        for i in 0..<n {
            let t = Double(i) / Double(sampleRate)
            out[i * channels] = Int16(8000 * sin(2 * .pi * 440 * t))
            if channels == 2 { out[i * channels + 1] = Int16(8000 * sin(2 * .pi * 660 * t)) }
        }
        return out
    }

    /// Writes a Live Photo movie of `frames` frames at 15 fps from `source`.
    @discardableResult
    static func record(_ path: String, source: Source, frames: Int = 45, settings: MovieSettings) throws -> MovieFileInfo {
        let recorder = try MovieRecorder(destination: path, settings: settings)
        let audio =
            settings.audio.map {
                tone(seconds: Double(frames) / Double(settings.frameRate), sampleRate: $0.sampleRate, channels: $0.channels)
            } ?? []
        let perFrame = settings.audio.map { $0.sampleRate / settings.frameRate * $0.channels } ?? 0
        for i in 0..<frames {
            try recorder.append(frame: try source.frame(i), at: MediaTime(value: Int64(i) * 40, timescale: 600))
            if perFrame > 0 {
                let lo = min(audio.count, i * perFrame)
                let hi = i == frames - 1 ? audio.count : min(audio.count, (i + 1) * perFrame)
                if hi > lo { try recorder.append(audio: Array(audio[lo..<hi])) }
            }
        }
        return try recorder.finish()
    }

    /// `exiftool -a -G1 -s [extra]` as "[Group] Tag : value" lines.
    static func exiftool(_ path: String, _ extra: [String] = []) throws -> [String] {
        try Judge.run("exiftool", ["-a", "-G1", "-s"] + extra + [path]).split(separator: "\n").map(String.init)
    }

    /// The value of the first exiftool line for `group` and `tag`.
    static func value(_ lines: [String], group: String? = nil, tag: String) -> String? {
        for line in lines {
            guard let colon = line.range(of: " : ") else { continue }
            let head = line[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
            let parts = head.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, parts[1] == tag else { continue }
            if let group, parts[0] != "[\(group)]" { continue }
            return String(line[colon.upperBound...])
        }
        return nil
    }
}

/// Mean R, G, B (0–255) of an RGBA8 buffer.
func meanRGB(_ b: PixelBuffer) -> SIMD3<Double> {
    var sum = SIMD3<Double>(0, 0, 0)
    b.withUnsafeBytes { raw in
        let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<b.height {
            var r = 0
            var g = 0
            var bl = 0
            let row = p + y * b.bytesPerRow
            for x in 0..<b.width {
                r += Int(row[4 * x])
                g += Int(row[4 * x + 1])
                bl += Int(row[4 * x + 2])
            }
            sum += SIMD3(Double(r), Double(g), Double(bl))
        }
    }
    return sum / Double(b.width * b.height)
}
