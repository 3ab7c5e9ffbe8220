#include "aac.h"

int fs_aac_open(fs_aac *a, int rate, int channels, int global_header) {
    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_AAC);
    if (!codec) return AVERROR_ENCODER_NOT_FOUND;
    AVCodecContext *c = a->enc = avcodec_alloc_context3(codec);
    if (!c) return AVERROR(ENOMEM);
    c->sample_fmt = AV_SAMPLE_FMT_FLTP;
    c->sample_rate = rate;
    av_channel_layout_default(&c->ch_layout, channels);
    c->bit_rate = 64000 * channels;
    c->time_base = (AVRational){1, rate};
    if (global_header) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    int ret = avcodec_open2(c, codec, NULL);
    if (ret < 0) return ret;
    if (!(a->frame = av_frame_alloc()) || !(a->pkt = av_packet_alloc())) return AVERROR(ENOMEM);
    a->frame->format = c->sample_fmt;
    a->frame->sample_rate = c->sample_rate;
    a->frame->nb_samples = c->frame_size;
    if ((ret = av_channel_layout_copy(&a->frame->ch_layout, &c->ch_layout)) < 0) return ret;
    if ((ret = av_frame_get_buffer(a->frame, 0)) < 0) return ret;
    a->channels = channels;
    a->fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, channels, 4 * c->frame_size);
    return a->fifo ? 0 : AVERROR(ENOMEM);
}

static int drain(fs_aac *a, const AVFrame *frame, fs_aac_sink sink, void *context) {
    int ret = avcodec_send_frame(a->enc, frame);
    if (ret < 0) return ret;
    for (;;) {
        ret = avcodec_receive_packet(a->enc, a->pkt);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return 0;
        if (ret < 0) return ret;
        ret = sink(context, a->pkt);
        av_packet_unref(a->pkt);
        if (ret < 0) return ret;
    }
}

static int encode_frames(fs_aac *a, int final, fs_aac_sink sink, void *context) {
    int size = a->enc->frame_size;
    while (av_audio_fifo_size(a->fifo) >= size || (final && av_audio_fifo_size(a->fifo) > 0)) {
        int n = FFMIN(size, av_audio_fifo_size(a->fifo));
        int ret = av_frame_make_writable(a->frame);
        if (ret < 0) return ret;
        if (av_audio_fifo_read(a->fifo, (void **)a->frame->data, n) < n) return AVERROR(EIO);
        a->frame->nb_samples = n;
        a->frame->pts = a->pts;
        a->pts += n;
        if ((ret = drain(a, a->frame, sink, context)) < 0) return ret;
    }
    return 0;
}

int fs_aac_write(fs_aac *a, const float *samples, int count, fs_aac_sink sink, void *context) {
    enum { CHUNK = 4096 };
    if (!a->planar[0]) {
        for (int c = 0; c < a->channels; c++)
            if (!(a->planar[c] = av_malloc(CHUNK * sizeof(float)))) return AVERROR(ENOMEM);
    }
    for (int done = 0; done < count;) {
        int n = FFMIN(CHUNK, count - done);
        for (int c = 0; c < a->channels; c++)
            for (int i = 0; i < n; i++) a->planar[c][i] = samples[(size_t)(done + i) * a->channels + c];
        if (av_audio_fifo_write(a->fifo, (void **)a->planar, n) < n) return AVERROR(ENOMEM);
        int ret = encode_frames(a, 0, sink, context);
        if (ret < 0) return ret;
        done += n;
    }
    return 0;
}

int fs_aac_finish(fs_aac *a, fs_aac_sink sink, void *context) {
    int ret = encode_frames(a, 1, sink, context);
    return ret < 0 ? ret : drain(a, NULL, sink, context);
}

void fs_aac_free(fs_aac *a) {
    avcodec_free_context(&a->enc);
    av_frame_free(&a->frame);
    av_packet_free(&a->pkt);
    if (a->fifo) av_audio_fifo_free(a->fifo);
    a->fifo = NULL;
    av_freep(&a->planar[0]);
    av_freep(&a->planar[1]);
}
