/* One rung of the HLS ladder: its encoder and hls muxer, and the thread that scales, encodes
 * and muxes what the decoding thread queues for it. */
#include "hls.h"
#include <math.h>
#include <stdio.h>

static int write_header(rung *r, const fs_hls_options *o, char *segments);

void fs_hls_job_free(job *j) {
    av_frame_free(&j->picture);
    av_packet_free(&j->audio);
}

static int mux_video(rung *r) {
    for (;;) {
        int ret = avcodec_receive_packet(r->enc, r->pkt);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return 0;
        if (ret < 0) return ret;
        av_packet_rescale_ts(r->pkt, r->enc->time_base, r->vst->time_base);
        r->pkt->stream_index = r->vst->index;
        if ((ret = av_interleaved_write_frame(r->oc, r->pkt)) < 0) return ret;
    }
}

/* Makes r->scaled writable without copying: a rung fed by this one may still hold the last
 * picture, which is then left to it and a new buffer taken (the whole picture is rewritten). */
static int scaled_frame(rung *r) {
    if (av_frame_is_writable(r->scaled)) return 0;
    av_frame_unref(r->scaled);
    r->scaled->width = r->width;
    r->scaled->height = r->height;
    r->scaled->format = AV_PIX_FMT_YUV420P;
    return av_frame_get_buffer(r->scaled, 0);
}

/* Hands `picture` (a shared reference) to the rungs scaled from this one. A fed rung's failure
 * is its own (it reports it); this rung goes on. */
static int feed_rungs(rung *r, AVFrame *picture, const job *j) {
    for (int i = 0; i < r->nfeeds; i++) {
        job next = {.picture = av_frame_clone(picture), .time = j->time, .key = j->key};
        if (!next.picture) return AVERROR(ENOMEM);
        fs_hls_push(r->owner, r->feeds[i], next);
    }
    return 0;
}

static int run_job(rung *r, job *j) {
    int ret;
    if (j->audio) {
        av_packet_rescale_ts(j->audio, r->owner->aac.enc->time_base, r->ast->time_base);
        j->audio->stream_index = r->ast->index;
        return av_interleaved_write_frame(r->oc, j->audio); /* takes the packet's reference */
    }
    AVFrame *in = j->picture;
    if (in->width == r->width && in->height == r->height && in->format == AV_PIX_FMT_YUV420P && r->rotation == 0) {
        /* The source's own size: encode the decoded picture itself, no conversion. (Such a rung
         * feeds none unless the stream's size changed since it was planned; then it passes the
         * picture on as it is.) */
        if ((ret = feed_rungs(r, in, j)) < 0) return ret;
        in->pts = llrint(j->time * video_tb.den);
        in->pict_type = j->key ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
        in->key_frame = 0;
        in->sample_aspect_ratio = (AVRational){1, 1};
        if ((ret = avcodec_send_frame(r->enc, in)) < 0) return ret;
        r->pictures++;
        return mux_video(r);
    }
    if ((ret = scaled_frame(r)) < 0) return ret;
    fs_picture picture = {.frame = j->picture, .time = j->time};
    ret = fs_scaler_convert(r->scaler, &picture, NULL, r->rotation, r->width, r->height, FS_PIX_YUV420P,
                            r->scaled->data, r->scaled->linesize);
    if (ret < 0) return ret;
    if ((ret = feed_rungs(r, r->scaled, j)) < 0) return ret;
    r->scaled->pts = llrint(j->time * video_tb.den);
    r->scaled->pict_type = j->key ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
    if ((ret = avcodec_send_frame(r->enc, r->scaled)) < 0) return ret;
    r->pictures++;
    return mux_video(r);
}

void *fs_hls_rung_main(void *arg) {
    rung *r = arg;
    fs_hls *h = r->owner;
    for (;;) {
        pthread_mutex_lock(&h->lock);
        /* Out of work once the decoder stopped and, for a rung fed by another, that one too. */
        while (r->count == 0 && !h->aborting && !(h->stopping && (!r->feeder || r->feeder->drained)))
            pthread_cond_wait(&h->changed, &h->lock);
        if (h->aborting || r->count == 0) {
            r->drained = 1;
            pthread_cond_broadcast(&h->changed);
            pthread_mutex_unlock(&h->lock);
            break;
        }
        job j = r->queue[r->head];
        r->head = (r->head + 1) % (QUEUE + AUDIO_QUEUE);
        r->count--;
        int failed = r->error;
        pthread_cond_broadcast(&h->changed);
        pthread_mutex_unlock(&h->lock);
        if (!failed) {
            int ret = run_job(r, &j);
            if (ret < 0) {
                fs_detail(r->detail, sizeof r->detail, j.audio ? "audio" : "video", ret);
                pthread_mutex_lock(&h->lock);
                r->error = ret;
                pthread_cond_broadcast(&h->changed);
                pthread_mutex_unlock(&h->lock);
            }
        }
        fs_hls_job_free(&j);
    }
    if (!h->aborting && !r->error) {
        int ret = r->enc ? avcodec_send_frame(r->enc, NULL) : 0;
        if (ret >= 0 && r->enc) ret = mux_video(r);
        if (ret >= 0) { ret = av_write_trailer(r->oc); r->trailer_written = 1; }
        if (ret < 0) { fs_detail(r->detail, sizeof r->detail, "finishing", ret); r->error = ret; }
    }
    return NULL;
}

int fs_hls_push(fs_hls *h, rung *r, job j) {
    int capacity = j.picture ? QUEUE : QUEUE + AUDIO_QUEUE;
    pthread_mutex_lock(&h->lock);
    while (r->count >= capacity && !r->error && !h->aborting) pthread_cond_wait(&h->changed, &h->lock);
    int error = r->error ? r->error : h->aborting ? AVERROR_EXIT : 0;
    if (!error) {
        r->queue[(r->head + r->count) % (QUEUE + AUDIO_QUEUE)] = j;
        r->count++;
        pthread_cond_broadcast(&h->changed);
    }
    pthread_mutex_unlock(&h->lock);
    if (error) fs_hls_job_free(&j);
    return error;
}

int fs_hls_open_rung(fs_hls *h, rung *r, const fs_hls_rung *spec, const fs_hls_options *o, double fps) {
    int ret;
    r->owner = h;
    r->width = spec->width;
    r->height = spec->height;
    char *playlist = av_asprintf("%s/index.m3u8", spec->folder);
    char *segments = av_asprintf("%s/segment_%%05d.m4s", spec->folder);
    if (!playlist || !segments) { av_free(playlist); av_free(segments); return AVERROR(ENOMEM); }
    ret = avformat_alloc_output_context2(&r->oc, NULL, "hls", playlist);
    av_free(playlist);
    if (ret < 0) { av_free(segments); return ret; }
    if (!(r->oc->protocol_whitelist = av_strdup("file"))) { av_free(segments); return AVERROR(ENOMEM); }

    int hevc = o->codec == FS_CODEC_HEVC;
    const AVCodec *codec = avcodec_find_encoder_by_name(hevc ? "libx265" : "libx264");
    if (!codec) { av_free(segments); return AVERROR_ENCODER_NOT_FOUND; }
    AVCodecContext *c = r->enc = avcodec_alloc_context3(codec);
    if (!c) { av_free(segments); return AVERROR(ENOMEM); }
    c->width = r->width;
    c->height = r->height;
    c->time_base = video_tb;
    c->framerate = av_d2q(fps, 100000);
    c->pix_fmt = AV_PIX_FMT_YUV420P;
    c->sample_aspect_ratio = (AVRational){1, 1};
    c->thread_count = spec->threads > 0 ? spec->threads : o->threads;
    c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    /* Key frames come only where forced (every gop seconds, the same pictures in every rung);
     * the encoder's own limit is a safety net far enough away never to come first. */
    int gop_frames = (int)lrint(o->gop_seconds * fps);
    c->gop_size = 4 * (gop_frames > 0 ? gop_frames : 1) + 1;
    if (spec->maxrate > 0) { c->rc_max_rate = spec->maxrate; c->rc_buffer_size = 2 * spec->maxrate; }
    char crf[16];
    snprintf(crf, sizeof crf, "%d", o->crf);
    av_opt_set(c->priv_data, "preset", o->preset ? o->preset : "veryfast", 0);
    av_opt_set(c->priv_data, "crf", crf, 0);
    av_opt_set(c->priv_data, "forced-idr", "1", 0);
    if (hevc) av_opt_set(c->priv_data, "x265-params", "log-level=error:scenecut=0:open-gop=0", 0);
    else av_opt_set(c->priv_data, "x264-params", "scenecut=0:open-gop=0", 0);
    if ((ret = avcodec_open2(c, codec, NULL)) < 0) { av_free(segments); return ret; }
    if (!(r->vst = avformat_new_stream(r->oc, NULL))) { av_free(segments); return AVERROR(ENOMEM); }
    if ((ret = avcodec_parameters_from_context(r->vst->codecpar, c)) < 0) { av_free(segments); return ret; }
    if (hevc) r->vst->codecpar->codec_tag = MKTAG('h', 'v', 'c', '1');
    r->vst->time_base = video_tb;
    r->vst->avg_frame_rate = c->framerate;
    fs_codecs_string(r->enc, hevc, r->codecs, sizeof r->codecs);
    if (!(r->scaled = av_frame_alloc()) || !(r->pkt = av_packet_alloc())) { av_free(segments); return AVERROR(ENOMEM); }
    r->scaled->width = r->width;
    r->scaled->height = r->height;
    r->scaled->format = AV_PIX_FMT_YUV420P;
    if ((ret = av_frame_get_buffer(r->scaled, 0)) < 0) { av_free(segments); return ret; }
    if ((ret = fs_scaler_alloc(&r->scaler)) < 0) { av_free(segments); return ret; }
    fs_scaler_set_bicubic(r->scaler);
    return write_header(r, o, segments);
}

int fs_hls_open_audio(fs_hls *h, rung *r, const char *folder, const fs_hls_options *o) {
    r->owner = h;
    snprintf(r->codecs, sizeof r->codecs, "mp4a.40.2");
    char *playlist = av_asprintf("%s/index.m3u8", folder);
    char *segments = av_asprintf("%s/segment_%%05d.m4s", folder);
    if (!playlist || !segments) { av_free(playlist); av_free(segments); return AVERROR(ENOMEM); }
    int ret = avformat_alloc_output_context2(&r->oc, NULL, "hls", playlist);
    av_free(playlist);
    if (ret < 0) { av_free(segments); return ret; }
    if (!(r->oc->protocol_whitelist = av_strdup("file"))) { av_free(segments); return AVERROR(ENOMEM); }
    if (!(r->ast = avformat_new_stream(r->oc, NULL))) { av_free(segments); return AVERROR(ENOMEM); }
    if ((ret = avcodec_parameters_from_context(r->ast->codecpar, h->aac.enc)) < 0) { av_free(segments); return ret; }
    r->ast->time_base = h->aac.enc->time_base;
    return write_header(r, o, segments);
}

/* The hls muxer's options (fMP4 segments of about segment_seconds, VOD) and its header;
 * takes `segments`, the segment file pattern. */
static int write_header(rung *r, const fs_hls_options *o, char *segments) {
    int ret;
    AVDictionary *opts = NULL;
    char seconds[32];
    snprintf(seconds, sizeof seconds, "%.3f", o->segment_seconds);
    av_dict_set(&opts, "hls_time", seconds, 0);
    av_dict_set(&opts, "hls_playlist_type", "vod", 0);
    av_dict_set(&opts, "hls_segment_type", "fmp4", 0);
    av_dict_set(&opts, "hls_fmp4_init_filename", "init.mp4", 0);
    av_dict_set(&opts, "hls_segment_filename", segments, AV_DICT_DONT_STRDUP_VAL);
    av_dict_set(&opts, "hls_flags", "independent_segments", 0);
    ret = avformat_write_header(r->oc, &opts);
    av_dict_free(&opts);
    if (ret >= 0) r->header_written = 1;
    return ret;
}
