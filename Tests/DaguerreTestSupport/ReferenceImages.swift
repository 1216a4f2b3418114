// Reference images beside the golden checksums (Tests/reference, as image-rs keeps its
// reference renders): the checksum decides, the image lets a person see what it stands for.
import DaguerreCore
import DaguerreFormats
import Foundation

/// The PNGs in `Tests/reference`, one per golden checksum: each is the render the checksum was
/// taken of, quantized as its test says (16-bit where the render has more). A test compares its
/// render with the image sample for sample; when they differ, or the image is missing, the
/// render is written to `$DAGUERRE_REFERENCE_OUT` (or a folder under the system temp
/// directory) and the message says where, so the two can be compared side by side.
///
/// ```swift
/// let buffer = try Context().createBuffer(image, format: .rgba16, colorSpace: .sRGB)
/// let problem = ReferenceImages.compare(buffer, with: "raw-develop-v1")
/// #expect(problem == nil, "\(problem ?? "")")
/// ```
public enum ReferenceImages {
    /// `Tests/reference`.
    public static let directory = Judge.repoRoot.appendingPathComponent("Tests/reference")

    /// Where renders that differ from their reference are written: `$DAGUERRE_REFERENCE_OUT`,
    /// else `daguerre-reference` under the system temp directory.
    public static var outputDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["DAGUERRE_REFERENCE_OUT"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("daguerre-reference")
    }

    /// nil when `Tests/reference/<name>.png` holds exactly `render`'s samples (same size and
    /// pixel format); otherwise what differs, and where the render was written.
    public static func compare(_ render: PixelBuffer, with name: String) -> String? {
        let path = directory.appendingPathComponent("\(name).png").path
        let difference: String
        if !FileManager.default.fileExists(atPath: path) {
            difference = "There is no reference image \(path)."
        } else {
            do {
                guard let found = differences(try ImageReader.readAll(path: path), render) else { return nil }
                difference = "The render differs from the reference image \(path): \(found)."
            } catch {
                difference = "The reference image \(path) cannot be read: \(error)."
            }
        }
        return difference + " " + keep(render, as: name)
    }

    /// Writes `render` as `<name>.png` to ``outputDirectory``; says where, or why it could not.
    static func keep(_ render: PixelBuffer, as name: String) -> String {
        let dir = outputDirectory
        let out = dir.appendingPathComponent("\(name).png").path
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try ImageWriter.write(
                render, to: out,
                options: EncoderOptions(
                    format: .png, width: render.width, height: render.height,
                    rowFormat: render.format))
            return
                "The render is at \(out): compare the two; if the change is meant, copy it over the reference image and update the golden checksum."
        } catch {
            return "Writing the render to \(out) failed: \(error) (set DAGUERRE_REFERENCE_OUT to a writable folder)."
        }
    }

    /// nil when `a` and `b` hold the same samples; otherwise how they differ.
    static func differences(_ a: PixelBuffer, _ b: PixelBuffer) -> String? {
        guard a.width == b.width, a.height == b.height, a.format == b.format else {
            return "it is \(a.width)×\(a.height) \(a.format), the render \(b.width)×\(b.height) \(b.format)"
        }
        let rowBytes = a.width * a.format.bytesPerPixel
        let sampleBytes = a.format.component.size
        var differing = 0
        var first: (x: Int, y: Int)?
        for y in 0..<a.height {
            let ra = a.rowAddress(y)
            let rb = b.rowAddress(y)
            guard memcmp(ra, rb, rowBytes) != 0 else { continue }
            for i in stride(from: 0, to: rowBytes, by: sampleBytes) where memcmp(ra + i, rb + i, sampleBytes) != 0 {
                differing += 1
                if first == nil { first = (i / a.format.bytesPerPixel, y) }
            }
        }
        guard let first else { return nil }
        return "\(differing) of \(a.width * a.height * a.format.channels) samples differ, the first at x \(first.x), y \(first.y)"
    }
}
