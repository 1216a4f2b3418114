// The libtiff bridge: TIFF decoding and encoding for DaguerreFormats (libtiff 4.5).
//
// Why this file exists: libtiff reports errors and warnings through handlers that receive a
// printf format and a `va_list`, and reads and writes tags through the variadic TIFFGetField
// and TIFFSetField. Swift can call neither a variadic C function nor format a `va_list`. So the
// handlers live here: they are libtiff 4.5's per-handle ones (TIFFOpenOptionsSetErrorHandlerExtR,
// thread-safe, unlike the process-wide TIFFSetErrorHandler), and they vsnprintf each message into
// the handle's own buffer, where Swift reads it after a failed call. Tag access gets one
// non-variadic function per value type.
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include "dag_tiff.h"
#include "dag_direct_file.h"

#define DAG_MSG 512

struct dag_tiff {
    TIFF *tif;
    int errors;
    char error[DAG_MSG];
    char warning[DAG_MSG];
    uint8_t *memory;
    size_t memory_length;
    uint64_t position;
};

static int dag_tiff_on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif;
    dag_tiff *t = user;
    if (t->errors++ == 0) {
        int n = snprintf(t->error, DAG_MSG, "%s: ", module ? module : "libtiff");
        if (n < 0 || n >= DAG_MSG) n = 0;
        vsnprintf(t->error + n, DAG_MSG - (size_t)n, fmt, ap);
    }
    return 1;   /* handled: the process-wide handler (stderr) is not called */
}

static int dag_tiff_on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif;
    dag_tiff *t = user;
    int n = snprintf(t->warning, DAG_MSG, "%s: ", module ? module : "libtiff");
    if (n < 0 || n >= DAG_MSG) n = 0;
    vsnprintf(t->warning + n, DAG_MSG - (size_t)n, fmt, ap);
    return 1;
}

static TIFFOpenOptions *dag_tiff_options(dag_tiff *t, uint64_t max_single_alloc) {
    TIFFOpenOptions *o = TIFFOpenOptionsAlloc();
    if (!o) return NULL;
    TIFFOpenOptionsSetErrorHandlerExtR(o, dag_tiff_on_error, t);
    TIFFOpenOptionsSetWarningHandlerExtR(o, dag_tiff_on_warning, t);
    if (max_single_alloc > 0) TIFFOpenOptionsSetMaxSingleMemAlloc(o, (tmsize_t)(max_single_alloc > INT64_MAX ? INT64_MAX : max_single_alloc));
    return o;
}

dag_tiff *dag_tiff_open_file(const char *path, const char *mode, uint64_t max_single_alloc) {
    dag_tiff *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    TIFFOpenOptions *o = dag_tiff_options(t, max_single_alloc);
    if (!o) { free(t); return NULL; }
    errno = 0;
    t->tif = TIFFOpenExt(path, mode, o);
    TIFFOpenOptionsFree(o);
    if (!t->tif && !t->error[0]) snprintf(t->error, DAG_MSG, "%s", errno ? strerror(errno) : "cannot open");
    return t;
}

static tmsize_t dag_direct_read_proc(thandle_t h, void *buf, tmsize_t size) {
    return size < 0 ? -1 : (tmsize_t)dag_direct_read((dag_direct_file *)h, buf, (size_t)size);
}
static tmsize_t dag_direct_write_proc(thandle_t h, void *buf, tmsize_t size) {
    return size < 0 ? -1 : (tmsize_t)dag_direct_write((dag_direct_file *)h, buf, (size_t)size);
}
static toff_t dag_direct_seek_proc(thandle_t h, toff_t off, int whence) {
    int64_t p = dag_direct_seek((dag_direct_file *)h, (int64_t)off, whence);
    return p < 0 ? (toff_t)-1 : (toff_t)p;
}
/* The direct file belongs to the caller, which flushes it after TIFFClose and reports errors. */
static int dag_direct_close_proc(thandle_t h) { (void)h; return 0; }
static toff_t dag_direct_size_proc(thandle_t h) { return dag_direct_size((dag_direct_file *)h); }
static int dag_no_map(thandle_t h, void **base, toff_t *size) { (void)h; (void)base; (void)size; return 0; }
static void dag_no_unmap(thandle_t h, void *base, toff_t size) { (void)h; (void)base; (void)size; }

dag_tiff *dag_tiff_open_direct(dag_direct_file *file, const char *name, const char *mode, uint64_t max_single_alloc) {
    dag_tiff *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    TIFFOpenOptions *o = dag_tiff_options(t, max_single_alloc);
    if (!o) { free(t); return NULL; }
    t->tif = TIFFClientOpenExt(name, mode, (thandle_t)file, dag_direct_read_proc, dag_direct_write_proc,
                               dag_direct_seek_proc, dag_direct_close_proc, dag_direct_size_proc,
                               dag_no_map, dag_no_unmap, o);
    TIFFOpenOptionsFree(o);
    if (!t->tif && !t->error[0]) snprintf(t->error, DAG_MSG, "cannot open");
    return t;
}

static tmsize_t dag_mem_read(thandle_t h, void *buf, tmsize_t size) {
    dag_tiff *t = (dag_tiff *)h;
    if (size <= 0 || t->position >= t->memory_length) return 0;
    uint64_t left = t->memory_length - t->position;
    uint64_t n = (uint64_t)size < left ? (uint64_t)size : left;
    memcpy(buf, t->memory + t->position, (size_t)n);
    t->position += n;
    return (tmsize_t)n;
}
static tmsize_t dag_mem_write(thandle_t h, void *buf, tmsize_t size) { (void)h; (void)buf; (void)size; return -1; }
static toff_t dag_mem_seek(thandle_t h, toff_t off, int whence) {
    dag_tiff *t = (dag_tiff *)h;
    uint64_t base = whence == SEEK_CUR ? t->position : whence == SEEK_END ? t->memory_length : 0;
    uint64_t p = base + off;
    if (p < base) return (toff_t)-1;   /* overflow */
    t->position = p;
    return p;
}
static int dag_mem_close(thandle_t h) { (void)h; return 0; }
static toff_t dag_mem_size(thandle_t h) { return ((dag_tiff *)h)->memory_length; }

dag_tiff *dag_tiff_open_memory(const uint8_t *data, size_t length, uint64_t max_single_alloc) {
    dag_tiff *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->memory = malloc(length ? length : 1);
    if (!t->memory) { free(t); return NULL; }
    if (length) memcpy(t->memory, data, length);
    t->memory_length = length;
    TIFFOpenOptions *o = dag_tiff_options(t, max_single_alloc);
    if (!o) { free(t->memory); free(t); return NULL; }
    t->tif = TIFFClientOpenExt("memory", "rm", (thandle_t)t, dag_mem_read, dag_mem_write, dag_mem_seek,
                               dag_mem_close, dag_mem_size, dag_no_map, dag_no_unmap, o);
    TIFFOpenOptionsFree(o);
    if (!t->tif && !t->error[0]) snprintf(t->error, DAG_MSG, "cannot open");
    return t;
}

int dag_tiff_is_open(const dag_tiff *t) { return t->tif != NULL; }

dag_status dag_tiff_close(dag_tiff *t, char *message, size_t capacity) {
    if (message && capacity) message[0] = 0;
    if (!t) return DAG_OK;
    int before = t->errors;
    if (t->tif) {
        /* TIFFFlush reports a failed write; TIFFClose alone would swallow it */
        if (TIFFGetMode(t->tif) != O_RDONLY && !TIFFFlush(t->tif) && t->errors == before) {
            snprintf(t->error, DAG_MSG, "could not write the TIFF directory");
            t->errors++;
        }
        TIFFClose(t->tif);
    }
    dag_status s = t->errors > before ? DAG_IO : DAG_OK;
    if (s != DAG_OK && message && capacity) snprintf(message, capacity, "%s", t->error);
    free(t->memory);
    free(t);
    return s;
}

const char *dag_tiff_message(const dag_tiff *t) { return t->error[0] ? t->error : t->warning; }

int dag_tiff_get_u16(dag_tiff *t, uint32_t tag, int defaulted, uint16_t *value) {
    return defaulted ? TIFFGetFieldDefaulted(t->tif, tag, value) : TIFFGetField(t->tif, tag, value);
}
int dag_tiff_get_u32(dag_tiff *t, uint32_t tag, int defaulted, uint32_t *value) {
    return defaulted ? TIFFGetFieldDefaulted(t->tif, tag, value) : TIFFGetField(t->tif, tag, value);
}
int dag_tiff_get_extra_samples(dag_tiff *t, uint16_t *count, const uint16_t **values) {
    uint16_t *v = NULL;
    int ok = TIFFGetField(t->tif, TIFFTAG_EXTRASAMPLES, count, &v);
    *values = v;
    return ok;
}
int dag_tiff_get_icc(dag_tiff *t, uint32_t *length, const uint8_t **data) {
    void *p = NULL;
    int ok = TIFFGetField(t->tif, TIFFTAG_ICCPROFILE, length, &p);
    *data = p;
    return ok && p != NULL;
}

int dag_tiff_set_u16(dag_tiff *t, uint32_t tag, uint16_t value) { return TIFFSetField(t->tif, tag, (int)value); }
int dag_tiff_set_u32(dag_tiff *t, uint32_t tag, uint32_t value) { return TIFFSetField(t->tif, tag, value); }
/* RATIONAL tags (XResolution...) take a double through the varargs. */
int dag_tiff_set_rational(dag_tiff *t, uint32_t tag, double value) { return TIFFSetField(t->tif, tag, value); }
int dag_tiff_set_extra_samples(dag_tiff *t, uint16_t count, const uint16_t *values) {
    return TIFFSetField(t->tif, TIFFTAG_EXTRASAMPLES, (int)count, values);
}
int dag_tiff_set_icc(dag_tiff *t, uint32_t length, const uint8_t *data) {
    return TIFFSetField(t->tif, TIFFTAG_ICCPROFILE, length, data);
}

int dag_tiff_is_dng(dag_tiff *t) {
    /* DNGVersion is a fixed 4-byte array; TIFFGetField then takes one pointer (no count), which
       TIFFFieldPassCount confirms before the variadic call is made. */
    const TIFFField *f = TIFFFindField(t->tif, TIFFTAG_DNGVERSION, TIFF_ANY);
    if (!f || TIFFFieldPassCount(f)) return 0;
    void *p = NULL;
    return TIFFGetField(t->tif, TIFFTAG_DNGVERSION, &p) && p != NULL;
}
int dag_tiff_is_tiled(dag_tiff *t) { return TIFFIsTiled(t->tif); }
int dag_tiff_codec_configured(uint16_t compression) { return TIFFIsCODECConfigured(compression); }
uint64_t dag_tiff_strip_size(dag_tiff *t) { return TIFFStripSize64(t->tif); }
uint64_t dag_tiff_tile_size(dag_tiff *t) { return TIFFTileSize64(t->tif); }
uint32_t dag_tiff_number_of_strips(dag_tiff *t) { return TIFFNumberOfStrips(t->tif); }
uint32_t dag_tiff_number_of_tiles(dag_tiff *t) { return TIFFNumberOfTiles(t->tif); }

int64_t dag_tiff_read_strip(dag_tiff *t, uint32_t strip, void *dst, uint64_t size) {
    return TIFFReadEncodedStrip(t->tif, strip, dst, (tmsize_t)size);
}
int64_t dag_tiff_read_tile(dag_tiff *t, uint32_t x, uint32_t y, void *dst, uint64_t size) {
    uint32_t tile = TIFFComputeTile(t->tif, x, y, 0, 0);
    return TIFFReadEncodedTile(t->tif, tile, dst, (tmsize_t)size);
}
int dag_tiff_write_scanline(dag_tiff *t, void *row, uint32_t y) { return TIFFWriteScanline(t->tif, row, y, 0) == 1; }
int dag_tiff_write_raw_strip(dag_tiff *t, uint32_t strip, const void *data, size_t size) {
    if (size > (size_t)INT64_MAX) return 0;
    /* libtiff takes a non-const pointer but only reads the data of a raw strip. */
    return TIFFWriteRawStrip(t->tif, strip, (void *)data, (tmsize_t)size) == (tmsize_t)size;
}
