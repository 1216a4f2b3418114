// Umbrella header for the C glue between Daguerre and libjpeg, libpng, libtiff and the file system.
#include "dag_status.h"
#include "dag_jpeg.h"
#include "dag_png.h"
#include "dag_tiff.h"
#include "dag_direct_file.h"
#include "dag_anonymous_file.h"
