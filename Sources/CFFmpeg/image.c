#include "internal.h"
#include <libswscale/swscale.h>

struct fs_image_encoder {
    AVCodecContext *enc;
    AVFrame *frame;
    AVPacket *pkt; /* the last encoded image, handed out until the next call */
    struct SwsContext *sws;
    int quality, src_format;
};

int fs_image_encoder_open(int kind, int width, int height, int quality, fs_image_encoder **out) {
    fs_init();
    if (!out || !fs_size_ok(width, height) || (kind != FS_IMAGE_JPEG && kind != FS_IMAGE_PNG)) return FS_ERR_ARGUMENT;
    *out = NULL;
    if (quality < 2) quality = 2;
    if (quality > 31) quality = 31;
    const AVCodec *codec = avcodec_find_encoder(kind == FS_IMAGE_JPEG ? AV_CODEC_ID_MJPEG : AV_CODEC_ID_PNG);
    if (!codec) return AVERROR_ENCODER_NOT_FOUND;
    fs_image_encoder *e = av_mallocz(sizeof *e);
    if (!e) return AVERROR(ENOMEM);
    e->quality = quality;
    e->src_format = -1;
    int ret = AVERROR(ENOMEM);
    if (!(e->enc = avcodec_alloc_context3(codec)) || !(e->frame = av_frame_alloc()) || !(e->pkt = av_packet_alloc())) goto fail;
    e->enc->width = width;
    e->enc->height = height;
    e->enc->time_base = (AVRational){1, 25};
    if (kind == FS_IMAGE_JPEG) {
        e->enc->pix_fmt = AV_PIX_FMT_YUVJ420P; /* full-range 4:2:0, what JPEG viewers expect */
        e->enc->color_range = AVCOL_RANGE_JPEG;
        e->enc->flags |= AV_CODEC_FLAG_QSCALE;
        e->enc->global_quality = FF_QP2LAMBDA * quality;
    } else {
        e->enc->pix_fmt = AV_PIX_FMT_RGB24;
    }
    if ((ret = avcodec_open2(e->enc, codec, NULL)) < 0) goto fail;
    e->frame->width = width;
    e->frame->height = height;
    e->frame->format = e->enc->pix_fmt;
    if ((ret = av_frame_get_buffer(e->frame, 0)) < 0) goto fail;
    *out = e;
    return 0;
fail:
    fs_image_encoder_free(&e);
    return ret;
}

int fs_image_encoder_encode(fs_image_encoder *e, int format, const uint8_t *const planes[3], const int strides[3],
                            const uint8_t **data, int *size) {
    if (!e || !planes || !strides || !data || !size) return FS_ERR_ARGUMENT;
    enum AVPixelFormat src = fs_av_format(format);
    if (src == AV_PIX_FMT_NONE) return FS_ERR_ARGUMENT;
    AVFrame *f = e->frame;
    int ret = av_frame_make_writable(f);
    if (ret < 0) return ret;
    e->sws = sws_getCachedContext(e->sws, f->width, f->height, src, f->width, f->height, f->format,
                                  SWS_BICUBIC, NULL, NULL, NULL);
    if (!e->sws) return AVERROR(EINVAL);
    if ((ret = sws_scale(e->sws, planes, strides, 0, f->height, f->data, f->linesize)) < 0) return ret;
    f->quality = e->enc->global_quality;
    f->pts = (f->pts == AV_NOPTS_VALUE ? 0 : f->pts + 1);
    av_packet_unref(e->pkt);
    if ((ret = avcodec_send_frame(e->enc, f)) < 0) return ret;
    if ((ret = avcodec_receive_packet(e->enc, e->pkt)) < 0) return ret;
    *data = e->pkt->data;
    *size = e->pkt->size;
    return 0;
}

void fs_image_encoder_free(fs_image_encoder **encoder) {
    if (!encoder || !*encoder) return;
    fs_image_encoder *e = *encoder;
    avcodec_free_context(&e->enc);
    av_frame_free(&e->frame);
    av_packet_free(&e->pkt);
    sws_freeContext(e->sws);
    av_freep(encoder);
}
