#ifndef FS_INTERNAL_H
#define FS_INTERNAL_H
/* Shared between the shim's .c files; never seen by Swift. */
#include "cffmpeg.h"
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>

/** A decoded picture: one reference to a decoder frame plus its time in seconds. */
struct fs_picture {
    AVFrame *frame;
    double time;
    double duration;
};

/** Silences FFmpeg's logging and routes error messages to fs_last_message. Idempotent. */
void fs_init(void);
/** Writes "what: code text (last FFmpeg message)" into detail. */
void fs_detail(char *detail, size_t len, const char *what, int code);
/** The FFmpeg pixel format for an fs_pixel_format, AV_PIX_FMT_NONE for an unknown one. */
enum AVPixelFormat fs_av_format(int format);
/** Nonzero when width x height is a picture size the shim accepts. */
int fs_size_ok(int width, int height);

#endif
