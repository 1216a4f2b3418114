// The video libraries, loaded on first use instead of at process start (SPEC X7, I3:
// "start-up in well under 0.1 s"). libavcodec brings 95 shared libraries with it (X11, VA-API,
// codecs' own dependencies, libhwy's timer calibration); binding them cost each `daguerre`
// process about 20 ms before main, although only the Live Photo commands use video. So the
// Swift code calls the functions below, which have the libraries' own names and prototypes (the
// compiler checks them against FFmpeg's and x264's headers; OpenH264's are in openh264_loader.c,
// since its header and x264's define the same enumerators), and each forwards to the real one,
// resolved with dlopen/dlsym the first time any of them is called. If a library is missing,
// each returns its API's failure value (NULL, a negative error), and dag_*_load_error says why.
// Our own glue: the same idea as a linker's delay-load import library, written out.
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <x264.h>
#include "dag_video.h"
#include "library_loading.h"

#define DAG_STR2(x) #x
#define DAG_STR(x) DAG_STR2(x)

void *dag_open_library(dag_load_state *state, const char *soname, const char *package) {
    if (state->error) return NULL;
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(state->message, sizeof state->message, "%s (install Debian's %s, e.g. apt install %s-dev)",
                 dlerror(), package, package);
        state->error = state->message;
    }
    return library;
}

void *dag_resolve(dag_load_state *state, void *library, const char *soname, const char *name) {
    void *p = dlsym(library, name);
    if (!p && !state->error) {
        snprintf(state->message, sizeof state->message, "%s has no symbol %s: install the version Daguerre was built with", soname, name);
        state->error = state->message;
    }
    return p;
}

const char *dag_load_once(pthread_once_t *once, void (*load)(void), const dag_load_state *state) {
    pthread_once(once, load);
    return state->error;
}

// ---- FFmpeg: libavcodec, libavutil and libswscale, at the major versions of the headers we compiled with.

static struct {
    __typeof__(&avcodec_find_decoder) find_decoder;
    __typeof__(&avcodec_find_encoder_by_name) find_encoder_by_name;
    __typeof__(&avcodec_alloc_context3) alloc_context3;
    __typeof__(&avcodec_free_context) free_context;
    __typeof__(&avcodec_open2) open2;
    __typeof__(&avcodec_send_packet) send_packet;
    __typeof__(&avcodec_receive_frame) receive_frame;
    __typeof__(&avcodec_send_frame) send_frame;
    __typeof__(&avcodec_receive_packet) receive_packet;
    __typeof__(&av_packet_alloc) packet_alloc;
    __typeof__(&av_packet_free) packet_free;
    __typeof__(&av_packet_unref) packet_unref;
    __typeof__(&av_new_packet) new_packet;
    __typeof__(&av_frame_alloc) frame_alloc;
    __typeof__(&av_frame_free) frame_free;
    __typeof__(&av_frame_get_buffer) frame_get_buffer;
    __typeof__(&av_frame_make_writable) frame_make_writable;
    __typeof__(&av_frame_unref) frame_unref;
    __typeof__(&av_mallocz) mallocz;
    __typeof__(&av_channel_layout_copy) channel_layout_copy;
    __typeof__(&av_channel_layout_default) channel_layout_default;
    __typeof__(&av_dict_set) dict_set;
    __typeof__(&av_dict_free) dict_free;
    __typeof__(&av_log_set_level) log_set_level;
    __typeof__(&av_strerror) strerror;
    __typeof__(&av_buffer_create) buffer_create;
    __typeof__(&av_opt_set_int) opt_set_int;
    __typeof__(&sws_alloc_context) sws_alloc;
    __typeof__(&sws_init_context) sws_init;
    __typeof__(&sws_freeContext) sws_free;
    __typeof__(&sws_setColorspaceDetails) sws_colorspace;
    __typeof__(&sws_getCoefficients) sws_coefficients;
    __typeof__(&sws_scale_frame) sws_scale_frame;
} ff;
static dag_load_state ff_state = { "libavcodec has not been loaded yet", "" };
static pthread_once_t ff_once = PTHREAD_ONCE_INIT;

static void ff_load(void) {
    dag_load_state *state = &ff_state;
    state->error = NULL;
    const char *codec = "libavcodec.so." DAG_STR(LIBAVCODEC_VERSION_MAJOR);
    const char *util = "libavutil.so." DAG_STR(LIBAVUTIL_VERSION_MAJOR);
    const char *scale = "libswscale.so." DAG_STR(LIBSWSCALE_VERSION_MAJOR);
    void *c = dag_open_library(state, codec, "libavcodec");
    void *u = dag_open_library(state, util, "libavutil");
    void *s = dag_open_library(state, scale, "libswscale");
    if (state->error) return;
#define C(field, name) ff.field = (__typeof__(ff.field))dag_resolve(state, c, codec, #name)
#define U(field, name) ff.field = (__typeof__(ff.field))dag_resolve(state, u, util, #name)
#define S(field, name) ff.field = (__typeof__(ff.field))dag_resolve(state, s, scale, #name)
    C(find_decoder, avcodec_find_decoder); C(find_encoder_by_name, avcodec_find_encoder_by_name);
    C(alloc_context3, avcodec_alloc_context3); C(free_context, avcodec_free_context); C(open2, avcodec_open2);
    C(send_packet, avcodec_send_packet); C(receive_frame, avcodec_receive_frame);
    C(send_frame, avcodec_send_frame); C(receive_packet, avcodec_receive_packet);
    C(packet_alloc, av_packet_alloc); C(packet_free, av_packet_free); C(packet_unref, av_packet_unref);
    C(new_packet, av_new_packet);
    U(frame_alloc, av_frame_alloc); U(frame_free, av_frame_free); U(frame_get_buffer, av_frame_get_buffer);
    U(frame_make_writable, av_frame_make_writable); U(frame_unref, av_frame_unref); U(mallocz, av_mallocz);
    U(channel_layout_copy, av_channel_layout_copy); U(channel_layout_default, av_channel_layout_default);
    U(dict_set, av_dict_set); U(dict_free, av_dict_free);
    U(log_set_level, av_log_set_level); U(strerror, av_strerror);
    U(buffer_create, av_buffer_create); U(opt_set_int, av_opt_set_int);
    S(sws_alloc, sws_alloc_context); S(sws_init, sws_init_context); S(sws_free, sws_freeContext);
    S(sws_colorspace, sws_setColorspaceDetails); S(sws_coefficients, sws_getCoefficients);
    S(sws_scale_frame, sws_scale_frame);
#undef C
#undef U
#undef S
}

const char *dag_ffmpeg_load_error(void) { return dag_load_once(&ff_once, ff_load, &ff_state); }

// Each forwarder: the real function once loaded, else the API's own failure value.
#define FF_READY (dag_ffmpeg_load_error() == NULL)
#define FF_UNAVAILABLE AVERROR(ENOSYS)

const AVCodec *avcodec_find_decoder(enum AVCodecID id) { return FF_READY ? ff.find_decoder(id) : NULL; }
const AVCodec *avcodec_find_encoder_by_name(const char *name) { return FF_READY ? ff.find_encoder_by_name(name) : NULL; }
AVCodecContext *avcodec_alloc_context3(const AVCodec *codec) { return FF_READY ? ff.alloc_context3(codec) : NULL; }
void avcodec_free_context(AVCodecContext **context) { if (FF_READY) ff.free_context(context); }
int avcodec_open2(AVCodecContext *context, const AVCodec *codec, AVDictionary **options) {
    return FF_READY ? ff.open2(context, codec, options) : FF_UNAVAILABLE;
}
int avcodec_send_packet(AVCodecContext *context, const AVPacket *packet) { return FF_READY ? ff.send_packet(context, packet) : FF_UNAVAILABLE; }
int avcodec_receive_frame(AVCodecContext *context, AVFrame *frame) { return FF_READY ? ff.receive_frame(context, frame) : FF_UNAVAILABLE; }
int avcodec_send_frame(AVCodecContext *context, const AVFrame *frame) { return FF_READY ? ff.send_frame(context, frame) : FF_UNAVAILABLE; }
int avcodec_receive_packet(AVCodecContext *context, AVPacket *packet) { return FF_READY ? ff.receive_packet(context, packet) : FF_UNAVAILABLE; }
AVPacket *av_packet_alloc(void) { return FF_READY ? ff.packet_alloc() : NULL; }
void av_packet_free(AVPacket **packet) { if (FF_READY) ff.packet_free(packet); }
void av_packet_unref(AVPacket *packet) { if (FF_READY) ff.packet_unref(packet); }
int av_new_packet(AVPacket *packet, int size) { return FF_READY ? ff.new_packet(packet, size) : FF_UNAVAILABLE; }
AVFrame *av_frame_alloc(void) { return FF_READY ? ff.frame_alloc() : NULL; }
void av_frame_free(AVFrame **frame) { if (FF_READY) ff.frame_free(frame); }
int av_frame_get_buffer(AVFrame *frame, int align) { return FF_READY ? ff.frame_get_buffer(frame, align) : FF_UNAVAILABLE; }
int av_frame_make_writable(AVFrame *frame) { return FF_READY ? ff.frame_make_writable(frame) : FF_UNAVAILABLE; }
void av_frame_unref(AVFrame *frame) { if (FF_READY) ff.frame_unref(frame); }
void *av_mallocz(size_t size) { return FF_READY ? ff.mallocz(size) : NULL; }
int av_channel_layout_copy(AVChannelLayout *destination, const AVChannelLayout *source) {
    return FF_READY ? ff.channel_layout_copy(destination, source) : FF_UNAVAILABLE;
}
void av_channel_layout_default(AVChannelLayout *layout, int channels) { if (FF_READY) ff.channel_layout_default(layout, channels); }
int av_dict_set(AVDictionary **dictionary, const char *key, const char *value, int flags) {
    return FF_READY ? ff.dict_set(dictionary, key, value, flags) : FF_UNAVAILABLE;
}
void av_dict_free(AVDictionary **dictionary) { if (FF_READY) ff.dict_free(dictionary); }
void av_log_set_level(int level) { if (FF_READY) ff.log_set_level(level); }
int av_strerror(int code, char *buffer, size_t size) {
    if (FF_READY) return ff.strerror(code, buffer, size);
    snprintf(buffer, size, "FFmpeg is not available: %s", ff_state.error);
    return 0;
}

AVBufferRef *av_buffer_create(uint8_t *data, size_t size, void (*free_function)(void *opaque, uint8_t *data), void *opaque, int flags) {
    return FF_READY ? ff.buffer_create(data, size, free_function, opaque, flags) : NULL;
}
int av_opt_set_int(void *object, const char *name, int64_t value, int flags) {
    return FF_READY ? ff.opt_set_int(object, name, value, flags) : FF_UNAVAILABLE;
}
struct SwsContext *sws_alloc_context(void) { return FF_READY ? ff.sws_alloc() : NULL; }
int sws_init_context(struct SwsContext *context, SwsFilter *source, SwsFilter *destination) {
    return FF_READY ? ff.sws_init(context, source, destination) : FF_UNAVAILABLE;
}
void sws_freeContext(struct SwsContext *context) { if (FF_READY) ff.sws_free(context); }
int sws_setColorspaceDetails(struct SwsContext *context, const int inverse[4], int sourceRange, const int table[4], int range,
                             int brightness, int contrast, int saturation) {
    return FF_READY ? ff.sws_colorspace(context, inverse, sourceRange, table, range, brightness, contrast, saturation) : FF_UNAVAILABLE;
}
const int *sws_getCoefficients(int colorspace) { return FF_READY ? ff.sws_coefficients(colorspace) : NULL; }
int sws_scale_frame(struct SwsContext *context, AVFrame *destination, const AVFrame *source) {
    return FF_READY ? ff.sws_scale_frame(context, destination, source) : FF_UNAVAILABLE;
}

// ---- x264, at the build number of the header (x264_encoder_open is a macro for the versioned
// symbol, x264_encoder_open_164 on bookworm; defining it below defines that symbol).

static struct {
    __typeof__(&x264_encoder_open) open;
    __typeof__(&x264_encoder_close) close;
    __typeof__(&x264_encoder_delayed_frames) delayed_frames;
    __typeof__(&x264_encoder_encode) encode;
    __typeof__(&x264_encoder_headers) headers;
    __typeof__(&x264_param_apply_profile) apply_profile;
    __typeof__(&x264_param_default_preset) default_preset;
    __typeof__(&x264_picture_init) picture_init;
} xx;
static dag_load_state xx_state = { "libx264 has not been loaded yet", "" };
static pthread_once_t xx_once = PTHREAD_ONCE_INIT;

static void xx_load(void) {
    dag_load_state *state = &xx_state;
    state->error = NULL;
    const char *soname = "libx264.so." DAG_STR(X264_BUILD);
    void *l = dag_open_library(state, soname, "libx264");
    if (state->error) return;
#define X(field, name) xx.field = (__typeof__(xx.field))dag_resolve(state, l, soname, name)
    X(open, DAG_STR(x264_encoder_open)); X(close, "x264_encoder_close"); X(delayed_frames, "x264_encoder_delayed_frames");
    X(encode, "x264_encoder_encode"); X(headers, "x264_encoder_headers"); X(apply_profile, "x264_param_apply_profile");
    X(default_preset, "x264_param_default_preset"); X(picture_init, "x264_picture_init");
#undef X
}

const char *dag_x264_load_error(void) { return dag_load_once(&xx_once, xx_load, &xx_state); }

#define XX_READY (dag_x264_load_error() == NULL)

x264_t *x264_encoder_open(x264_param_t *param) { return XX_READY ? xx.open(param) : NULL; }
void x264_encoder_close(x264_t *encoder) { if (XX_READY) xx.close(encoder); }
int x264_encoder_delayed_frames(x264_t *encoder) { return XX_READY ? xx.delayed_frames(encoder) : -1; }
int x264_encoder_encode(x264_t *encoder, x264_nal_t **nals, int *count, x264_picture_t *in, x264_picture_t *out) {
    return XX_READY ? xx.encode(encoder, nals, count, in, out) : -1;
}
int x264_encoder_headers(x264_t *encoder, x264_nal_t **nals, int *count) { return XX_READY ? xx.headers(encoder, nals, count) : -1; }
int x264_param_apply_profile(x264_param_t *param, const char *profile) { return XX_READY ? xx.apply_profile(param, profile) : -1; }
int x264_param_default_preset(x264_param_t *param, const char *preset, const char *tune) {
    return XX_READY ? xx.default_preset(param, preset, tune) : -1;
}
void x264_picture_init(x264_picture_t *picture) { if (XX_READY) xx.picture_init(picture); }

