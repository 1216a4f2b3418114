// The half-size develop (SPEC X2, X7: draft mode and scale factors of ½ or less): one pixel per
// 2×2 block (red, the mean of the greens, blue), linearized per CFA position, through the
// highlight stage and the camera matrix. Cheap enough for draft re-renders: each photosite is
// read once, and a block's layout is the same everywhere (blocks start on the crop's even
// offsets), so it is worked out once. The algorithm only; the caller's rows are the schedule.
import DaguerreCore
import DaguerreFormats

extension WholeMosaicDevelop {
    /// Rows `y ..< y + count` of the half-size image, columns `columns` of it, as interleaved
    /// linear RGB floats in the working space; one row per work item.
    func halfSizeRows(y: Int, count: Int, columns cols: Range<Int>, into destination: UnsafeMutableRawPointer, bytesPerRow: Int) {
        let m = mosaic
        let s = settings
        let px = pixel
        let w = m.width
        let h = m.height
        let colors = px.colors
        // The four photosites of a block, by offset (dy·2 + dx): which is red, blue and the greens.
        let offsets = (0..<4).map { (dy: $0 / 2, dx: $0 % 2) }
        let colourAt = offsets.map { colors.color(x: s.crop.x + $0.dx, y: s.crop.y + $0.dy) }
        guard let ri = colourAt.firstIndex(of: 0), let bi = colourAt.firstIndex(of: 2) else { return }
        let greens = (0..<4).filter { colourAt[$0] == 1 }
        let black = linearization.floatBlack
        let scale = linearization.floatScale
        let levels = offsets.map { o in
            let p = ((s.crop.y + o.dy) & 1) * 2 + ((s.crop.x + o.dx) & 1)
            return (black: black[p], scale: scale[p])
        }
        let layout = HalfSizeRow.Layout(
            black: (levels[0].black, levels[1].black, levels[2].black, levels[3].black),
            scale: (levels[0].scale, levels[1].scale, levels[2].scale, levels[3].scale),
            roles: (ri, greens.first ?? ri, greens.last ?? greens.first ?? ri, bi))
        let highlight = px.highlight
        let cropX = s.crop.x
        let cropY = s.crop.y
        let maps = s.gainMaps
        let area = s.activeArea ?? IntRect(width: w, height: h)
        // Below this level in every white-balanced channel no photosite can be clipped.
        let knee = (highlight?.saturation ?? SIMD3(repeating: .infinity)) * HighlightRecovery.knee / px.gain
        let out = UnsafeTransfer(destination)
        m.samples.withUnsafeBufferPointer { samples in
            let whole = MosaicRows(whole: samples.baseAddress!, width: w, height: h)
            WorkerPool.share(iterations: count) { row in
                let sy = cropY + 2 * (y + row)
                let o = (out.value + row * bytesPerRow).assumingMemoryBound(to: Float.self)
                let first = cropX + 2 * cols.lowerBound
                let line = whole.row(sy) + first
                // Lens shading (GainMap) per photosite: factors of the block's two sensor rows.
                let sensorColumns = first..<(cropX + 2 * cols.upperBound)
                let topGain = LensShading.factors(maps, area: area, row: sy, columns: sensorColumns) ?? []
                let bottomGain = LensShading.factors(maps, area: area, row: sy + 1, columns: sensorColumns) ?? []
                topGain.withUnsafeBufferPointer { t in
                    bottomGain.withUnsafeBufferPointer { u in
                        let blocks = HalfSizeRow(
                            top: line, bottom: line + w, topGain: maps.isEmpty ? nil : t.baseAddress,
                            bottomGain: maps.isEmpty ? nil : u.baseAddress, layout: layout)
                        // The whole row as a vector loop; then the blocks near clipping again, through
                        // the highlight stage (the mosaic says which colours clipped).
                        guard !blocks.develop(blocks: cols.count, matrix: px.cameraMatrix, knee: knee, into: o), highlight != nil else {
                            return
                        }
                        for j in 0..<cols.count {
                            let (red, green, blue) = blocks.block(j)
                            guard red > knee.x || green > knee.y || blue > knee.z else { continue }
                            let v = px.camera(SIMD3(red, green, blue), x: first + 2 * j, y: sy, rows: whole)
                            px.cameraMatrix.write(v.x, v.y, v.z, to: o + 3 * j)
                        }
                    }
                }
            }
        }
    }
}
