// FFmpeg's libavcodec (H.264 and HEVC decoding, HEVC encoding through libx265, AAC encoding)
// and libavutil. (The containers are Daguerre's own, so libavformat is not used.)
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
