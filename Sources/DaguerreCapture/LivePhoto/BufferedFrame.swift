// One frame of a Live Photo's rolling buffer (SPEC L1, L2): the stream's 4:2:0 pixels, shared
// by every movie that spans it, with when its scene was seen and how the picture moved since
// the frame before it.
import DaguerreCore

/// A frame the Live Photo buffer keeps.
struct BufferedFrame: Sendable {
    let pixels: PlanarYCbCr420Buffer
    /// When the middle of the picture was seen, on the session's clock.
    let sceneTime: Double
    /// Where the picture is, relative to the first frame since the buffer last started clean:
    /// the sum of the frame-to-frame motions (pixels of `pixels`).
    let position: SIMD2<Double>
    /// The motion since the frame before, in pixels (zero for a first frame), and the time
    /// since it (frames may be missing when the machine is busy).
    let motion: SIMD2<Double>
    let interval: Double
    /// Mean luma, 0...255.
    let meanLevel: Double
    /// How many clean starts the buffer had before this frame (a movie never spans two).
    let epoch: Int
}
