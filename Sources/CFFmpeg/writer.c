#include "internal.h"
#include "aac.h"
#include <math.h>
#include <stdio.h>

/* Video timestamps are kept in 1/90000 s, exact for 24, 25, 30, 60 and 30000/1001 fps and fine enough
 * for variable-rate input. */
static const AVRational video_tb = {1, 90000};

struct fs_writer {
    AVFormatContext *oc;
    AVCodecContext *venc;
    fs_aac audio; /* audio.enc is NULL without an audio track */
    AVStream *vst, *ast;
    AVFrame *vframe;
    AVPacket *pkt;
    struct SwsContext *sws; /* rgb24 input to yuv420p */
    int64_t last_pts;
    int finished;
};

static int drain(fs_writer *w, AVCodecContext *enc, AVStream *st, const AVFrame *frame) {
    int ret = avcodec_send_frame(enc, frame);
    if (ret < 0) return ret;
    for (;;) {
        ret = avcodec_receive_packet(enc, w->pkt);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return 0;
        if (ret < 0) return ret;
        av_packet_rescale_ts(w->pkt, enc->time_base, st->time_base);
        w->pkt->stream_index = st->index;
        if ((ret = av_interleaved_write_frame(w->oc, w->pkt)) < 0) return ret;
    }
}

static int open_video(fs_writer *w, const fs_writer_options *o) {
    const char *name = o->codec == FS_CODEC_HEVC ? "libx265" : "libx264";
    const AVCodec *codec = avcodec_find_encoder_by_name(name);
    if (!codec) return AVERROR_ENCODER_NOT_FOUND;
    AVCodecContext *c = w->venc = avcodec_alloc_context3(codec);
    if (!c) return AVERROR(ENOMEM);
    c->width = o->width;
    c->height = o->height;
    c->time_base = video_tb;
    c->framerate = (AVRational){o->fps_num, o->fps_den};
    c->pix_fmt = AV_PIX_FMT_YUV420P;
    c->sample_aspect_ratio = (AVRational){1, 1};
    c->thread_count = o->threads;
    if (w->oc->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    char crf[16];
    snprintf(crf, sizeof crf, "%d", o->crf);
    av_opt_set(c->priv_data, "preset", o->preset ? o->preset : "veryfast", 0);
    av_opt_set(c->priv_data, "crf", crf, 0);
    if (o->codec == FS_CODEC_HEVC) av_opt_set(c->priv_data, "x265-params", "log-level=error", 0);
    int ret = avcodec_open2(c, codec, NULL);
    if (ret < 0) return ret;
    if (!(w->vst = avformat_new_stream(w->oc, NULL))) return AVERROR(ENOMEM);
    if ((ret = avcodec_parameters_from_context(w->vst->codecpar, c)) < 0) return ret;
    if (o->codec == FS_CODEC_HEVC) w->vst->codecpar->codec_tag = MKTAG('h', 'v', 'c', '1');
    w->vst->time_base = video_tb;
    w->vst->avg_frame_rate = c->framerate;
    if (o->rotation) {
        int32_t *matrix = (int32_t *)av_stream_new_side_data(w->vst, AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t));
        if (!matrix) return AVERROR(ENOMEM);
        /* av_display_rotation_get() of this matrix is -rotation: what phones write for portrait video. */
        av_display_rotation_set(matrix, o->rotation);
    }
    if (!(w->vframe = av_frame_alloc())) return AVERROR(ENOMEM);
    w->vframe->width = o->width;
    w->vframe->height = o->height;
    w->vframe->format = AV_PIX_FMT_YUV420P;
    return av_frame_get_buffer(w->vframe, 0);
}

static int open_audio(fs_writer *w, const fs_writer_options *o) {
    int ret = fs_aac_open(&w->audio, o->audio_rate, o->audio_channels, w->oc->oformat->flags & AVFMT_GLOBALHEADER);
    if (ret < 0) return ret;
    if (!(w->ast = avformat_new_stream(w->oc, NULL))) return AVERROR(ENOMEM);
    if ((ret = avcodec_parameters_from_context(w->ast->codecpar, w->audio.enc)) < 0) return ret;
    w->ast->time_base = w->audio.enc->time_base;
    return 0;
}

/* fs_aac_sink: an encoded audio packet into the file. */
static int mux_audio(void *context, AVPacket *pkt) {
    fs_writer *w = context;
    av_packet_rescale_ts(pkt, w->audio.enc->time_base, w->ast->time_base);
    pkt->stream_index = w->ast->index;
    return av_interleaved_write_frame(w->oc, pkt);
}

static int writer_open(fs_writer *w, const char *path, const fs_writer_options *o, char *detail, size_t len) {
    /* The url is kept on the context: +faststart reopens the file through it to move the index. */
    char *url = av_asprintf("file:%s", path);
    if (!url) return AVERROR(ENOMEM);
    int ret = avformat_alloc_output_context2(&w->oc, NULL, "mp4", url);
    av_free(url);
    if (ret < 0) { fs_detail(detail, len, "mp4 muxer", ret); return ret; }
    if (!(w->oc->protocol_whitelist = av_strdup("file"))) return AVERROR(ENOMEM);
    if ((ret = open_video(w, o)) < 0) { fs_detail(detail, len, "video encoder", ret); return ret; }
    if (o->audio_rate > 0 && (ret = open_audio(w, o)) < 0) { fs_detail(detail, len, "audio encoder", ret); return ret; }
    if (!(w->pkt = av_packet_alloc())) return AVERROR(ENOMEM);
    AVDictionary *io_opts = NULL;
    av_dict_set(&io_opts, "protocol_whitelist", "file", 0);
    ret = avio_open2(&w->oc->pb, w->oc->url, AVIO_FLAG_WRITE, NULL, &io_opts);
    av_dict_free(&io_opts);
    if (ret < 0) { fs_detail(detail, len, NULL, ret); return ret; }
    AVDictionary *mux_opts = NULL;
    av_dict_set(&mux_opts, "movflags", "+faststart", 0);
    ret = avformat_write_header(w->oc, &mux_opts);
    av_dict_free(&mux_opts);
    if (ret < 0) { fs_detail(detail, len, "cannot write header", ret); return ret; }
    w->last_pts = INT64_MIN;
    return 0;
}

int fs_writer_open(const char *path, const fs_writer_options *o, fs_writer **out, char *detail, size_t detail_len) {
    if (detail && detail_len) detail[0] = '\0';
    if (!path || !o || !out) return FS_ERR_ARGUMENT;
    *out = NULL;
    int loaded = fs_init();
    if (loaded < 0) { fs_detail(detail, detail_len, NULL, loaded); return loaded; }
    int bad = !fs_size_ok(o->width, o->height) || ((o->width | o->height) & 1) || o->fps_num <= 0 || o->fps_den <= 0
           || o->crf < 0 || o->crf > 51 || (o->codec != FS_CODEC_H264 && o->codec != FS_CODEC_HEVC)
           || (o->rotation != 0 && o->rotation != 90 && o->rotation != 180 && o->rotation != 270)
           || o->audio_rate < 0 || (o->audio_rate > 0 && (o->audio_channels < 1 || o->audio_channels > 2));
    if (bad) {
        if (detail) snprintf(detail, detail_len, "invalid writer settings (%dx%d, %d/%d fps, crf %d)", o->width, o->height, o->fps_num, o->fps_den, o->crf);
        return FS_ERR_ARGUMENT;
    }
    fs_writer *w = av_mallocz(sizeof *w);
    if (!w) return AVERROR(ENOMEM);
    int ret = writer_open(w, path, o, detail, detail_len);
    if (ret < 0) { fs_writer_free(&w); return ret; }
    *out = w;
    return 0;
}

int fs_writer_frame(fs_writer *w, uint8_t *planes[3], int strides[3]) {
    if (!w || !planes || !strides || w->finished) return FS_ERR_ARGUMENT;
    int ret = av_frame_make_writable(w->vframe);
    if (ret < 0) return ret;
    for (int i = 0; i < 3; i++) { planes[i] = w->vframe->data[i]; strides[i] = w->vframe->linesize[i]; }
    return 0;
}

int fs_writer_submit(fs_writer *w, double seconds) {
    if (!w || w->finished || !isfinite(seconds) || seconds < 0) return FS_ERR_ARGUMENT;
    int64_t pts = llrint(seconds * video_tb.den);
    if (pts <= w->last_pts) return FS_ERR_ARGUMENT;
    w->last_pts = pts;
    w->vframe->pts = pts;
    return drain(w, w->venc, w->vst, w->vframe);
}

int fs_writer_write_video(fs_writer *w, int format, const uint8_t *const planes[3], const int strides[3], double seconds) {
    if (!w || !planes || !strides || w->finished) return FS_ERR_ARGUMENT;
    int ret = av_frame_make_writable(w->vframe);
    if (ret < 0) return ret;
    AVFrame *f = w->vframe;
    if (format == FS_PIX_YUV420P) {
        av_image_copy(f->data, f->linesize, (const uint8_t **)planes, strides, AV_PIX_FMT_YUV420P, f->width, f->height);
    } else if (format == FS_PIX_RGB24) {
        w->sws = sws_getCachedContext(w->sws, f->width, f->height, AV_PIX_FMT_RGB24, f->width, f->height,
                                      AV_PIX_FMT_YUV420P, SWS_BILINEAR, NULL, NULL, NULL);
        if (!w->sws) return AVERROR(EINVAL);
        if ((ret = sws_scale(w->sws, planes, strides, 0, f->height, f->data, f->linesize)) < 0) return ret;
    } else {
        return FS_ERR_ARGUMENT;
    }
    return fs_writer_submit(w, seconds);
}

int fs_writer_write_audio(fs_writer *w, const float *samples, int count) {
    if (!w || !samples || count < 0 || w->finished || !w->audio.enc) return FS_ERR_ARGUMENT;
    return fs_aac_write(&w->audio, samples, count, mux_audio, w);
}

int fs_writer_finish(fs_writer *w) {
    if (!w || w->finished) return FS_ERR_ARGUMENT;
    int ret = drain(w, w->venc, w->vst, NULL);
    if (ret >= 0 && w->audio.enc) ret = fs_aac_finish(&w->audio, mux_audio, w);
    if (ret >= 0) ret = av_write_trailer(w->oc);
    w->finished = 1;
    int closed = avio_closep(&w->oc->pb);
    return ret < 0 ? ret : closed;
}

void fs_writer_free(fs_writer **writer) {
    if (!writer || !*writer) return;
    fs_writer *w = *writer;
    avcodec_free_context(&w->venc);
    fs_aac_free(&w->audio);
    av_frame_free(&w->vframe);
    av_packet_free(&w->pkt);
    sws_freeContext(w->sws);
    if (w->oc) {
        if (w->oc->pb) avio_closep(&w->oc->pb);
        avformat_free_context(w->oc);
    }
    av_freep(writer);
}
