// A small C face for libzint (the Aztec, Code 128 and PDF417 generators): Swift cannot import
// zint.h's symbol struct in reasonable time (its fixed arrays of 200×144 bytes and more stall
// the compiler's importer), so this file keeps it on the C side and hands back plain modules.
#ifndef CZINT_SHIM_H
#define CZINT_SHIM_H

#define CZINT_AZTEC 92
#define CZINT_CODE128 20
#define CZINT_PDF417 55
#define CZINT_PDF417_COMPACT 56
/// An option left to libzint's default.
#define CZINT_AUTOMATIC (-999999)

/// What to encode and how: zint's symbology number and its three symbol-specific options
/// (CZINT_AUTOMATIC leaves an option at libzint's default).
typedef struct {
    int symbology;
    int option1;
    int option2;
    int option3;
} czint_options;

/// Encodes `length` bytes (binary mode). On success returns 0 and sets `*modules` to a
/// malloc'd `*rows` × `*width` array, one byte per module, 1 for dark, row by row from the top
/// (free it with czint_free), and `*row_height` to zint's height of one row in modules. On
/// failure returns zint's error code (5 or more) and copies its message into `error`.
int czint_encode(const czint_options *options, const unsigned char *data, int length, unsigned char **modules, int *width,
                 int *rows, float *row_height, char *error, int error_size);

void czint_free(unsigned char *modules);

#endif
