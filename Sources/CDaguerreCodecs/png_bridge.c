// The libpng bridge: PNG decoding and encoding for DaguerreFormats (libpng 1.6, full API, so
// rows stream instead of whole images being held by the simplified API).
//
// Why this file exists: libpng reports errors by calling an error function that must not
// return, and recovers with setjmp/longjmp (png_jmpbuf). Swift cannot express setjmp, and a
// longjmp across Swift frames is undefined behaviour. So each libpng call that can fail is made
// here, inside a function that does its own setjmp and returns a `dag_status` plus a message.
// Input is read through our own callbacks so that running out of bytes is reported as
// truncation, distinct from CRC and zlib errors.
#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include "dag_png.h"

#define DAG_MSG 256

struct dag_png_decoder {
    png_structp png;
    png_infop info;
    FILE *file;
    uint8_t *memory;
    size_t memory_length, memory_position;
    int truncated;       /* the input ran out */
    int too_large;       /* libpng's user limits refused the header */
    int io_error;
    char message[DAG_MSG];
    uint32_t height;
    uint32_t next_row;
};

static void dag_png_error(png_structp png, png_const_charp msg) {
    dag_png_decoder *d = png_get_error_ptr(png);
    snprintf(d->message, DAG_MSG, "%s", msg ? msg : "libpng error");
    if (msg && strstr(msg, "exceeds user limit")) d->too_large = 1;
    png_longjmp(png, 1);
}

static void dag_png_warning(png_structp png, png_const_charp msg) { (void)png; (void)msg; }

static void dag_png_read_file(png_structp png, png_bytep out, size_t length) {
    dag_png_decoder *d = png_get_io_ptr(png);
    size_t n = fread(out, 1, length, d->file);
    if (n != length) {
        if (ferror(d->file)) { d->io_error = 1; png_error(png, strerror(errno)); }
        d->truncated = 1;
        png_error(png, "premature end of file");
    }
}

static void dag_png_read_memory(png_structp png, png_bytep out, size_t length) {
    dag_png_decoder *d = png_get_io_ptr(png);
    if (length > d->memory_length - d->memory_position) {
        d->truncated = 1;
        png_error(png, "premature end of data");
    }
    memcpy(out, d->memory + d->memory_position, length);
    d->memory_position += length;
}

static dag_png_decoder *dag_png_decoder_new(void) {
    dag_png_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d, dag_png_error, dag_png_warning);
    if (!d->png) { free(d); return NULL; }
    d->info = png_create_info_struct(d->png);
    if (!d->info) { png_destroy_read_struct(&d->png, NULL, NULL); free(d); return NULL; }
    return d;
}

dag_png_decoder *dag_png_decoder_open_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    dag_png_decoder *d = dag_png_decoder_new();
    if (!d) { fclose(f); errno = ENOMEM; return NULL; }
    d->file = f;
    png_set_read_fn(d->png, d, dag_png_read_file);
    return d;
}

dag_png_decoder *dag_png_decoder_open_memory(const uint8_t *data, size_t length) {
    dag_png_decoder *d = dag_png_decoder_new();
    if (!d) return NULL;
    d->memory = malloc(length ? length : 1);
    if (!d->memory) { dag_png_decoder_destroy(d); return NULL; }
    if (length) memcpy(d->memory, data, length);
    d->memory_length = length;
    png_set_read_fn(d->png, d, dag_png_read_memory);
    return d;
}

void dag_png_decoder_destroy(dag_png_decoder *d) {
    if (!d) return;
    png_destroy_read_struct(&d->png, &d->info, NULL);
    if (d->file) fclose(d->file);
    free(d->memory);
    free(d);
}

const char *dag_png_decoder_message(const dag_png_decoder *d) { return d->message; }

static dag_status dag_png_failure(const dag_png_decoder *d) {
    if (d->truncated) return DAG_TRUNCATED;
    if (d->io_error) return DAG_IO;
    if (d->too_large) return DAG_TOO_LARGE;
    if (strstr(d->message, "Out of memory") || strstr(d->message, "out of memory")) return DAG_TOO_LARGE;
    return DAG_CORRUPT;
}

dag_status dag_png_decoder_read_info(dag_png_decoder *d, uint32_t max_dimension, size_t max_chunk_bytes,
                                     dag_png_header *out) {
    if (setjmp(png_jmpbuf(d->png))) return dag_png_failure(d);
    png_set_user_limits(d->png, max_dimension, max_dimension);
    png_set_chunk_malloc_max(d->png, max_chunk_bytes);
    png_read_info(d->png, d->info);
    png_uint_32 w = 0, h = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(d->png, d->info, &w, &h, &depth, &color, &interlace, NULL, NULL);
    out->width = w; out->height = h;
    out->interlaced = interlace != PNG_INTERLACE_NONE;
    d->height = h;

    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(d->png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(d->png);
    if (png_get_valid(d->png, d->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(d->png);
    if (depth == 16) {
        const uint16_t probe = 1;
        if (*(const uint8_t *)&probe == 1) png_set_swap(d->png);   /* little-endian host */
    }
    if (out->interlaced) (void)png_set_interlace_handling(d->png);
    png_read_update_info(d->png, d->info);
    out->channels = png_get_channels(d->png, d->info);
    out->output_depth = png_get_bit_depth(d->png, d->info);
    out->rowbytes = png_get_rowbytes(d->png, d->info);
    return DAG_OK;
}

dag_status dag_png_decoder_icc(dag_png_decoder *d, uint8_t **data, uint32_t *length) {
    *data = NULL; *length = 0;
    if (setjmp(png_jmpbuf(d->png))) return dag_png_failure(d);
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 len = 0;
    if (png_get_iCCP(d->png, d->info, &name, &compression, &profile, &len) && profile && len > 0) {
        uint8_t *copy = malloc(len);
        if (!copy) { snprintf(d->message, DAG_MSG, "out of memory for the ICC profile"); return DAG_TOO_LARGE; }
        memcpy(copy, profile, len);
        *data = copy; *length = len;
    }
    return DAG_OK;
}

dag_status dag_png_decoder_read_rows(dag_png_decoder *d, uint8_t *dst, size_t bytes_per_row, uint32_t rows) {
    if (setjmp(png_jmpbuf(d->png))) return dag_png_failure(d);
    for (uint32_t i = 0; i < rows; i++) {
        if (d->next_row >= d->height) { snprintf(d->message, DAG_MSG, "read past the last row"); return DAG_CORRUPT; }
        png_read_row(d->png, dst + (size_t)i * bytes_per_row, NULL);
        d->next_row++;
    }
    return DAG_OK;
}

dag_status dag_png_decoder_read_image(dag_png_decoder *d, uint8_t *dst, size_t bytes_per_row) {
    png_bytep *rows = malloc(sizeof(png_bytep) * (d->height ? d->height : 1));
    if (!rows) { snprintf(d->message, DAG_MSG, "out of memory for row pointers"); return DAG_TOO_LARGE; }
    for (uint32_t y = 0; y < d->height; y++) rows[y] = dst + (size_t)y * bytes_per_row;
    if (setjmp(png_jmpbuf(d->png))) { free(rows); return dag_png_failure(d); }
    png_read_image(d->png, rows);
    free(rows);
    d->next_row = d->height;
    return DAG_OK;
}

// MARK: Encoding

struct dag_png_encoder {
    png_structp png;
    png_infop info;
    dag_status status;
    char message[DAG_MSG];
};

static void dag_png_write_error(png_structp png, png_const_charp msg) {
    dag_png_encoder *e = png_get_error_ptr(png);
    snprintf(e->message, DAG_MSG, "%s", msg ? msg : "libpng error");
    png_longjmp(png, 1);
}

static dag_status dag_png_write_failure(const dag_png_encoder *e) {
    return strstr(e->message, "Write Error") ? DAG_IO : DAG_CORRUPT;
}

dag_png_encoder *dag_png_encoder_create(FILE *file, uint32_t width, uint32_t height, int channels, int depth,
                                        const uint8_t *icc, uint32_t icc_length, int srgb) {
    dag_png_encoder *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, e, dag_png_write_error, dag_png_warning);
    if (!e->png) { free(e); return NULL; }
    e->info = png_create_info_struct(e->png);
    if (!e->info) { png_destroy_write_struct(&e->png, NULL); free(e); return NULL; }
    if (setjmp(png_jmpbuf(e->png))) { e->status = dag_png_write_failure(e); return e; }
    png_init_io(e->png, file);
    static const int types[5] = { 0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                  PNG_COLOR_TYPE_RGB_ALPHA };
    int type = (channels >= 1 && channels <= 4) ? types[channels] : PNG_COLOR_TYPE_RGB;
    png_set_IHDR(e->png, e->info, width, height, depth, type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (icc && icc_length) png_set_iCCP(e->png, e->info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, icc_length);
    else if (srgb) png_set_sRGB_gAMA_and_cHRM(e->png, e->info, PNG_sRGB_INTENT_PERCEPTUAL);
    png_write_info(e->png, e->info);
    if (depth == 16) {
        const uint16_t probe = 1;
        if (*(const uint8_t *)&probe == 1) png_set_swap(e->png);
    }
    e->status = DAG_OK;
    return e;
}

dag_status dag_png_encoder_status(const dag_png_encoder *e) { return e->status; }
const char *dag_png_encoder_message(const dag_png_encoder *e) { return e->message; }

dag_status dag_png_encoder_write(dag_png_encoder *e, const uint8_t *src, size_t bytes_per_row, uint32_t rows) {
    if (e->status != DAG_OK) return e->status;
    if (setjmp(png_jmpbuf(e->png))) return e->status = dag_png_write_failure(e);
    for (uint32_t i = 0; i < rows; i++) png_write_row(e->png, src + (size_t)i * bytes_per_row);
    return DAG_OK;
}

dag_status dag_png_encoder_finish(dag_png_encoder *e) {
    if (e->status != DAG_OK) return e->status;
    if (setjmp(png_jmpbuf(e->png))) return e->status = dag_png_write_failure(e);
    png_write_end(e->png, NULL);
    return DAG_OK;
}

void dag_png_encoder_destroy(dag_png_encoder *e) {
    if (!e) return;
    png_destroy_write_struct(&e->png, &e->info);
    free(e);
}
