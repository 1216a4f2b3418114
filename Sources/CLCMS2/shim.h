// Little CMS 2. Swift does not import the TYPE_* format macros, so the ones Daguerre uses are
// re-declared here as constants (TOOLCHAIN.md).
#include <lcms2.h>

static const cmsUInt32Number DAG_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number DAG_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number DAG_TYPE_RGB_16 = TYPE_RGB_16;
static const cmsUInt32Number DAG_TYPE_RGBA_16 = TYPE_RGBA_16;
static const cmsUInt32Number DAG_TYPE_RGB_FLT = TYPE_RGB_FLT;
static const cmsUInt32Number DAG_TYPE_RGBA_FLT = TYPE_RGBA_FLT;
static const cmsUInt32Number DAG_TYPE_GRAY_8 = TYPE_GRAY_8;
static const cmsUInt32Number DAG_TYPE_GRAY_16 = TYPE_GRAY_16;
static const cmsUInt32Number DAG_TYPE_GRAY_FLT = TYPE_GRAY_FLT;
static const cmsUInt32Number DAG_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number DAG_TYPE_CMYK_16 = TYPE_CMYK_16;
static const cmsUInt32Number DAG_TYPE_XYZ_DBL = TYPE_XYZ_DBL;
static const cmsUInt32Number DAG_TYPE_Lab_16 = TYPE_Lab_16;
