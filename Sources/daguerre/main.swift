// The `daguerre` command: the seeds' demo apps (RAWExpose, LivePhotoEditor, AVCam) as a CLI.
import ArgumentParser
import Dispatch

// One worker of the global pool starts now, while the arguments are parsed: the first parallel
// loop of a develop (the file read, in two halves) otherwise waited about 5 ms for its thread.
DispatchQueue.global().async {}
Daguerre.main()
