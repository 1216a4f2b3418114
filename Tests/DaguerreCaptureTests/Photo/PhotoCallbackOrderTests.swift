import DaguerreCapture
import DaguerreCore
import Foundation
import Testing

/// The documented callback order (SPEC P8) over every combination of format × preview × flash
/// × still-image stabilization × bracket × injected failure: willBegin first, didFinish last,
/// exactly expectedPhotoCount photos between, processed before RAW for each image; on failure
/// every expected callback still comes, carrying the error. Refused combinations are refused by
/// the rule the seeds give (P6), and capture nothing.
@Suite("PhotoOutput: callback order", .hangGuard, .serialized)
struct PhotoCallbackOrderTests {
    enum Format: String, CaseIterable {
        case jpeg, bgra, yuv420f, yuv420v, raw, rawPlusJPEG
    }

    struct Combination: CustomStringConvertible {
        var format: Format
        var preview: Bool
        var flash: FlashMode
        var sis: Bool
        var bracket: Int?  // nil: a single photo; 1 or 3: a bracket of that many

        var description: String { "\(format) preview:\(preview) flash:\(flash) sis:\(sis) bracket:\(bracket.map(String.init) ?? "-")" }

        /// The rule the seeds break for this combination, if any (checked in the rules' order).
        var brokenRule: PhotoSettingsRule? {
            let raw = format == .raw || format == .rawPlusJPEG
            if raw && sis { return .rawNoStabilization }
            if bracket != nil && flash != .off { return .bracketNoFlash }
            if bracket != nil && sis { return .bracketNoStabilization }
            return nil
        }

        func settings(rawType: PixelFormatType) -> (PhotoSettings, PhotoBracketSettings?) {
            let processed: [PhotoFormatKey: PhotoFormatValue]? =
                switch format {
                case .jpeg, .rawPlusJPEG: [.videoCodec: .jpeg]
                case .bgra: [.pixelFormatType: .bgra]
                case .yuv420f: [.pixelFormatType: .yuv420FullRange]
                case .yuv420v: [.pixelFormatType: .yuv420VideoRange]
                case .raw: nil
                }
            let raw = format == .raw || format == .rawPlusJPEG ? rawType : nil
            var bracket: PhotoBracketSettings?
            var settings: PhotoSettings
            if let n = self.bracket {
                let biases = n == 1 ? [0.0] : [-1.0, 0, 1]
                bracket = PhotoBracketSettings(
                    rawPixelFormatType: raw, processedFormat: processed,
                    bracketedSettings: biases.map { .autoExposure(exposureTargetBias: $0) })
                settings = bracket!.settings
            } else if let raw {
                settings = PhotoSettings(rawPixelFormatType: raw, processedFormat: processed)
            } else {
                settings = PhotoSettings(format: processed!)
            }
            settings.flashMode = flash
            settings.isAutoStillImageStabilizationEnabled = sis
            if preview {
                let pixel = settings.availablePreviewPhotoPixelFormatTypes.first!
                settings.previewPhotoFormat = PreviewPhotoFormat(pixelFormatType: pixel, width: 80, height: 80)
            }
            bracket?.settings = settings
            return (settings, bracket)
        }

        func expectedEvents(ok: Bool) -> [PhotoRecorder.Event] {
            let processed = format != .raw
            let raw = format == .raw || format == .rawPlusJPEG
            let images: [BracketedStillImageSettings?] =
                switch bracket {
                case nil: [nil]
                case 1?: [.autoExposure(exposureTargetBias: 0)]
                default: [-1.0, 0, 1].map { .autoExposure(exposureTargetBias: $0) }
                }
            var events: [PhotoRecorder.Event] = [.willBegin, .willCapture, .didCapture]
            for image in images {
                if processed { events.append(.photo(ok: ok, bracket: image)) }
                if raw { events.append(.raw(ok: ok, bracket: image)) }
            }
            return events + [.finish(ok: ok)]
        }
    }

    static var combinations: [Combination] {
        var all: [Combination] = []
        for format in Format.allCases {
            for preview in [false, true] {
                for flash in FlashMode.allCases {
                    for sis in [false, true] {
                        for bracket in [nil, 1, 3] as [Int?] {
                            all.append(Combination(format: format, preview: preview, flash: flash, sis: sis, bracket: bracket))
                        }
                    }
                }
            }
        }
        return all
    }

    @Test(
        "Every combination, without and with an injected failure at the exposure or the readout",
        arguments: FailingPhotoCamera.Failure.allCases)
    func order(failure: FailingPhotoCamera.Failure) throws {
        var failing: FailingPhotoCamera?
        let rig = try SmallCamera.running(
            profile: SmallCamera.profile(width: 320, height: 240),
            wrap: { device in
                let f = FailingPhotoCamera(device)
                failing = f
                return f
            },
            configure: { _, device in device.camera.lux = 10 })
        rig.startTicking()
        defer { rig.stopTicking() }
        let camera = try #require(failing)
        camera.inject(failure)
        let rawType = try #require(rig.output.availableRawPhotoPixelFormatTypes.first)
        let recorder = PhotoRecorder()
        var accepted: [(Combination, Int64)] = []
        var refused = 0
        for combination in Self.combinations {
            let (settings, bracket) = combination.settings(rawType: rawType)
            do throws(DaguerreError) {
                if let bracket {
                    try rig.output.capturePhoto(with: bracket, delegate: recorder)
                } else {
                    try rig.output.capturePhoto(with: settings, delegate: recorder)
                }
                #expect(combination.brokenRule == nil, "\(combination) was accepted")
                accepted.append((combination, settings.uniqueID))
            } catch {
                refused += 1
                guard case .photoSettings(let rule, _, _) = error else {
                    Issue.record("\(combination): \(error)")
                    continue
                }
                #expect(rule == combination.brokenRule?.rawValue, "\(combination) refused by \(rule)")
            }
        }
        #expect(recorder.waitForFinish(accepted.count, timeout: 600))
        print(
            "callback order, failure \(failure): \(Self.combinations.count) combinations, \(accepted.count) captured, \(refused) refused by their rule"
        )
        #expect(refused == Self.combinations.count - accepted.count && refused > 0 && accepted.count > 50)
        for (combination, id) in accepted {
            let events = recorder.events(of: id)
            #expect(events == combination.expectedEvents(ok: failure == .none), "\(combination): \(events)")
            let resolved = try #require(recorder.resolved[id])
            let photos = events.filter { if case .photo = $0 { true } else if case .raw = $0 { true } else { false } }
            #expect(photos.count == resolved.expectedPhotoCount, "\(combination)")
            // 10 lux: .auto fires the flash unless SIS is considered, which is preferred from 2 lux (S3).
            let flash = combination.flash == .on || (combination.flash == .auto && !combination.sis)
            #expect(resolved.isFlashEnabled == flash, "\(combination)")
            #expect(resolved.isStillImageStabilizationEnabled == (combination.sis && !flash), "\(combination)")
        }
        // Requests finish in the order they were made (responsive capture keeps the order).
        let finishes = recorder.finishOrder
        #expect(finishes == accepted.map(\.1))
        // Photos that arrived carry their buffers; failures carry the error and no buffer.
        for photo in recorder.photos {
            #expect((photo.buffer != nil) == (failure == .none))
            #expect((photo.error != nil) == (failure != .none))
            if failure == .none, photo.resolved.previewPhotoDimensions.width > 0 {
                #expect(photo.preview?.width == photo.resolved.previewPhotoDimensions.width)
            }
        }
    }
}
