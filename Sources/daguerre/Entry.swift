// The `daguerre` command: the seeds' demo apps (RAWExpose, LivePhotoEditor, AVCam) as a CLI.
import ArgumentParser
import Dispatch

@main
enum Entry {
    static func main() async {
        // Ctrl-C and SIGTERM abandon the file in progress and keep the finished ones.
        Interruption.install()
        // One worker of the global pool starts now, while the arguments are parsed: the first parallel
        // loop of a develop (the file read, in two halves) otherwise waited about 5 ms for its thread.
        DispatchQueue.global().async {}
        await Daguerre.main(nil)
    }
}
