// libjpeg(-turbo) behind functions that never longjmp into Swift (see jpeg_bridge.c).
#ifndef DAG_JPEG_H
#define DAG_JPEG_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "dag_status.h"

/// One JPEG decompressor, its error manager and its input (a file or a private copy of a buffer).
typedef struct dag_jpeg_decoder dag_jpeg_decoder;

/// Header facts, filled by `dag_jpeg_decoder_read_header`.
typedef struct dag_jpeg_header {
    uint32_t width;
    uint32_t height;
    int components;
    /// libjpeg's J_COLOR_SPACE of the file: 1 gray, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK.
    int color_space;
} dag_jpeg_header;

/// Opens `path` for reading; NULL (with `errno` set) if it cannot be opened or memory is short.
dag_jpeg_decoder *dag_jpeg_decoder_open_file(const char *path);
/// Reads from a private copy of `data`; NULL if memory is short.
dag_jpeg_decoder *dag_jpeg_decoder_open_memory(const uint8_t *data, size_t length);
void dag_jpeg_decoder_destroy(dag_jpeg_decoder *d);
/// The message of the last failure (or of the first corrupt-data warning).
const char *dag_jpeg_decoder_message(const dag_jpeg_decoder *d);
/// Warnings recorded since the last call to `dag_jpeg_decoder_take_warning`: DAG_OK when none,
/// DAG_TRUNCATED for "premature end of file", DAG_CORRUPT for corrupt-data warnings.
dag_status dag_jpeg_decoder_take_warning(dag_jpeg_decoder *d);

/// Reads the header (saving APP2 markers for the ICC profile). `max_memory` caps libjpeg's own
/// allocations (a progressive file's coefficient buffer).
dag_status dag_jpeg_decoder_read_header(dag_jpeg_decoder *d, long max_memory, dag_jpeg_header *out);
/// The ICC profile, malloc'ed (free with `dag_free`); *data NULL when the file has none.
dag_status dag_jpeg_decoder_icc(dag_jpeg_decoder *d, uint8_t **data, unsigned *length);
/// jpeg_start_decompress with `gray` ? JCS_GRAYSCALE : JCS_RGB output, ISLOW DCT, fancy upsampling.
/* scale_denom 1, 2, 4 or 8: the image decoded at that fraction of its size in the DCT domain
   (each side rounded up). */
dag_status dag_jpeg_decoder_start(dag_jpeg_decoder *d, int gray, unsigned int scale_denom);
/// jpeg_crop_scanline: widens [*x, *x + *width) to iMCU boundaries in place.
dag_status dag_jpeg_decoder_crop(dag_jpeg_decoder *d, uint32_t *x, uint32_t *width);
/// The next row to be read (output_scanline).
uint32_t dag_jpeg_decoder_next_row(const dag_jpeg_decoder *d);
/// jpeg_skip_scanlines.
dag_status dag_jpeg_decoder_skip(dag_jpeg_decoder *d, uint32_t rows);
/// Reads `rows` rows into `dst` (stride `bytes_per_row`); *done says how many were read.
dag_status dag_jpeg_decoder_read(dag_jpeg_decoder *d, uint8_t *dst, size_t bytes_per_row, uint32_t rows, uint32_t *done);

/// One JPEG compressor writing to a FILE* it does not own.
typedef struct dag_jpeg_encoder dag_jpeg_encoder;

/// Creates the compressor and writes the header, then the caller's `markers` (a sequence of
/// [marker code][payload length, 2 bytes big-endian][payload]; APP1 first suppresses JFIF APP0),
/// then the ICC profile, if `icc` is not NULL.
/// `components` is 1 (gray) or 3 (RGB); `quality` 1...100; `subsample` 1 for 4:2:0, 0 for 4:4:4.
/// Returns NULL only when memory is short; otherwise check `dag_jpeg_encoder_status`.
dag_jpeg_encoder *dag_jpeg_encoder_create(FILE *file, uint32_t width, uint32_t height, int components,
                                          int quality, int subsample, const uint8_t *icc, unsigned icc_length,
                                          const uint8_t *markers, size_t markers_length);
dag_status dag_jpeg_encoder_status(const dag_jpeg_encoder *e);
const char *dag_jpeg_encoder_message(const dag_jpeg_encoder *e);
dag_status dag_jpeg_encoder_write(dag_jpeg_encoder *e, const uint8_t *src, size_t bytes_per_row, uint32_t rows);
/// jpeg_finish_compress: writes EOI. The FILE* still needs flushing by its owner.
dag_status dag_jpeg_encoder_finish(dag_jpeg_encoder *e);
void dag_jpeg_encoder_destroy(dag_jpeg_encoder *e);

/// free(), for buffers the bridges return.
void dag_free(void *p);
#endif
