// swift-tools-version: 6.0
// Daguerre: the iOS 10 photography stack (capture, RAW/DNG, Live Photos, wide colour and a
// Core Image-class engine) in Swift, on Linux. See ARCHITECTURE.md for the module map.
// The benchmarks (Benchmarks/) and the fuzz harnesses (fuzz/) are packages of their own.
//
// Performance note for people who depend on this package: pixel loops want AVX2, FMA and F16C.
// Unsafe compiler flags in a manifest would stop other packages from depending on this one, so
// the flag is passed from the build command instead: `swift build -c release $(scripts/swift-flags)`.
import PackageDescription

let package = Package(
    name: "Daguerre",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Daguerre", targets: ["Daguerre"]),
        .library(name: "DaguerreCore", targets: ["DaguerreCore"]),
        .library(name: "DaguerreFormats", targets: ["DaguerreFormats"]),
        .library(name: "DaguerreMovie", targets: ["DaguerreMovie"]),
        .library(name: "DaguerreImage", targets: ["DaguerreImage"]),
        .library(name: "DaguerreVirtualCamera", targets: ["DaguerreVirtualCamera"]),
        .library(name: "DaguerreCapture", targets: ["DaguerreCapture"]),
        .library(name: "DaguerreRAW", targets: ["DaguerreRAW"]),
        .library(name: "DaguerreLivePhoto", targets: ["DaguerreLivePhoto"]),
        .executable(name: "daguerre", targets: ["daguerre"]),
        .executable(name: "variable-box-blur", targets: ["variable-box-blur"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // System libraries from Debian: module maps and shim headers only.
        .systemLibrary(
            name: "CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "CLCMS2", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(
            name: "CTIFF", pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"]), .brew(["libtiff"])]),
        // Video: libx264 encodes H.264 (L2); FFmpeg's libavcodec decodes H.264 and HEVC, encodes
        // HEVC through its libx265 wrapper and AAC for Motion Photo MP4s. The QuickTime container
        // itself is Daguerre's own code.
        // No pkgConfig for x264: its .pc file adds -DX264_API_IMPORTS (a Windows DLL flag), which
        // SwiftPM refuses with a warning on every build. x264.h and libx264 are on the default
        // paths of Debian's libx264-dev (scripts/setup installs it).
        // Neither is linked: CDaguerreVideo loads them on first use (a process that never
        // touches video does not bind libavcodec's 95 libraries at start-up), so these modules
        // give the headers only; libavcodec-dev, libavutil-dev, libswscale-dev and libx264-dev put them on the
        // default paths (scripts/setup installs them).
        .systemLibrary(name: "CX264", providers: [.apt(["libx264-dev"]), .brew(["x264"])]),
        // OpenH264 (BSD-2): the permissive H.264 encoder, chosen by MovieSettings.encoder. Loaded
        // on first use like x264; no pkgConfig, whose Libs would link it at start-up.
        .systemLibrary(name: "COpenH264", providers: [.apt(["libopenh264-dev"]), .brew(["openh264"])]),
        .systemLibrary(name: "CFFmpeg", providers: [.apt(["libavcodec-dev", "libavutil-dev", "libswscale-dev"]), .brew(["ffmpeg"])]),
        // LibRaw decodes the RAW formats DNG does not cover (X6); development stays ours. No
        // pkgConfig: libraw_r's .pc adds -fopenmp, which SwiftPM refuses with a warning on every
        // build; Debian installs the header and library on the default paths.
        .systemLibrary(name: "CLibRaw", providers: [.apt(["libraw-dev"]), .brew(["libraw"])]),
        // libheif reads HEIF/HEIC stills (the iPhone's photos since iOS 11, Samsung's HEIC motion
        // photos): the boxes, the HEVC decoding (through libde265) and the conversion to RGB.
        .systemLibrary(
            name: "CHeif", pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"]), .brew(["libheif"])]),
        // Text (TextImageGenerator): fontconfig finds the font, FreeType rasterizes its glyphs,
        // HarfBuzz shapes the text. harfbuzz.pc brings FreeType's include path too.
        .systemLibrary(
            name: "CText", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev", "libfreetype-dev", "libfontconfig-dev"]), .brew(["harfbuzz", "freetype", "fontconfig"])]),
        // libqrencode encodes QRCodeGenerator's symbols (ISO/IEC 18004).
        .systemLibrary(
            name: "CQREncode", pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]),
        // libzint encodes the Aztec, Code 128 and PDF417 generators' symbols, behind a small C
        // face (Swift's importer stalls on zint.h's symbol struct).
        .target(name: "CZintShim", linkerSettings: [.linkedLibrary("zint")]),
        // C glue that Swift cannot express: setjmp/longjmp error recovery and va_list messages.
        .target(name: "CDaguerreCodecs", dependencies: ["CJPEG", "CPNG", "CTIFF"]),
        // The video libraries' functions, forwarded to libavcodec, libavutil, libx264 and
        // libopenh264 once dlopen has loaded them on first use.
        .target(name: "CDaguerreVideo", dependencies: ["CFFmpeg", "CX264", "COpenH264"]),

        .target(
            name: "DaguerreCore",
            dependencies: ["CLCMS2", .product(name: "Crypto", package: "swift-crypto")]),
        // Still formats: JPEG, PNG, TIFF, DNG, HEIF/HEIC (read and written), EXIF/XMP/ICC.
        .target(name: "DaguerreFormats", dependencies: ["DaguerreCore", "CDaguerreCodecs", "CHeif"]),
        // Movies: QuickTime/MP4, H.264, HEVC, AAC, the Live Photo pair and Motion Photo; the only
        // module that needs the video libraries.
        .target(
            name: "DaguerreMovie", dependencies: ["DaguerreCore", "DaguerreFormats", "CDaguerreVideo", "CX264", "COpenH264", "CFFmpeg"]),
        .target(
            name: "DaguerreImage",
            dependencies: [
                "DaguerreCore", "DaguerreFormats", "CText", "CQREncode", "CZintShim",
                .product(name: "Collections", package: "swift-collections"),
            ]),
        // The physically based virtual camera: scenes, optics, Bayer sensor physics, control loops.
        .target(name: "DaguerreVirtualCamera", dependencies: ["DaguerreCore", "DaguerreFormats"]),
        // Capture (AVFoundation's capture side): devices as a protocol, sessions, outputs,
        // authorization, clocks; the virtual camera adapted as the default devices.
        .target(
            name: "DaguerreCapture",
            dependencies: ["DaguerreCore", "DaguerreFormats", "DaguerreMovie", "DaguerreImage", "DaguerreRAW", "DaguerreVirtualCamera"]),
        // RAW development (CIRAWFilter): the DNG colour model and the develop stages, rendering through the engine.
        .target(name: "DaguerreRAW", dependencies: ["DaguerreCore", "DaguerreFormats", "DaguerreImage", "CLibRaw"]),
        // Live Photo editing (PHLivePhotoEditingContext): one frame processor for the still and
        // the movie, previews, saves that keep the pairing, adjustment data.
        .target(name: "DaguerreLivePhoto", dependencies: ["DaguerreCore", "DaguerreFormats", "DaguerreImage", "DaguerreMovie"]),
        .target(
            name: "Daguerre",
            dependencies: [
                "DaguerreCore", "DaguerreFormats", "DaguerreMovie", "DaguerreImage", "DaguerreRAW", "DaguerreVirtualCamera",
                "DaguerreCapture", "DaguerreLivePhoto",
            ]),
        // The seeds' worked examples, shared by the sample programs, the demo job and the tests:
        // the engine's variable box blur, the photo output's samples and the Live Photo edits.
        .target(
            name: "DaguerreSamples",
            dependencies: ["DaguerreCore", "DaguerreFormats", "DaguerreMovie", "DaguerreImage", "DaguerreCapture", "DaguerreLivePhoto"]),
        .executableTarget(
            name: "daguerre",
            dependencies: [
                "Daguerre", "DaguerreSamples",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "capture-sample", dependencies: ["Daguerre"], path: "Examples/capture-sample"),
        .executableTarget(name: "photo-samples", dependencies: ["Daguerre", "DaguerreSamples"], path: "Examples/photo-samples"),
        .executableTarget(
            name: "variable-box-blur", dependencies: ["Daguerre", "DaguerreSamples"],
            path: "Examples/variable-box-blur"),
        .executableTarget(
            name: "live-photo-samples", dependencies: ["Daguerre", "DaguerreSamples"], path: "Examples/live-photo-samples"),

        // What each fuzz harness runs, for the crash replays in the tests (FuzzRegressionTests).
        // Not a product: the fuzz/ package compiles the same folder as a target of its own.
        .target(name: "DaguerreFuzzTargets", dependencies: ["Daguerre", "DaguerreFormats"], path: "fuzz/Targets"),

        // Test-only helpers: running the independent judges (Python packages, exiftool), the
        // test data's folders and the reference images beside the golden checksums.
        .target(name: "DaguerreTestSupport", dependencies: ["DaguerreCore", "DaguerreFormats"], path: "Tests/DaguerreTestSupport"),
        .testTarget(
            name: "DaguerreCoreTests",
            dependencies: ["DaguerreCore", "DaguerreTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(
            name: "DaguerreFormatsTests",
            dependencies: ["DaguerreFormats", "CDaguerreCodecs", "DaguerreFuzzTargets", "DaguerreTestSupport"]),
        .testTarget(
            name: "DaguerreMovieTests", dependencies: ["DaguerreMovie", "DaguerreFormats", "DaguerreFuzzTargets", "DaguerreTestSupport"]),
        .testTarget(name: "DaguerreLivePhotoTests", dependencies: ["DaguerreLivePhoto", "DaguerreSamples", "DaguerreTestSupport"]),
        .testTarget(name: "DaguerreVirtualCameraTests", dependencies: ["DaguerreVirtualCamera", "DaguerreTestSupport"]),
        .testTarget(
            name: "DaguerreCaptureTests",
            dependencies: [
                "DaguerreCapture", "DaguerreVirtualCamera", "DaguerreCore", "DaguerreFormats", "DaguerreMovie", "DaguerreSamples",
                "DaguerreTestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(name: "DaguerreRAWTests", dependencies: ["DaguerreRAW", "DaguerreVirtualCamera", "DaguerreTestSupport"]),
        .testTarget(name: "DaguerreImageTests", dependencies: ["Daguerre", "DaguerreSamples", "DaguerreTestSupport", "CLCMS2"]),
    ],
    swiftLanguageModes: [.v6]
)
