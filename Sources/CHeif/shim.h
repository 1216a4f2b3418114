// libheif (HEIF/HEIC stills: the boxes, the HEVC decoder it drives, the colour conversion) for
// Swift: its C API as it is.
#include <libheif/heif.h>
