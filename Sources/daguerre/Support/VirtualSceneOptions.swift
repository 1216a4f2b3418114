// The virtual camera's scene, as `frames` and `record` take it on the command line (SPEC C1).
import ArgumentParser
import Daguerre

/// Which virtual camera films the studio scene, and under what light. Checked before a command
/// runs, so a bad value is a usage error that says what to give instead.
///
/// ```swift
/// @OptionGroup var scene: VirtualSceneOptions
/// camera.lux = scene.lux; camera.illuminant = scene.light
/// ```
struct VirtualSceneOptions: ParsableArguments {
    @Option(help: "back (1920×1080 stream) or front (1280×960).") var device = "back"
    @Option(help: "The scene's light level in lux.") var lux = 400.0
    @Option(help: "D65, A (tungsten) or FL2 (fluorescent).") var illuminant = "D65"

    func validate() throws {
        guard ["back", "front"].contains(device.lowercased()) else { throw ValidationError("--device \(device): use back or front.") }
        guard lux.isFinite, lux >= 0, lux <= 200_000 else { throw ValidationError("--lux \(lux): give 0 to 200000 lux.") }
        guard Illuminant(name: illuminant) != nil else {
            throw ValidationError("--illuminant \(illuminant): use D65, A (tungsten) or FL2 (fluorescent).")
        }
    }

    var isFront: Bool { device.lowercased() == "front" }
    /// The illuminant named (validated above).
    var light: Illuminant { Illuminant(name: illuminant) ?? .d65 }
}
