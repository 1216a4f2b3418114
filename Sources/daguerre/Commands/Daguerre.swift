import ArgumentParser

struct Daguerre: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daguerre",
        abstract: "Photography on Linux: an image engine with colour management, filters and streaming file output.",
        discussion: """
            Environment: DAGUERRE_PRINT_TREE=1 prints each render's recipe, =8 the program as rendered \
            (add 'graphviz' for a .dot file in DAGUERRE_PRINT_TREE_DIR). DAGUERRE_TRACE_WRITES=1 prints a line \
            as each file is begun and committed; DAGUERRE_NAMED_TEMPORARIES=1 writes through named hidden \
            temporaries instead of unnamed (O_TMPFILE) files.

            Ctrl-C or SIGTERM abandons the file in progress, keeps the finished ones and exits with 130 or 143.
            """,
        subcommands: [
            ApplyCommand.self, GenerateCommand.self, FiltersCommand.self, InspectCommand.self, MotionPhotoCommand.self, FramesCommand.self,
            RecordCommand.self, CaptureCommand.self, DevelopCommand.self, LiveCommand.self, DemoCommand.self,
        ]
    )
}
