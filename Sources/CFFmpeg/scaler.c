#include "internal.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct fs_scaler {
    struct SwsContext *sws;
    int colorspace, range; /* source colour details the context was set up for */
    uint8_t *scratch;      /* scaled but not yet rotated picture, for rotated sources */
    int scratch_size;
    int bicubic; /* sharper, slower filter (the HLS ladder); bilinear otherwise */
};

void fs_scaler_set_bicubic(fs_scaler *scaler) { scaler->bicubic = 1; }

/* The scaler itself is plain memory, so a Scaler can exist before FFmpeg is loaded; FFmpeg is
 * only called once there is a picture to convert (and a picture means a reader loaded it). */
int fs_scaler_alloc(fs_scaler **out) {
    if (!out) return FS_ERR_ARGUMENT;
    *out = calloc(1, sizeof **out);
    return *out ? 0 : AVERROR(ENOMEM);
}

void fs_scaler_free(fs_scaler **scaler) {
    if (!scaler || !*scaler) return;
    if ((*scaler)->sws) sws_freeContext((*scaler)->sws);
    if ((*scaler)->scratch) av_freep(&(*scaler)->scratch);
    free(*scaler);
    *scaler = NULL;
}

/* Where stored pixel (x, y) of a w x h plane lands once turned clockwise by `rotation`. */
static inline void turned_position(int x, int y, int w, int h, int rotation, int *dx, int *dy) {
    switch (rotation) {
    case 90: *dx = h - 1 - y; *dy = x; break;
    case 180: *dx = w - 1 - x; *dy = h - 1 - y; break;
    default: *dx = y; *dy = w - 1 - x; break; /* 270 */
    }
}

/* Copies one plane of `bpp`-byte pixels, `w` x `h`, turned clockwise by `rotation` degrees.
 * Works in 32x32 tiles so both the reads and the transposed writes stay in cache. */
static void rotate_plane(const uint8_t *src, int sstride, int w, int h, uint8_t *dst, int dstride, int rotation, int bpp) {
    enum { TILE = 32 };
    for (int ty = 0; ty < h; ty += TILE) {
        int ey = ty + TILE < h ? ty + TILE : h;
        for (int tx = 0; tx < w; tx += TILE) {
            int ex = tx + TILE < w ? tx + TILE : w;
            for (int y = ty; y < ey; y++) {
                const uint8_t *s = src + (size_t)y * sstride + (size_t)tx * bpp;
                for (int x = tx; x < ex; x++, s += bpp) {
                    int dx, dy;
                    turned_position(x, y, w, h, rotation, &dx, &dy);
                    uint8_t *d = dst + (size_t)dy * dstride + (size_t)dx * bpp;
                    if (bpp == 1) {
                        *d = *s;
                    } else {
                        d[0] = s[0]; d[1] = s[1]; d[2] = s[2];
                    }
                }
            }
        }
    }
}

/* The stored-orientation rectangle that shows as `c` once turned upright by `rotation`. */
static fs_rect stored_rect(fs_rect c, int rotation, int w, int h) {
    switch (rotation) {
    case 90: return (fs_rect){c.y, h - c.x - c.width, c.height, c.width};
    case 180: return (fs_rect){w - c.x - c.width, h - c.y - c.height, c.width, c.height};
    case 270: return (fs_rect){w - c.y - c.height, c.x, c.height, c.width};
    default: return c;
    }
}

static int colorspace_of(const AVFrame *f) {
    switch (f->colorspace) {
    case AVCOL_SPC_BT709: return SWS_CS_ITU709;
    case AVCOL_SPC_BT2020_NCL: case AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020;
    case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M;
    default: return SWS_CS_ITU601;
    }
}

int fs_scaler_convert(fs_scaler *s, const fs_picture *picture, const fs_rect *crop, int rotation,
                      int width, int height, int format, uint8_t *const planes[3], const int strides[3]) {
    if (!s || !picture || !planes || !strides) return FS_ERR_ARGUMENT;
    enum AVPixelFormat dfmt = fs_av_format(format);
    if (dfmt == AV_PIX_FMT_NONE || !fs_size_ok(width, height)) return FS_ERR_ARGUMENT;
    if (format == FS_PIX_YUV420P && ((width | height) & 1)) return FS_ERR_ARGUMENT;
    if (rotation != 0 && rotation != 90 && rotation != 180 && rotation != 270) return FS_ERR_ARGUMENT;
    const AVFrame *f = picture->frame;
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(f->format);
    if (!desc) return FS_ERR_ARGUMENT;
    int turned = rotation == 90 || rotation == 270;
    int upright_w = turned ? f->height : f->width, upright_h = turned ? f->width : f->height;
    fs_rect c = crop ? *crop : (fs_rect){0, 0, upright_w, upright_h};
    if (c.x < 0 || c.y < 0 || c.width <= 0 || c.height <= 0 || c.x + c.width > upright_w || c.y + c.height > upright_h)
        return FS_ERR_ARGUMENT;
    fs_rect r = stored_rect(c, rotation, f->width, f->height);

    /* Crop by moving the source plane pointers; chroma offsets must fall on whole samples. */
    const uint8_t *src[4] = {f->data[0], f->data[1], f->data[2], f->data[3]};
    if (r.x || r.y) {
        if (desc->flags & (AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_PAL)) return FS_ERR_ARGUMENT;
        int cw = 1 << desc->log2_chroma_w, ch = 1 << desc->log2_chroma_h;
        int x = r.x / cw * cw, y = r.y / ch * ch;
        int steps[4];
        av_image_fill_max_pixsteps(steps, NULL, desc);
        for (int p = 0; p < 4 && src[p]; p++) {
            int chroma = (p == 1 || p == 2) && !(desc->flags & AV_PIX_FMT_FLAG_RGB);
            src[p] += (ptrdiff_t)(y >> (chroma ? desc->log2_chroma_h : 0)) * f->linesize[p]
                    + (ptrdiff_t)(x >> (chroma ? desc->log2_chroma_w : 0)) * steps[p];
        }
        r.x = x;
        r.y = y;
    }
    int tw = turned ? height : width, th = turned ? width : height;
    struct SwsContext *sws = sws_getCachedContext(s->sws, r.width, r.height, f->format, tw, th, dfmt,
                                                  s->bicubic ? SWS_BICUBIC : SWS_BILINEAR, NULL, NULL, NULL);
    if (!sws) return AVERROR(EINVAL);
    int cs = colorspace_of(f), range = f->color_range == AVCOL_RANGE_JPEG;
    if (sws != s->sws || cs != s->colorspace || range != s->range) {
        int full_out = format == FS_PIX_RGB24;
        const int *coefs = sws_getCoefficients(cs);
        sws_setColorspaceDetails(sws, coefs, range, sws_getCoefficients(SWS_CS_ITU601), full_out, 0, 1 << 16, 1 << 16);
        s->sws = sws;
        s->colorspace = cs;
        s->range = range;
    }
    /* swscale's SIMD writes whole blocks of pixels: a row whose length is not a multiple of its
     * block runs past its end (a 360-wide RGB row by 24 bytes), which in the caller's tightly
     * packed picture is the next row or, for the last, past the buffer. So it scales into scratch
     * rows padded to 64 bytes, with 64 bytes to spare after them, and the rows are copied (or
     * turned) into the caller's planes. */
    int bpp = format == FS_PIX_RGB24 ? 3 : 1;
    int nplanes = format == FS_PIX_RGB24 ? 1 : 3;
    /* Rows already padded to 64 bytes (an AVFrame's, a picture whose rows are whole blocks): directly. */
    int direct = rotation == 0;
    for (int p = 0; p < nplanes; p++) {
        int pw = p ? (tw + 1) / 2 : tw;
        direct = direct && strides[p] % 64 == 0 && strides[p] >= FFALIGN(pw * bpp, 64);
    }
    if (direct) {
        int ret = sws_scale(sws, src, f->linesize, 0, r.height, planes, strides);
        return ret < 0 ? ret : 0;
    }
    uint8_t *tmp[4] = {NULL};
    int tmp_strides[4] = {0};
    size_t size = 0;
    for (int p = 0; p < nplanes; p++) {
        int pw = p ? (tw + 1) / 2 : tw, ph = p ? (th + 1) / 2 : th;
        tmp_strides[p] = FFALIGN(pw * bpp, 64);
        size += (size_t)tmp_strides[p] * ph;
    }
    size += 64;
    if (size > INT_MAX) return AVERROR(EINVAL);
    if ((int)size > s->scratch_size) {
        av_freep(&s->scratch);
        if (!(s->scratch = av_malloc(size))) { s->scratch_size = 0; return AVERROR(ENOMEM); }
        s->scratch_size = (int)size;
    }
    uint8_t *next = s->scratch;
    for (int p = 0; p < nplanes; p++) {
        int ph = p ? (th + 1) / 2 : th;
        tmp[p] = next;
        next += (size_t)tmp_strides[p] * ph;
    }
    int ret = sws_scale(sws, src, f->linesize, 0, r.height, tmp, tmp_strides);
    for (int p = 0; p < nplanes; p++) {
        int pw = p ? (tw + 1) / 2 : tw, ph = p ? (th + 1) / 2 : th;
        if (rotation == 0) {
            for (int y = 0; y < ph; y++) memcpy(planes[p] + (size_t)y * strides[p], tmp[p] + (size_t)y * tmp_strides[p], (size_t)pw * bpp);
        } else {
            rotate_plane(tmp[p], tmp_strides[p], pw, ph, planes[p], strides[p], rotation, bpp);
        }
    }
    return 0;
}

void fs_fill(int width, int height, int format, uint8_t *const planes[3], const int strides[3], int r, int g, int b) {
    if (!planes || !strides || width <= 0 || height <= 0) return;
    if (format == FS_PIX_RGB24) {
        for (int y = 0; y < height; y++) {
            uint8_t *row = planes[0] + (size_t)y * strides[0];
            for (int x = 0; x < width; x++) { row[3 * x] = r; row[3 * x + 1] = g; row[3 * x + 2] = b; }
        }
        return;
    }
    int yy = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
    int uu = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
    int vv = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
    for (int y = 0; y < height; y++) memset(planes[0] + (size_t)y * strides[0], yy, width);
    for (int y = 0; y < (height + 1) / 2; y++) {
        memset(planes[1] + (size_t)y * strides[1], uu, (width + 1) / 2);
        memset(planes[2] + (size_t)y * strides[2], vv, (width + 1) / 2);
    }
}
