import DaguerreCore

/// A kernel argument (I1, K3): images become samplers or pixels; values are part of the node's
/// digest, so the cache sees every change. Pass parameters as arguments, not as captured
/// variables, or cached results will not notice that they changed.
///
/// ```swift
/// kernel.apply(extent: e, arguments: [.image(input), .float(15)])
/// ```
public enum KernelArgument: Sendable {
    case image(Image)
    case float(Float)
    case vector([Float])
    case rect(Rect)

    func addDigest(_ d: inout DigestBuilder) {
        switch self {
        case .image: d.add("image")  // the node's inputs are digested separately
        case .float(let v): d.add(v)
        case .vector(let v): d.add(v.map(Double.init))
        case .rect(let r): d.add([r.minX, r.minY, r.maxX, r.maxY])
        }
    }
    var summary: String {
        switch self {
        case .image: "image"
        case .float(let v): "\(v)"
        case .vector(let v): "\(v)"
        case .rect(let r): "\(r)"
        }
    }
}

/// Argument values as a kernel body sees them, by position in the `arguments` array.
public struct KernelValues: Sendable {
    let arguments: [KernelArgument]
    init(arguments: [KernelArgument]) { self.arguments = arguments }
    /// The values a kernel body would see for `arguments`: for evaluating a kernel's mapping
    /// outside a render, as a warp's region-of-interest callback does.
    public init(_ arguments: [KernelArgument]) { self.arguments = arguments }
    public func float(at i: Int) -> Float {
        guard arguments.indices.contains(i), case .float(let v) = arguments[i] else { return 0 }
        return v
    }
    public func vector(at i: Int) -> [Float] {
        guard arguments.indices.contains(i), case .vector(let v) = arguments[i] else { return [] }
        return v
    }
    public func rect(at i: Int) -> Rect {
        guard arguments.indices.contains(i), case .rect(let r) = arguments[i] else { return .null }
        return r
    }
    /// For each argument, its index among the image arguments (−1 for values).
    var imageSlots: [Int] {
        var slots: [Int] = []
        var n = 0
        for a in arguments {
            if case .image = a {
                slots.append(n)
                n += 1
            } else {
                slots.append(-1)
            }
        }
        return slots
    }
    var images: [Image] { arguments.compactMap { if case .image(let im) = $0 { return im } else { return nil } } }
}

/// What every kernel body's context offers for reading its value arguments by position.
public protocol KernelValueReading {
    var values: KernelValues { get }
}

extension KernelValueReading {
    public func float(at i: Int) -> Float { values.float(at: i) }
    public func vector(at i: Int) -> [Float] { values.vector(at: i) }
    public func rect(at i: Int) -> Rect { values.rect(at: i) }
}
