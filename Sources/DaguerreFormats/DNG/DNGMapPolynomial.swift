// The MapPolynomial opcode (DNG 1.4 §7, opcode 8): a polynomial applied to each sample of an
// area, on values normalized to 0...1. Adobe's converters store the linearization of lossy and
// LinearRaw DNGs this way in OpcodeList2 (SPEC R6, X6).
import DaguerreCore

/// `out = Σ coefficients[k] · in^k`, clamped to 0...1, over an area of the image.
///
/// ```swift
/// let curve = DNGMapPolynomial(area: DNGOpcodeArea(top: 0, left: 0, bottom: h, right: w), coefficients: [0, 0.0078125, 0, 0.9921875])
/// curve.apply(to: &normalized, width: w, height: h, channels: 3)
/// ```
public struct DNGMapPolynomial: Sendable, Equatable {
    public var area: DNGOpcodeArea
    /// Coefficients of degree 0 upwards (at most degree 8).
    public var coefficients: [Double]

    public init(area: DNGOpcodeArea, coefficients: [Double]) {
        self.area = area
        self.coefficients = coefficients
    }

    init(parsing params: [UInt8]) throws(DaguerreError) {
        var r = ByteReader(params, truncated: "DNG MapPolynomial")
        area = try DNGOpcodeArea(reading: &r)
        let degree = Int(try r.u32())
        guard degree <= 8 else { throw .corruptData(format: "DNG MapPolynomial", detail: "its degree is \(degree) (at most 8)", path: nil) }
        var c: [Double] = []
        for _ in 0...degree {
            let v = try r.f64()
            guard v.isFinite else { throw .corruptData(format: "DNG MapPolynomial", detail: "a coefficient is not finite", path: nil) }
            c.append(v)
        }
        coefficients = c
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter()
        area.encode(into: &w)
        w.u32(UInt32(max(0, coefficients.count - 1)))
        coefficients.forEach { w.f64($0) }
        return w.bytes
    }

    /// The polynomial at `x`, clamped to 0...1 (Horner's rule).
    public func value(at x: Double) -> Double {
        min(max(coefficients.reversed().reduce(0) { $0 * x + $1 }, 0), 1)
    }

    /// Maps the area of `pixels` (normalized samples, `channels` interleaved); with `rows`,
    /// `pixels` holds only those rows of the `height`-row image.
    public func apply(
        to pixels: inout [Float], width: Int, height: Int, channels: Int = 1, rows: Range<Int>? = nil, columns: Range<Int>? = nil
    ) {
        guard pixels.count >= (columns?.count ?? width) * (rows?.count ?? height) * channels else { return }
        area.forEachSample(width: width, height: height, channels: channels, rows: rows, columns: columns) { i, _ in
            pixels[i] = Float(value(at: Double(pixels[i])))
        }
    }
}
