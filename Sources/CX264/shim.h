// libx264's encoder API. x264.h needs <stdint.h> first (TOOLCHAIN.md).
#include <stdint.h>
#include <x264.h>

// `x264_encoder_open` is a macro for the versioned symbol (x264_encoder_open_164 on bookworm),
// which Swift cannot import: this wrapper resolves it at compile time.
static inline x264_t *dag_x264_encoder_open(x264_param_t *param) {
    return x264_encoder_open(param);
}
