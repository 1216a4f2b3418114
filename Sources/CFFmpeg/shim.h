// FFmpeg's libavcodec (H.264 and HEVC decoding, HEVC encoding through libx265, AAC encoding),
// libavutil, and libswscale (decoded frames to RGB, scaled in the same pass). (The containers
// are Daguerre's own, so libavformat is not used.)
// Swift does not import AVERROR(e), AVERROR_EOF or AV_NOPTS_VALUE (TOOLCHAIN.md), and cannot
// call the variadic av_log: the wrappers below stand in for them.
#include <errno.h>
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

static inline int dag_averror_eof(void) { return AVERROR_EOF; }
static inline int dag_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int64_t dag_av_nopts_value(void) { return AV_NOPTS_VALUE; }

/// Silences libavcodec's own logging (damaged input is reported as a typed error instead).
static inline void dag_av_log_quiet(void) { av_log_set_level(AV_LOG_QUIET); }

/// The text of an FFmpeg error code (av_strerror into a caller's buffer).
static inline const char *dag_av_strerror(int code, char *buffer, size_t size) {
    av_strerror(code, buffer, size);
    return buffer;
}

/// AV_INPUT_BUFFER_PADDING_SIZE: zeroed bytes libavcodec may read past the end of its input.
static inline int dag_av_input_padding(void) { return AV_INPUT_BUFFER_PADDING_SIZE; }

/// AV_CODEC_FLAG_GLOBAL_HEADER: put the codec configuration in extradata (an MP4 'esds').
static inline int dag_av_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }

/// FF_THREAD_FRAME: decode successive frames on their own threads (bit-exact with one thread).
static inline int dag_av_thread_frame(void) { return FF_THREAD_FRAME; }

/// A libswscale context from `source_format` to `format`, scaling with `flags` (SWS_*) on
/// `threads` slice threads; Y'CbCr read with the matrix `colorspace` (SWS_CS_*), in full range
/// when `source_full_range`. NULL when libswscale refuses the conversion.
static inline struct SwsContext *dag_sws_context(int source_width, int source_height, enum AVPixelFormat source_format,
                                                 int width, int height, enum AVPixelFormat format, int flags,
                                                 int threads, int colorspace, int source_full_range) {
    struct SwsContext *context = sws_alloc_context();
    if (!context) return NULL;
    av_opt_set_int(context, "srcw", source_width, 0);
    av_opt_set_int(context, "srch", source_height, 0);
    av_opt_set_int(context, "src_format", source_format, 0);
    av_opt_set_int(context, "dstw", width, 0);
    av_opt_set_int(context, "dsth", height, 0);
    av_opt_set_int(context, "dst_format", format, 0);
    av_opt_set_int(context, "sws_flags", flags, 0);
    av_opt_set_int(context, "threads", threads, 0);
    if (sws_init_context(context, NULL, NULL) < 0) {
        sws_freeContext(context);
        return NULL;
    }
    const int *table = sws_getCoefficients(colorspace);
    sws_setColorspaceDetails(context, table, source_full_range, table, 1, 0, 1 << 16, 1 << 16);
    return context;
}

static inline void dag_av_keep_buffer(void *opaque, uint8_t *data) {
    (void)opaque;
    (void)data;
}

/// Converts (and scales) `source` with `context` into the caller's packed pixels: `height` rows
/// of `bytes_per_row` bytes at `pixels`, which stay the caller's (wrapped, never freed).
/// sws_scale_frame, unlike sws_scale, runs on the context's slice threads.
static inline int dag_sws_scale_into(struct SwsContext *context, const AVFrame *source, uint8_t *pixels, int bytes_per_row,
                                     int width, int height, enum AVPixelFormat format) {
    AVFrame *destination = av_frame_alloc();
    if (!destination) return AVERROR(ENOMEM);
    destination->buf[0] = av_buffer_create(pixels, (size_t)bytes_per_row * (size_t)height, dag_av_keep_buffer, NULL, 0);
    if (!destination->buf[0]) {
        av_frame_free(&destination);
        return AVERROR(ENOMEM);
    }
    destination->data[0] = pixels;
    destination->linesize[0] = bytes_per_row;
    destination->width = width;
    destination->height = height;
    destination->format = format;
    int status = sws_scale_frame(context, destination, source);
    av_frame_free(&destination);
    return status;
}
