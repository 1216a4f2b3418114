// See czint_shim.h: libzint's symbol struct stays here; Swift gets modules as bytes.
#include "czint_shim.h"

#include <stdlib.h>
#include <string.h>
#include <zint.h>

int czint_encode(const czint_options *options, const unsigned char *data, int length, unsigned char **modules, int *width,
                 int *rows, float *row_height, char *error, int error_size) {
    *modules = NULL;
    *width = 0;
    *rows = 0;
    *row_height = 1;
    if (error_size > 0) error[0] = 0;
    struct zint_symbol *symbol = ZBarcode_Create();
    if (symbol == NULL) {
        if (error_size > 0) strncpy(error, "libzint could not allocate a symbol", (size_t)error_size - 1);
        return 10;
    }
    symbol->symbology = options->symbology;
    symbol->input_mode = DATA_MODE;
    if (options->option1 != CZINT_AUTOMATIC) symbol->option_1 = options->option1;
    if (options->option2 != CZINT_AUTOMATIC) symbol->option_2 = options->option2;
    if (options->option3 != CZINT_AUTOMATIC) symbol->option_3 = options->option3;
    int status = ZBarcode_Encode(symbol, data, length);
    if (status >= ZINT_ERROR) {
        if (error_size > 0) {
            strncpy(error, symbol->errtxt, (size_t)error_size - 1);
            error[error_size - 1] = 0;
        }
        ZBarcode_Delete(symbol);
        return status;
    }
    int w = symbol->width, h = symbol->rows;
    unsigned char *out = malloc((size_t)(w > 0 ? w : 1) * (size_t)(h > 0 ? h : 1));
    if (out == NULL) {
        ZBarcode_Delete(symbol);
        if (error_size > 0) strncpy(error, "out of memory for the modules", (size_t)error_size - 1);
        return 10;
    }
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) out[y * w + x] = (symbol->encoded_data[y][x >> 3] >> (x & 7)) & 1;
    }
    *modules = out;
    *width = w;
    *rows = h;
    *row_height = h > 0 && symbol->row_height[0] > 0 ? symbol->row_height[0] : 1;
    ZBarcode_Delete(symbol);
    return 0;
}

void czint_free(unsigned char *modules) { free(modules); }
