// The virtual microphone (SPEC C4, L2): 44.1 kHz 16-bit PCM from the scene's sound, a
// tone, seeded noise or a WAV file, deterministic for a seed and addressable by time, so a
// session on a virtual clock records the same audio however fast it runs.
import DaguerreCore
import Foundation

/// What the scene sounds like.
public enum SceneSound: Sendable, Equatable {
    case silence
    /// A sine tone: frequency in Hz, amplitude 0...1 of full scale.
    case tone(frequency: Double, amplitude: Double)
    /// White noise of RMS amplitude 0...1, seeded.
    case noise(amplitude: Double)
    /// A 16-bit PCM WAV file's samples (mono, or the first channel), looped.
    case samples([Int16])
}

/// A microphone: `samples(from:count:)` gives the PCM for any stretch of the clock.
///
/// ```swift
/// let mic = VirtualMicrophone(sound: .tone(frequency: 440, amplitude: 0.25), seed: 1)
/// let pcm = mic.samples(from: 0, count: 44_100)        // the first second
/// ```
public struct VirtualMicrophone: Sendable {
    public static let sampleRate = 44_100
    public var sound: SceneSound
    public var seed: UInt64
    /// Channels delivered (1 or 2; stereo repeats the signal).
    public var channels: Int

    public init(sound: SceneSound = .tone(frequency: 440, amplitude: 0.2), seed: UInt64 = 0, channels: Int = 1) {
        self.sound = sound
        self.seed = seed
        self.channels = max(1, min(2, channels))
    }

    /// Interleaved samples for frames `start ..< start + count` of the 44.1 kHz clock.
    public func samples(from start: Int, count: Int) -> [Int16] {
        guard count > 0 else { return [] }
        var out = [Int16](repeating: 0, count: count * channels)
        for i in 0..<count {
            let n = start + i
            let v: Double
            switch sound {
            case .silence: v = 0
            case .tone(let f, let a): v = a * sin(2 * Double.pi * f * Double(n) / Double(Self.sampleRate))
            case .noise(let a):
                // One counter-based draw per sample: the same sample index gives the same value.
                var rng = SplitMix64(seed: seed, 0xA0D10, UInt64(bitPattern: Int64(n)))
                let u1 = max(rng.uniform(), 1e-12)
                let u2 = rng.uniform()
                v = a * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            case .samples(let s): v = s.isEmpty ? 0 : Double(s[((n % s.count) + s.count) % s.count]) / 32768
            }
            let clamped = v.isNaN ? 0 : min(max(v, -1), 1)
            let q = Int16((clamped * 32767).rounded())
            for c in 0..<channels { out[i * channels + c] = q }
        }
        return out
    }

    /// Reads a 16-bit PCM WAV file (RIFF/WAVE, format 1) at 44.1 kHz as a scene sound; other
    /// WAVs are refused with a hint. Our own 40 lines: the container is a few fixed fields.
    public static func wavSound(path: String) throws(DaguerreError) -> SceneSound {
        let bytes: [UInt8]
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        guard size <= 256 << 20 else {
            throw .tooLarge(what: "WAV file \(path) in bytes", value: size, limit: 256 << 20)
        }
        do { bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
            throw .io(operation: "read", path: path, reason: error.localizedDescription)
        }
        func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x41, 0x56, 0x45] else {
            throw .corruptData(format: "WAV", detail: "it does not start with RIFF…WAVE", path: path)
        }
        var offset = 12
        var channels = 0
        var rate = 0
        var bits = 0
        var format = 0
        var data: Range<Int>?
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            let body = offset + 8
            guard body + size <= bytes.count else { throw .truncated(format: "WAV", path: path) }
            if id == "fmt ", size >= 16 {
                format = u16(body)
                channels = u16(body + 2)
                rate = u32(body + 4)
                bits = u16(body + 14)
            }
            if id == "data" { data = body..<body + size }
            offset = body + size + (size & 1)
        }
        guard format == 1, bits == 16, channels >= 1, rate == sampleRate, let data else {
            throw .unsupported(
                feature: "WAV audio other than 16-bit PCM at 44.1 kHz (this is format \(format), \(bits)-bit, \(rate) Hz)",
                hint: "Convert it: ffmpeg -i in.wav -ar 44100 -c:a pcm_s16le out.wav")
        }
        let frames = data.count / (2 * channels)
        let samples = (0..<frames).map { Int16(truncatingIfNeeded: u16(data.lowerBound + $0 * 2 * channels)) }
        return .samples(samples)
    }
}
