// The libjpeg(-turbo) bridge: JPEG decoding and encoding for DaguerreFormats.
//
// Why this file exists: libjpeg reports a fatal error by calling `error_exit`, which must not
// return; the only way to recover is setjmp/longjmp. Swift can express neither, and a longjmp
// across Swift frames is undefined behaviour (it skips releases and deinit). So every libjpeg
// call that can fail is made here, inside a function that does its own setjmp and turns the
// error into a `dag_status` plus a message. libjpeg also only *warns* about damaged data
// (premature end of file, bad Huffman codes) and then fills the rest with grey: the warnings
// are recorded here so the Swift side can throw instead of returning made-up pixels.
#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include "dag_jpeg.h"

#define DAG_MSG 256

/// libjpeg's error manager, extended with a jump buffer and what went wrong.
struct dag_jpeg_err {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[DAG_MSG];
    dag_status warning;              /* strongest warning since last taken */
    char warning_message[DAG_MSG];
};

static void dag_error_exit(j_common_ptr cinfo) {
    struct dag_jpeg_err *err = (struct dag_jpeg_err *)cinfo->err;
    char buf[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buf);
    snprintf(err->message, DAG_MSG, "%s", buf);
    longjmp(err->jump, 1);
}

/// Records warnings (msg_level -1) instead of printing them; trace messages are dropped.
static void dag_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return;
    struct dag_jpeg_err *err = (struct dag_jpeg_err *)cinfo->err;
    err->pub.num_warnings++;
    dag_status kind = DAG_OK;
    switch (err->pub.msg_code) {
    case JWRN_JPEG_EOF:
        kind = DAG_TRUNCATED; break;
    case JWRN_HIT_MARKER: case JWRN_HUFF_BAD_CODE: case JWRN_ARITH_BAD_CODE: case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL: case JWRN_EXTRANEOUS_DATA: case JWRN_BOGUS_PROGRESSION:
        kind = DAG_CORRUPT; break;
    default:
        return;   /* JFIF revision, Adobe transform code, bad ICC marker: harmless */
    }
    if (err->warning == DAG_TRUNCATED) return;             /* truncation explains the rest */
    if (err->warning == DAG_CORRUPT && kind == DAG_CORRUPT) return;   /* keep the first */
    char buf[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buf);
    snprintf(err->warning_message, DAG_MSG, "%s", buf);
    err->warning = kind;
}

static void dag_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void dag_install_errors(struct dag_jpeg_err *err) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = dag_error_exit;
    err->pub.emit_message = dag_emit_message;
    err->pub.output_message = dag_output_message;
    err->message[0] = 0;
    err->warning = DAG_OK;
    err->warning_message[0] = 0;
}

/// Maps a fatal libjpeg error to a status.
static dag_status dag_classify(const struct dag_jpeg_err *err) {
    switch (err->pub.msg_code) {
    case JERR_INPUT_EMPTY: case JERR_INPUT_EOF: return DAG_TRUNCATED;
    case JERR_OUT_OF_MEMORY: case JERR_NO_BACKING_STORE: case JERR_IMAGE_TOO_BIG: case JERR_WIDTH_OVERFLOW:
        return DAG_TOO_LARGE;
    case JERR_FILE_READ: case JERR_FILE_WRITE: return DAG_IO;
    case JERR_NOTIMPL: case JERR_CONVERSION_NOTIMPL: case JERR_BAD_J_COLORSPACE: return DAG_UNSUPPORTED;
    default: return DAG_CORRUPT;
    }
}

void dag_free(void *p) { free(p); }

// MARK: Decoding

struct dag_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct dag_jpeg_err err;
    FILE *file;
    uint8_t *memory;
    size_t memory_length;
    int created;
};

static dag_jpeg_decoder *dag_decoder_new(void) {
    dag_jpeg_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    dag_install_errors(&d->err);
    d->cinfo.err = &d->err.pub;
    if (setjmp(d->err.jump)) { free(d); return NULL; }   /* only out of memory can fail here */
    jpeg_create_decompress(&d->cinfo);
    d->created = 1;
    return d;
}

dag_jpeg_decoder *dag_jpeg_decoder_open_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    dag_jpeg_decoder *d = dag_decoder_new();
    if (!d) { fclose(f); errno = ENOMEM; return NULL; }
    d->file = f;
    if (setjmp(d->err.jump)) { dag_jpeg_decoder_destroy(d); errno = ENOMEM; return NULL; }
    jpeg_stdio_src(&d->cinfo, f);   /* allocates through the pool: fails only short of memory */
    return d;
}

dag_jpeg_decoder *dag_jpeg_decoder_open_memory(const uint8_t *data, size_t length) {
    dag_jpeg_decoder *d = dag_decoder_new();
    if (!d) return NULL;
    d->memory = malloc(length ? length : 1);
    if (!d->memory) { dag_jpeg_decoder_destroy(d); return NULL; }
    if (length) memcpy(d->memory, data, length);
    d->memory_length = length;
    /* jpeg_mem_src refuses an empty buffer with ERREXIT: the jump must land here. */
    if (setjmp(d->err.jump)) { dag_jpeg_decoder_destroy(d); return NULL; }
    jpeg_mem_src(&d->cinfo, d->memory, (unsigned long)length);
    return d;
}

void dag_jpeg_decoder_destroy(dag_jpeg_decoder *d) {
    if (!d) return;
    if (d->created) jpeg_destroy_decompress(&d->cinfo);   /* never errors */
    if (d->file) fclose(d->file);
    free(d->memory);
    free(d);
}

const char *dag_jpeg_decoder_message(const dag_jpeg_decoder *d) {
    return d->err.message[0] ? d->err.message : d->err.warning_message;
}

dag_status dag_jpeg_decoder_take_warning(dag_jpeg_decoder *d) {
    dag_status w = d->err.warning;
    if (w != DAG_OK) snprintf(d->err.message, DAG_MSG, "%s", d->err.warning_message);
    d->err.warning = DAG_OK;
    return w;
}

dag_status dag_jpeg_decoder_read_header(dag_jpeg_decoder *d, long max_memory, dag_jpeg_header *out) {
    if (setjmp(d->err.jump)) return dag_classify(&d->err);
    d->cinfo.mem->max_memory_to_use = max_memory;
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 2, 0xFFFF);
    int r = jpeg_read_header(&d->cinfo, TRUE);
    if (r != JPEG_HEADER_OK) {
        snprintf(d->err.message, DAG_MSG, "no image in the JPEG stream (tables only)");
        return DAG_CORRUPT;
    }
    out->width = d->cinfo.image_width;
    out->height = d->cinfo.image_height;
    out->components = d->cinfo.num_components;
    out->color_space = (int)d->cinfo.jpeg_color_space;
    return DAG_OK;
}

dag_status dag_jpeg_decoder_icc(dag_jpeg_decoder *d, uint8_t **data, unsigned *length) {
    *data = NULL; *length = 0;
    if (setjmp(d->err.jump)) { free(*data); *data = NULL; *length = 0; return dag_classify(&d->err); }
    JOCTET *icc = NULL;
    unsigned int len = 0;
    if (jpeg_read_icc_profile(&d->cinfo, &icc, &len)) { *data = icc; *length = len; }
    return DAG_OK;
}

dag_status dag_jpeg_decoder_start(dag_jpeg_decoder *d, int gray, unsigned int scale_denom) {
    if (setjmp(d->err.jump)) return dag_classify(&d->err);
    d->cinfo.out_color_space = gray ? JCS_GRAYSCALE : JCS_RGB;
    d->cinfo.dct_method = JDCT_ISLOW;
    d->cinfo.do_fancy_upsampling = TRUE;
    d->cinfo.scale_num = 1; d->cinfo.scale_denom = scale_denom;
    jpeg_start_decompress(&d->cinfo);
    return DAG_OK;
}

dag_status dag_jpeg_decoder_crop(dag_jpeg_decoder *d, uint32_t *x, uint32_t *width) {
    if (setjmp(d->err.jump)) return dag_classify(&d->err);
    JDIMENSION xo = *x, w = *width;
    jpeg_crop_scanline(&d->cinfo, &xo, &w);
    *x = xo; *width = w;
    return DAG_OK;
}

uint32_t dag_jpeg_decoder_next_row(const dag_jpeg_decoder *d) { return d->cinfo.output_scanline; }

dag_status dag_jpeg_decoder_skip(dag_jpeg_decoder *d, uint32_t rows) {
    if (setjmp(d->err.jump)) return dag_classify(&d->err);
    jpeg_skip_scanlines(&d->cinfo, rows);
    return DAG_OK;
}

dag_status dag_jpeg_decoder_read(dag_jpeg_decoder *d, uint8_t *dst, size_t bytes_per_row, uint32_t rows, uint32_t *done) {
    *done = 0;
    if (setjmp(d->err.jump)) return dag_classify(&d->err);
    while (*done < rows && d->cinfo.output_scanline < d->cinfo.output_height) {
        JSAMPROW row = dst + (size_t)(*done) * bytes_per_row;
        JDIMENSION n = jpeg_read_scanlines(&d->cinfo, &row, 1);
        if (n == 0) {   /* suspension cannot happen with stdio/mem sources; refuse to loop */
            snprintf(d->err.message, DAG_MSG, "libjpeg returned no rows");
            return DAG_CORRUPT;
        }
        *done += n;
    }
    return DAG_OK;
}

// MARK: Encoding

struct dag_jpeg_encoder {
    struct jpeg_compress_struct cinfo;
    struct dag_jpeg_err err;
    dag_status status;
    int created;
};

dag_jpeg_encoder *dag_jpeg_encoder_create(FILE *file, uint32_t width, uint32_t height, int components,
                                          int quality, int subsample, const uint8_t *icc, unsigned icc_length,
                                          const uint8_t *markers, size_t markers_length) {
    dag_jpeg_encoder *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    dag_install_errors(&e->err);
    e->cinfo.err = &e->err.pub;
    if (setjmp(e->err.jump)) { e->status = dag_classify(&e->err); return e; }
    jpeg_create_compress(&e->cinfo);
    e->created = 1;
    jpeg_stdio_dest(&e->cinfo, file);
    e->cinfo.image_width = width;
    e->cinfo.image_height = height;
    e->cinfo.input_components = components;
    e->cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&e->cinfo);
    jpeg_set_quality(&e->cinfo, quality, TRUE);
    e->cinfo.optimize_coding = FALSE;
    e->cinfo.dct_method = JDCT_ISLOW;
    if (components == 3) {
        int h = subsample ? 2 : 1;
        e->cinfo.comp_info[0].h_samp_factor = h;
        e->cinfo.comp_info[0].v_samp_factor = h;
        for (int c = 1; c < 3; c++) { e->cinfo.comp_info[c].h_samp_factor = 1; e->cinfo.comp_info[c].v_samp_factor = 1; }
    }
    /* EXIF files start with APP1 right after SOI (EXIF 2.32 §4.5.4): no JFIF APP0 then. */
    if (markers && markers_length >= 3 && markers[0] == 0xE1) e->cinfo.write_JFIF_header = FALSE;
    jpeg_start_compress(&e->cinfo, TRUE);
    /* Caller segments, in order: [marker][length, 2 bytes big-endian][payload]... */
    for (size_t p = 0; markers && p + 3 <= markers_length;) {
        unsigned length = ((unsigned)markers[p + 1] << 8) | markers[p + 2];
        if (p + 3 + length > markers_length) break;
        jpeg_write_marker(&e->cinfo, markers[p], markers + p + 3, length);
        p += 3 + length;
    }
    if (icc && icc_length) jpeg_write_icc_profile(&e->cinfo, icc, icc_length);
    e->status = DAG_OK;
    return e;
}

dag_status dag_jpeg_encoder_status(const dag_jpeg_encoder *e) { return e->status; }
const char *dag_jpeg_encoder_message(const dag_jpeg_encoder *e) { return e->err.message; }

dag_status dag_jpeg_encoder_write(dag_jpeg_encoder *e, const uint8_t *src, size_t bytes_per_row, uint32_t rows) {
    if (e->status != DAG_OK) return e->status;
    if (setjmp(e->err.jump)) return e->status = dag_classify(&e->err);
    for (uint32_t i = 0; i < rows; i++) {
        JSAMPROW row = (JSAMPROW)(src + (size_t)i * bytes_per_row);   /* libjpeg only reads it */
        if (jpeg_write_scanlines(&e->cinfo, &row, 1) != 1) {
            snprintf(e->err.message, DAG_MSG, "libjpeg accepted no row");
            return e->status = DAG_IO;
        }
    }
    return DAG_OK;
}

dag_status dag_jpeg_encoder_finish(dag_jpeg_encoder *e) {
    if (e->status != DAG_OK) return e->status;
    if (setjmp(e->err.jump)) return e->status = dag_classify(&e->err);
    jpeg_finish_compress(&e->cinfo);
    return DAG_OK;
}

void dag_jpeg_encoder_destroy(dag_jpeg_encoder *e) {
    if (!e) return;
    if (e->created) jpeg_destroy_compress(&e->cinfo);
    free(e);
}
