// The `daguerre` command: the seeds' demo apps (RAWExpose, LivePhotoEditor, AVCam) as a CLI.
import ArgumentParser

Daguerre.main()
