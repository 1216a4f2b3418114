// The bilinear develop (SPEC X2's fast demosaic: draft mode at full size, and pipeline version
// 1): per output row, the three sensor rows it reads are linearized (and shaded by the gain
// maps), demosaicked by the shared bilinear kernel, then each pixel goes through the highlight
// stage and the matrix. The algorithm only; the caller's rows are the schedule. Our own code.
import DaguerreCore
import DaguerreFormats

extension WholeMosaicDevelop {
    /// Rows `y ..< y + count` of the crop, columns `columns` of it, as interleaved linear RGB
    /// floats in the working space; one row per work item.
    func bilinearRows(y: Int, count: Int, columns cols: Range<Int>, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) {
        let m = mosaic
        let s = settings
        let px = pixel
        let w = m.width
        let h = m.height
        let black = linearization.floatBlack
        let scale = linearization.floatScale
        let area = s.activeArea ?? IntRect(width: w, height: h)
        let maps = s.gainMaps
        let sites = (0..<4).map { BilinearSite(pattern: m.pattern, x: $0 & 1, y: $0 >> 1) }
        // The photosites a row reads: its columns and one more each side (mirrored inside).
        let first = s.crop.x + cols.lowerBound
        let n = cols.count
        let shadingColumns = max(0, first - 1)..<min(w, first + n + 1)
        let out = UnsafeTransfer(destination.assumingMemoryBound(to: UInt8.self))
        m.samples.withUnsafeBufferPointer { samples in
            let whole = MosaicRows(whole: samples.baseAddress!, width: w, height: h)
            WorkerPool.share(iterations: count) { r in
                let sy = s.crop.y + y + r
                // Rows sy − 1, sy, sy + 1 and columns first − 1 … first + n, linearized and
                // shaded; mirrored by two photosites at the mosaic's edges (same CFA colour).
                let stride = n + 2
                var lines = [Float](repeating: 0, count: 3 * stride)
                var planes = [Float](repeating: 0, count: 3 * n)
                for k in 0..<3 {
                    let yy = sy - 1 + k
                    let cy = yy < 0 ? yy + 2 : yy >= h ? yy - 2 : yy
                    let gains = LensShading.factors(maps, area: area, row: cy, columns: shadingColumns)
                    let line = whole.row(cy)
                    for i in 0..<stride {
                        let xx = first - 1 + i
                        let cx = xx < 0 ? xx + 2 : xx >= w ? xx - 2 : xx
                        let p = (cy & 1) * 2 + (cx & 1)
                        let v = Linearization.float(line[cx], black: black[p], scale: scale[p])
                        lines[k * stride + i] = gains.map { v * $0[cx - shadingColumns.lowerBound] } ?? v
                    }
                }
                let row = UnsafeMutableRawPointer(out.value + r * bytesPerRow).assumingMemoryBound(to: Float.self)
                lines.withUnsafeBufferPointer { l in
                    planes.withUnsafeMutableBufferPointer { p in
                        let (rr, gg, bb) = (p.baseAddress!, p.baseAddress! + n, p.baseAddress! + 2 * n)
                        let parity = (sy & 1) * 2
                        BilinearDemosaic.row(
                            up: l.baseAddress! + 1, mid: l.baseAddress! + stride + 1, down: l.baseAddress! + 2 * stride + 1, count: n,
                            first: sites[parity | (first & 1)], second: sites[parity | ((first + 1) & 1)], red: rr, green: gg, blue: bb)
                        for i in 0..<n {
                            var rgb = SIMD3(rr[i], gg[i], bb[i])
                            if let hl = px.highlight, hl.mayBeClipped(rgb * px.gain) {
                                rgb = px.camera(rgb, x: first + i, y: sy, rows: whole)
                            }
                            px.cameraMatrix.write(rgb.x, rgb.y, rgb.z, to: row + 3 * i)
                        }
                    }
                }
            }
        }
    }
}
