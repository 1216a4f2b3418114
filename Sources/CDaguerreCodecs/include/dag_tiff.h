// libtiff 4.5 behind non-variadic functions with per-handle messages (see tiff_bridge.c).
#ifndef DAG_TIFF_H
#define DAG_TIFF_H
#include <stddef.h>
#include <stdint.h>
#include "dag_status.h"
#include "dag_direct_file.h"

/// One libtiff handle and the messages its handlers recorded.
typedef struct dag_tiff dag_tiff;

/// Opens `path` for reading (`mode` "r") or writing ("w" or "w8" for BigTIFF). NULL only when
/// memory is short; otherwise check `dag_tiff_is_open` and `dag_tiff_message`.
dag_tiff *dag_tiff_open_file(const char *path, const char *mode, uint64_t max_single_alloc);
/// Opens a direct file (dag_direct_file.h) for writing. The file stays the caller's: closing
/// the handle neither flushes nor frees it.
dag_tiff *dag_tiff_open_direct(dag_direct_file *file, const char *name, const char *mode, uint64_t max_single_alloc);
/// Reads from a private copy of `data`.
dag_tiff *dag_tiff_open_memory(const uint8_t *data, size_t length, uint64_t max_single_alloc);
int dag_tiff_is_open(const dag_tiff *t);
/// TIFFClose (flushes a file being written) and frees the handle; returns DAG_IO if an error was
/// reported on the way, with the message copied into `message` (when not NULL).
dag_status dag_tiff_close(dag_tiff *t, char *message, size_t capacity);
/// The first error reported on this handle, or else the last warning.
const char *dag_tiff_message(const dag_tiff *t);

/// TIFFGetField (or TIFFGetFieldDefaulted when `defaulted`) for one-value tags; 0 when absent.
int dag_tiff_get_u16(dag_tiff *t, uint32_t tag, int defaulted, uint16_t *value);
int dag_tiff_get_u32(dag_tiff *t, uint32_t tag, int defaulted, uint32_t *value);
/// ExtraSamples: count and a pointer owned by libtiff.
int dag_tiff_get_extra_samples(dag_tiff *t, uint16_t *count, const uint16_t **values);
/// The ICC profile (tag 34675): pointer owned by libtiff.
int dag_tiff_get_icc(dag_tiff *t, uint32_t *length, const uint8_t **data);

int dag_tiff_set_u16(dag_tiff *t, uint32_t tag, uint16_t value);
int dag_tiff_set_u32(dag_tiff *t, uint32_t tag, uint32_t value);
int dag_tiff_set_rational(dag_tiff *t, uint32_t tag, double value);
int dag_tiff_set_extra_samples(dag_tiff *t, uint16_t count, const uint16_t *values);
int dag_tiff_set_icc(dag_tiff *t, uint32_t length, const uint8_t *data);

/// True when the directory has a DNGVersion tag (50706): a raw camera file, not a plain TIFF.
int dag_tiff_is_dng(dag_tiff *t);
int dag_tiff_is_tiled(dag_tiff *t);
int dag_tiff_codec_configured(uint16_t compression);
uint64_t dag_tiff_strip_size(dag_tiff *t);
uint64_t dag_tiff_tile_size(dag_tiff *t);
uint32_t dag_tiff_number_of_strips(dag_tiff *t);
uint32_t dag_tiff_number_of_tiles(dag_tiff *t);
/// TIFFReadEncodedStrip/Tile into `dst` of `size` bytes; returns the bytes decoded, -1 on error.
int64_t dag_tiff_read_strip(dag_tiff *t, uint32_t strip, void *dst, uint64_t size);
int64_t dag_tiff_read_tile(dag_tiff *t, uint32_t x, uint32_t y, void *dst, uint64_t size);
/// TIFFWriteScanline; returns 1 on success.
int dag_tiff_write_scanline(dag_tiff *t, void *row, uint32_t y);
/// TIFFWriteRawStrip: `size` bytes as strip `strip`, exactly as they are (no compression,
/// predictor or byte swapping); 1 on success.
int dag_tiff_write_raw_strip(dag_tiff *t, uint32_t strip, const void *data, size_t size);
#endif
