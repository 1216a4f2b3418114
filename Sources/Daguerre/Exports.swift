@_exported import DaguerreCore
@_exported import DaguerreFormats
@_exported import DaguerreMovie
@_exported import DaguerreImage
@_exported import DaguerreVirtualCamera
@_exported import DaguerreCapture
@_exported import DaguerreRAW
