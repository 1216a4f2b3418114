// Taking an embedded ICC profile out of a C bridge (libjpeg's APP2 chunks, libpng's iCCP).
import CDaguerreCodecs
import DaguerreCore

extension ImageFileInfo {
    /// Asks `fetch` for the file's profile (a malloc'ed copy, freed here) and, when there is one,
    /// records it and the colour space it describes. Returns the bridge's status.
    mutating func adoptEmbeddedICC(
        gray: Bool,
        _ fetch: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<UInt32>) -> dag_status
    ) -> dag_status {
        var icc: UnsafeMutablePointer<UInt8>?
        var length: UInt32 = 0
        let status = fetch(&icc, &length)
        defer { dag_free(icc) }
        guard status == DAG_OK else { return status }
        if let icc, length > 0 {
            let bytes = Array(UnsafeBufferPointer(start: icc, count: Int(length)))
            iccProfile = bytes
            // An unusable profile falls back to the format default, not to nothing.
            colorSpace = Self.colorSpace(fromICC: bytes, gray: gray)
        }
        return DAG_OK
    }
}
