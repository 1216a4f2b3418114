// Text for Swift: fontconfig finds a font by name, FreeType loads and rasterizes its glyphs,
// HarfBuzz shapes the text (kerning, ligatures, complex scripts). Their C APIs as they are.
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <hb-ft.h>
