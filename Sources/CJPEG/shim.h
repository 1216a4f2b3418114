// libjpeg-turbo's libjpeg API. jpeglib.h needs <stdio.h> (FILE) and <stddef.h> first.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
