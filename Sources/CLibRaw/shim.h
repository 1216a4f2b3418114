// LibRaw (libraw_r, thread-safe) for Swift: the C API, plus accessors that copy LibRaw's
// fixed-size arrays into plain ones (Swift sees C arrays as tuples).
#include <libraw/libraw.h>

/// Colour and level facts: cam_mul[4], cam_xyz (first three rows, row-major)[9], the white level.
static inline void dag_libraw_color(const libraw_data_t *d, float camMul[4], float camXYZ[9], float *maximum) {
    for (int i = 0; i < 4; i++) camMul[i] = d->color.cam_mul[i];
    for (int r = 0; r < 3; r++) for (int c = 0; c < 3; c++) camXYZ[r * 3 + c] = d->color.cam_xyz[r][c];
    *maximum = (float)d->color.maximum;
}

/// The black level of visible-area photosite (row, col): the common level, the per-colour one,
/// and the repeat pattern (cblack[4] × cblack[5] values from cblack[6]) that DNGs use.
static inline float dag_libraw_black_at(const libraw_data_t *d, int row, int col) {
    const unsigned *cb = d->color.cblack;
    float b = (float)(d->color.black + cb[libraw_COLOR((libraw_data_t *)d, row, col)]);
    if (cb[4] > 0 && cb[5] > 0 && 6 + cb[4] * cb[5] <= LIBRAW_CBLACK_SIZE)
        b += (float)cb[6 + (unsigned)(row % (int)cb[4]) * cb[5] + (unsigned)(col % (int)cb[5])];
    return b;
}

/// The daylight multipliers pre_mul[4] (dcraw's table, or derived from the matrix for D65) and
/// rgb_cam (camera → linear sRGB, first three columns, row-major)[9]: LibRaw's colour for a
/// camera whose cam_xyz is empty (identity when it has no matrix at all: "raw colour").
static inline void dag_libraw_daylight(const libraw_data_t *d, float preMul[4], float rgbCam[9]) {
    for (int i = 0; i < 4; i++) preMul[i] = d->color.pre_mul[i];
    for (int r = 0; r < 3; r++) for (int c = 0; c < 3; c++) rgbCam[r * 3 + c] = d->color.rgb_cam[r][c];
}

static inline const char *dag_libraw_make(const libraw_data_t *d) { return d->idata.make; }
static inline const char *dag_libraw_model(const libraw_data_t *d) { return d->idata.model; }
