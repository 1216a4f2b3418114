// OpenH264's encoder API (Debian's libopenh264-dev puts it in /usr/include/wels).
#include <wels/codec_api.h>

// In C the encoder is a pointer to a table of function pointers, each taking the encoder first.
// These wrappers make the calls read as calls from Swift.
static inline int dag_openh264_initialize(ISVCEncoder *encoder, const SEncParamExt *param) {
    return (*encoder)->InitializeExt(encoder, param);
}
static inline int dag_openh264_default_params(ISVCEncoder *encoder, SEncParamExt *param) {
    return (*encoder)->GetDefaultParams(encoder, param);
}
static inline int dag_openh264_uninitialize(ISVCEncoder *encoder) {
    return (*encoder)->Uninitialize(encoder);
}
static inline int dag_openh264_encode(ISVCEncoder *encoder, const SSourcePicture *picture, SFrameBSInfo *info) {
    return (*encoder)->EncodeFrame(encoder, picture, info);
}
static inline int dag_openh264_parameter_sets(ISVCEncoder *encoder, SFrameBSInfo *info) {
    return (*encoder)->EncodeParameterSets(encoder, info);
}
static inline int dag_openh264_set_option(ISVCEncoder *encoder, ENCODER_OPTION option, void *value) {
    return (*encoder)->SetOption(encoder, option, value);
}
