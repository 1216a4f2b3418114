@_exported import DaguerreCapture
@_exported import DaguerreCore
@_exported import DaguerreFormats
@_exported import DaguerreImage
@_exported import DaguerreLivePhoto
@_exported import DaguerreMovie
@_exported import DaguerreRAW
@_exported import DaguerreVirtualCamera
