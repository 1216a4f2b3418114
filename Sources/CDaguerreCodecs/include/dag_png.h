// libpng 1.6 behind functions that never longjmp into Swift (see png_bridge.c).
#ifndef DAG_PNG_H
#define DAG_PNG_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "dag_status.h"

/// One libpng read struct, its info struct and its input (a file or a private copy of a buffer).
typedef struct dag_png_decoder dag_png_decoder;

/// What the header says, and the layout rows are decoded into.
typedef struct dag_png_header {
    uint32_t width;
    uint32_t height;
    int interlaced;
    int channels;         /* after expansion: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA */
    int output_depth;     /* after expansion: 8 or 16 */
    size_t rowbytes;      /* after expansion */
} dag_png_header;

dag_png_decoder *dag_png_decoder_open_file(const char *path);
dag_png_decoder *dag_png_decoder_open_memory(const uint8_t *data, size_t length);
void dag_png_decoder_destroy(dag_png_decoder *d);
const char *dag_png_decoder_message(const dag_png_decoder *d);

/// Reads the chunks up to the first IDAT with libpng's own limits set (`max_dimension`,
/// `max_chunk_bytes`), then configures the expansions: palette → RGB, low-bit gray → 8 bits,
/// tRNS → alpha, 16-bit samples in native byte order, interlace handling.
dag_status dag_png_decoder_read_info(dag_png_decoder *d, uint32_t max_dimension, size_t max_chunk_bytes,
                                     dag_png_header *out);
/// The iCCP profile, malloc'ed (free with `dag_free`); *data NULL when there is none.
dag_status dag_png_decoder_icc(dag_png_decoder *d, uint8_t **data, uint32_t *length);
/// Reads the next `rows` rows of a non-interlaced image into `dst`.
dag_status dag_png_decoder_read_rows(dag_png_decoder *d, uint8_t *dst, size_t bytes_per_row, uint32_t rows);
/// Reads a whole (interlaced) image into `dst`, `height` rows of `bytes_per_row`.
dag_status dag_png_decoder_read_image(dag_png_decoder *d, uint8_t *dst, size_t bytes_per_row);

/// One libpng write struct writing to a FILE* it does not own.
typedef struct dag_png_encoder dag_png_encoder;

/// Creates the writer and writes the header chunks: `channels` 1...4, `depth` 8 or 16; iCCP when
/// `icc` is not NULL, else an sRGB chunk when `srgb`. NULL only when memory is short; otherwise
/// check `dag_png_encoder_status`.
dag_png_encoder *dag_png_encoder_create(FILE *file, uint32_t width, uint32_t height, int channels, int depth,
                                        const uint8_t *icc, uint32_t icc_length, int srgb);
dag_status dag_png_encoder_status(const dag_png_encoder *e);
const char *dag_png_encoder_message(const dag_png_encoder *e);
/// Writes `rows` rows (16-bit samples in native byte order).
dag_status dag_png_encoder_write(dag_png_encoder *e, const uint8_t *src, size_t bytes_per_row, uint32_t rows);
/// png_write_end: writes IEND. The FILE* still needs flushing by its owner.
dag_status dag_png_encoder_finish(dag_png_encoder *e);
void dag_png_encoder_destroy(dag_png_encoder *e);
#endif
