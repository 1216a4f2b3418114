import DaguerreCapture
import DaguerreCore
import DaguerreFormats
import DaguerreMovie
import DaguerreTestSupport
import DaguerreVirtualCamera
import Foundation
import Testing

@Suite("Live Photo capture", .serialized)
struct LivePhotoCaptureTests {
    @Test("A Live Photo: the still and a paired movie, 1.5 s each side, callbacks in order (L1–L4, L7)")
    func livePhoto() throws {
        let dir = try TemporaryDirectory()
        let (rig, _) = try LivePhotoRig.running()
        rig.step(2)
        let recorder = PhotoRecorder()
        let settings = LivePhotoRig.settings(in: dir.url.path)
        print("request at", rig.clock.now)
        try rig.output.capturePhoto(with: settings, delegate: recorder)
        rig.step(2)
        #expect(recorder.waitForFinish(timeout: 60))
        let id = settings.uniqueID
        print("events", recorder.events(of: id))
        #expect(recorder.events(of: id) == [.willBegin, .willCapture, .didCapture, .photo(ok: true, bracket: nil), .movieRecorded, .movie(ok: true), .finish(ok: true)])
        let movie = try #require(recorder.movies[id])
        print("movie", movie)
        let info = try MovieReader(path: movie.url.path)
        print(info.contentIdentifier ?? "-", try info.stillImageTime()?.seconds ?? -1)
    }
}
