import DaguerreCore

/// Explicit colour matching inside a recipe: `matchedToWorkingSpace(from:)` and
/// `matchedFromWorkingSpace(to:)` (I9), for data that is not in the working space (an image
/// processor's output in a camera space, say). With colour management off it passes through.
final class ColorMatchNode: ImageNode, @unchecked Sendable {
    typealias Direction = WorkingConversion.Direction
    let space: ColorSpace
    let direction: Direction

    init(input: ImageNode, space: ColorSpace, direction: Direction) {
        self.space = space
        self.direction = direction
        super.init(extent: input.extent, inputs: [input], kind: "colormatch") { d in
            d.add(space)
            d.add(direction == .toWorking)
        }
    }
    override var label: String {
        direction == .toWorking ? "colormatch \(space.name) → workingspace" : "colormatch workingspace → \(space.name)"
    }

    /// The match as one 3×3 matrix on premultiplied linear RGB, when it is one in `env` (no
    /// curve on either side, no lcms2 profile; identity with colour management off): then it
    /// folds into a planar run's matrices like any linear colour kernel.
    func linearMatrix(in env: RenderEnvironment) -> Matrix3? {
        guard let working = env.workingSpace else { return .identity }
        let plan = WorkingConversion(space: space, working: working, direction: direction)
        guard space.isRGB, plan.transfer.isLinear, plan.profile == nil else { return nil }
        return plan.matrix
    }

    override func makeProducer(rect: IntRect, context: TileContext) throws(DaguerreError) -> RowProducer {
        let input = try context.producer(of: inputs[0], rect: rect)
        guard let working = context.env.workingSpace else { return input }
        let plan = WorkingConversion(space: space, working: working, direction: direction)
        guard space.isRGB, let m = plan.matrix else {
            throw .unsupported(feature: "Explicit colour matching with \(space.name)", hint: "Use an RGB colour space.")
        }
        return ColorMatchProducer(
            input: input, transfer: plan.transfer, matrix: LinearMatrix.nonIdentity(m), toWorking: direction == .toWorking)
    }
}

final class ColorMatchProducer: RowProducer {
    let input: RowProducer
    let transfer: TransferFunction
    let matrix: LinearMatrix?
    let toWorking: Bool
    var rect: IntRect { input.rect }
    init(input: RowProducer, transfer: TransferFunction, matrix: LinearMatrix?, toWorking: Bool) {
        self.input = input
        self.transfer = transfer
        self.matrix = matrix
        self.toWorking = toWorking
    }
    func row(_ y: Int, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        input.row(y, into: out)
        let n = rect.width
        let t = transfer
        if toWorking {
            if !t.isLinear { ColorMatchProducer.curve(out, n) { t.decode($0) } }
            matrix?.apply(out, count: n)
        } else {
            matrix?.apply(out, count: n)
            if !t.isLinear { ColorMatchProducer.curve(out, n) { t.encode($0) } }
        }
    }
    /// Applies `f` to unpremultiplied colour channels.
    static func curve(_ p: UnsafeMutablePointer<SIMD4<Float>>, _ n: Int, _ f: (Float) -> Float) {
        for i in 0..<n {
            let v = p[i]
            let a = v.w
            if a == 0 { continue }
            let inv: Float = a == 1 ? 1 : 1 / a
            p[i] = SIMD4(f(v.x * inv) * a, f(v.y * inv) * a, f(v.z * inv) * a, a)
        }
    }
}
