// The seven lossless JPEG predictors (ITU-T T.81 Table H.1), shared by our hand-written lossless
// JPEG encoder and decoder (libjpeg-turbo 2.1 has no lossless mode). SPEC R1; DNG 1.4
// specification, Compression = 7 (lossless JPEG).

/// One T.81 predictor: the prediction of a sample from its left (`a`), upper (`b`) and
/// upper-left (`c`) neighbours of the same component.
///
/// Each predictor is a type so the encoder and decoder loops are specialized per predictor:
/// the switch on the selection value happens once per frame, not once per sample.
/// The arithmetic is in Int32 with arithmetic right shifts, as in Adobe's DNG SDK and LibRaw,
/// so 16-bit samples cannot overflow and our streams predict exactly as theirs do.
///
/// ```swift
/// let p = LosslessPredictor4.predict(a: 100, b: 120, c: 90)   // 130
/// ```
protocol LosslessPredictor {
    static func predict(a: Int32, b: Int32, c: Int32) -> Int32
}

/// Predictor 1: the left neighbour (DNG's usual choice).
enum LosslessPredictor1: LosslessPredictor {
    @inline(__always) static func predict(a: Int32, b: Int32, c: Int32) -> Int32 { a }
}
/// Predictor 2: the upper neighbour.
enum LosslessPredictor2: LosslessPredictor {
    @inline(__always) static func predict(a: Int32, b: Int32, c: Int32) -> Int32 { b }
}
/// Predictor 3: the upper-left neighbour.
enum LosslessPredictor3: LosslessPredictor {
    @inline(__always) static func predict(a: Int32, b: Int32, c: Int32) -> Int32 { c }
}
/// Predictor 4: the plane through the three neighbours, a + b − c.
enum LosslessPredictor4: LosslessPredictor {
    @inline(__always) static func predict(a: Int32, b: Int32, c: Int32) -> Int32 { a &+ b &- c }
}
/// Predictor 5: a + (b − c) / 2, rounding towards minus infinity.
enum LosslessPredictor5: LosslessPredictor {
    @inline(__always) static func predict(a: Int32, b: Int32, c: Int32) -> Int32 { a &+ ((b &- c) &>> 1) }
}
/// Predictor 6: b + (a − c) / 2, rounding towards minus infinity.
enum LosslessPredictor6: LosslessPredictor {
    @inline(__always) static func predict(a: Int32, b: Int32, c: Int32) -> Int32 { b &+ ((a &- c) &>> 1) }
}
/// Predictor 7: the mean of the left and upper neighbours, rounded down.
enum LosslessPredictor7: LosslessPredictor {
    @inline(__always) static func predict(a: Int32, b: Int32, c: Int32) -> Int32 { (a &+ b) &>> 1 }
}
