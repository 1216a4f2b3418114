// Lazy loading of libavcodec, libavutil, libx264 and libopenh264 (see video_loader.c).
#ifndef DAG_VIDEO_H
#define DAG_VIDEO_H

/// Why libavcodec and libavutil could not be loaded, or NULL once they are (loads them on the
/// first call; thread-safe).
const char *dag_ffmpeg_load_error(void);
/// Why libx264 could not be loaded, or NULL once it is.
const char *dag_x264_load_error(void);
/// Why libopenh264 could not be loaded, or NULL once it is.
const char *dag_openh264_load_error(void);

#endif
