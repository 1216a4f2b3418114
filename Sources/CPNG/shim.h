// libpng 1.6 (the full API: row streaming and iCCP; the simplified API holds whole images).
#include <png.h>
