#include "internal.h"
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

_Static_assert(FS_EOF == AVERROR_EOF, "FS_EOF must equal AVERROR_EOF");

static _Thread_local char last_message[512];

static void log_callback(void *avcl, int level, const char *fmt, va_list args) {
    if (level > AV_LOG_ERROR) return;
    char line[512];
    vsnprintf(line, sizeof line, fmt, args);
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) line[--n] = '\0';
    if (n > 0) snprintf(last_message, sizeof last_message, "%s", line);
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static void init_once_body(void) { av_log_set_callback(log_callback); }
void fs_init(void) { pthread_once(&init_once, init_once_body); }

void fs_last_message(char *buf, size_t len) {
    if (len == 0) return;
    snprintf(buf, len, "%s", last_message);
    last_message[0] = '\0';
}

void fs_strerror(int code, char *buf, size_t len) {
    if (len == 0) return;
    switch (code) {
    case FS_ERR_REFUSED: snprintf(buf, len, "not an allowed media format or protocol"); return;
    case FS_ERR_NO_VIDEO: snprintf(buf, len, "no video stream"); return;
    case FS_ERR_TOO_LARGE: snprintf(buf, len, "picture larger than %dx%d or %lld pixels", FS_MAX_SIDE, FS_MAX_SIDE, FS_MAX_PIXELS); return;
    case FS_ERR_TRUNCATED: snprintf(buf, len, "file is truncated"); return;
    case FS_ERR_ARGUMENT: snprintf(buf, len, "invalid argument"); return;
    default:
        if (av_strerror(code, buf, len) < 0) snprintf(buf, len, "error %d", code);
    }
}

void fs_detail(char *detail, size_t len, const char *what, int code) {
    if (!detail || len == 0) { last_message[0] = '\0'; return; }
    char text[256], message[512];
    fs_strerror(code, text, sizeof text);
    fs_last_message(message, sizeof message);
    if (message[0] && strstr(message, text) == NULL)
        snprintf(detail, len, "%s%s%s (%s)", what ? what : "", what ? ": " : "", text, message);
    else
        snprintf(detail, len, "%s%s%s", what ? what : "", what ? ": " : "", text);
}

const char *fs_version(void) { return av_version_info(); }

enum AVPixelFormat fs_av_format(int format) {
    switch (format) {
    case FS_PIX_RGB24: return AV_PIX_FMT_RGB24;
    case FS_PIX_YUV420P: return AV_PIX_FMT_YUV420P;
    default: return AV_PIX_FMT_NONE;
    }
}

int fs_size_ok(int width, int height) {
    return width > 0 && height > 0 && width <= FS_MAX_SIDE && height <= FS_MAX_SIDE
        && (long long)width * height <= FS_MAX_PIXELS;
}
