// Umbrella header for the C glue between Daguerre and libjpeg, libpng and libtiff.
#include "dag_status.h"
#include "dag_jpeg.h"
#include "dag_png.h"
#include "dag_tiff.h"
