// OpenH264's encoder, loaded on first use like libavcodec and x264 (see video_loader.c for why).
// A file of its own: OpenH264's header and x264's define the same NAL enumerators.
#include <stddef.h>
#include <wels/codec_api.h>
#include "dag_video.h"
#include "library_loading.h"

// The encoder is a table of function pointers that WelsCreateSVCEncoder fills, so only the
// create and destroy calls need forwarding. The library names its ABI in the soname: 7 for the
// 2.3 series of Debian bookworm, the version of the header.
#define DAG_OPENH264_SONAME "libopenh264.so.7"

static struct {
    __typeof__(&WelsCreateSVCEncoder) create;
    __typeof__(&WelsDestroySVCEncoder) destroy;
} oh;
static dag_load_state oh_state = { "libopenh264 has not been loaded yet", "" };
static pthread_once_t oh_once = PTHREAD_ONCE_INIT;

static void oh_load(void) {
    dag_load_state *state = &oh_state;
    state->error = NULL;
    void *l = dag_open_library(state, DAG_OPENH264_SONAME, "libopenh264");
    if (state->error) return;
    oh.create = (__typeof__(oh.create))dag_resolve(state, l, DAG_OPENH264_SONAME, "WelsCreateSVCEncoder");
    oh.destroy = (__typeof__(oh.destroy))dag_resolve(state, l, DAG_OPENH264_SONAME, "WelsDestroySVCEncoder");
}

const char *dag_openh264_load_error(void) { return dag_load_once(&oh_once, oh_load, &oh_state); }

#define OH_READY (dag_openh264_load_error() == NULL)

// Each forwarder: the real function once loaded, else the API's own failure value.
int WelsCreateSVCEncoder(ISVCEncoder **encoder) {
    if (OH_READY) return oh.create(encoder);
    if (encoder) *encoder = NULL;
    return 1;
}
void WelsDestroySVCEncoder(ISVCEncoder *encoder) { if (OH_READY) oh.destroy(encoder); }
