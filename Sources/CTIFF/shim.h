// libtiff 4.5 (strips and tiles, 8/16-bit integer and 16/32-bit float samples, ICC profiles).
#include <tiffio.h>
