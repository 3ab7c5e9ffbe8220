/* An HLS ladder in one pass: one decode, each rung scaled from the decoded picture (or from a
 * rung at least twice its size, see plan_cascade) and encoded and muxed (FFmpeg's hls muxer, fMP4
 * segments) on a thread of its own; key frames forced at the same timestamps in every rung so
 * segments align; the audio encoded once into a rendition of its own (audio/, as CMAF wants one
 * track per segment, so DASH can describe the same files). The main thread
 * decodes and hands each picture to the rungs through small queues (a full queue waits: memory
 * stays a few pictures per rung). */
#include "hls.h"
#include "reader.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Where each rung's pictures come from. A rung at most half as wide and half as high as another
 * rung that scales (not the source-size one, which is the decoded picture itself) is scaled from
 * the smallest such rung's picture: 720p -> 360p is an exact 2:1, half the filter taps of
 * 1080p -> 360p, from a picture already turned upright. Every other rung scales the decoded
 * picture. */
static void plan_cascade(fs_hls *h, const fs_media_info *info) {
    int turned = h->rotation == 90 || h->rotation == 270;
    int upright_w = turned ? info->coded_height : info->coded_width, upright_h = turned ? info->coded_width : info->coded_height;
    for (int i = 0; i < h->nrungs; i++) {
        rung *r = &h->rungs[i], *from = NULL;
        for (int j = 0; j < h->nrungs; j++) {
            rung *c = &h->rungs[j];
            int source_size = h->rotation == 0 && c->width == upright_w && c->height == upright_h;
            if (j == i || source_size || c->feeder || c->width < 2 * r->width || c->height < 2 * r->height) continue;
            if (!from || c->width * c->height < from->width * from->height) from = c;
        }
        r->rotation = from ? 0 : h->rotation;
        if (from) { r->feeder = from; from->feeds[from->nfeeds++] = r; }
    }
}

static int hls_open(fs_hls *h, const char *input, const fs_hls_options *o, char *detail, size_t len) {
    int ret;
    fs_reader_options ro = {.decode_video = 1};
    if ((ret = fs_reader_open(input, &ro, &h->video, detail, len)) < 0) return ret;
    fs_media_info info;
    fs_reader_info(h->video, &info);
    h->rotation = info.rotation;
    double fps = fs_standard_frame_rate(info.nominal_fps);
    if (o->audio && info.audio_codec[0]) {
        fs_reader_options ao = {.decode_audio = 1};
        if ((ret = fs_reader_open(input, &ao, &h->sound, detail, len)) < 0) return ret;
        h->audio_rate = info.audio_sample_rate == 44100 ? 44100 : 48000;
        h->audio_channels = info.audio_channels >= 2 ? 2 : 1;
        if ((ret = fs_aac_open(&h->aac, h->audio_rate, h->audio_channels, 1)) < 0) { fs_detail(detail, len, "audio encoder", ret); return ret; }
        if (!(h->samples = av_malloc(sizeof(float) * 2 * 4096))) return AVERROR(ENOMEM);
        if (!o->audio_folder) { snprintf(detail, len, "no folder for the audio rendition"); return FS_ERR_ARGUMENT; }
        if ((ret = fs_hls_open_audio(h, &h->audio, o->audio_folder, o)) < 0) { fs_detail(detail, len, "audio rendition", ret); return ret; }
    }
    for (int i = 0; i < o->rung_count; i++) {
        if ((ret = fs_hls_open_rung(h, &h->rungs[i], &o->rungs[i], o, fps)) < 0) {
            char what[64];
            snprintf(what, sizeof what, "rung %dx%d", o->rungs[i].width, o->rungs[i].height);
            fs_detail(detail, len, what, ret);
            return ret;
        }
        h->nrungs = i + 1;
    }
    plan_cascade(h, &info);
    if ((ret = pthread_mutex_init(&h->lock, NULL)) != 0) return AVERROR(ret);
    if ((ret = pthread_cond_init(&h->changed, NULL)) != 0) { pthread_mutex_destroy(&h->lock); return AVERROR(ret); }
    h->lock_ready = 1;
    for (int i = 0; i <= h->nrungs; i++) {
        rung *r = fs_hls_muxer(h, i);
        if (!r->oc) continue;
        if ((ret = pthread_create(&r->thread, NULL, fs_hls_rung_main, r)) != 0) return AVERROR(ret);
        r->started = 1;
    }
    h->gop = o->gop_seconds;
    h->last_pts = INT64_MIN;
    return 0;
}

int fs_hls_open(const char *input, const fs_hls_options *o, fs_hls **out, char *detail, size_t detail_len) {
    if (detail && detail_len) detail[0] = '\0';
    if (!input || !o || !out) return FS_ERR_ARGUMENT;
    *out = NULL;
    int loaded = fs_init();
    if (loaded < 0) { fs_detail(detail, detail_len, NULL, loaded); return loaded; }
    int bad = o->rung_count < 1 || o->rung_count > MAX_RUNGS || !o->rungs || o->crf < 0 || o->crf > 51
           || (o->codec != FS_CODEC_H264 && o->codec != FS_CODEC_HEVC) || !(o->segment_seconds >= 1 && o->segment_seconds <= 60)
           || !(o->gop_seconds > 0 && o->gop_seconds <= o->segment_seconds);
    for (int i = 0; !bad && i < o->rung_count; i++) {
        const fs_hls_rung *s = &o->rungs[i];
        bad = !s->folder || !fs_size_ok(s->width, s->height) || ((s->width | s->height) & 1) || s->maxrate < 0;
    }
    if (bad) {
        if (detail) snprintf(detail, detail_len, "invalid ladder settings (%d rungs, crf %d, segment %g s, gop %g s)",
                             o->rung_count, o->crf, o->segment_seconds, o->gop_seconds);
        return FS_ERR_ARGUMENT;
    }
    fs_hls *h = av_mallocz(sizeof *h);
    if (!h) return AVERROR(ENOMEM);
    int ret = hls_open(h, input, o, detail, detail_len);
    if (ret < 0) { fs_hls_free(&h); return ret; }
    *out = h;
    return 0;
}

/* ------------------------------------------------------------------ decode and dispatch */

/* fs_aac_sink: an audio packet for the audio rendition. */
static int share_audio(void *context, AVPacket *pkt) {
    fs_hls *h = context;
    job j = {.audio = av_packet_clone(pkt)};
    if (!j.audio) return AVERROR(ENOMEM);
    return fs_hls_push(h, &h->audio, j);
}

/* Encodes the audio up to `until` seconds (all of it when `until` is infinite). */
static int audio_until(fs_hls *h, double until) {
    while (h->sound && !h->audio_eof && h->audio_time < until) {
        int got = 0;
        double time = 0;
        int ret = fs_reader_read_audio(h->sound, h->audio_rate, h->audio_channels, h->samples, 4096, &got, &time);
        if (ret == FS_EOF) { h->audio_eof = 1; break; }
        if (ret < 0) return ret;
        if ((ret = fs_aac_write(&h->aac, h->samples, got, share_audio, h)) < 0) return ret;
        h->audio_time = time + (double)got / h->audio_rate;
    }
    return 0;
}

/* The first error a rung hit (its detail into `detail`), or 0. */
static int rung_error(fs_hls *h, char *detail, size_t len) {
    for (int i = 0; i <= h->nrungs; i++) {
        rung *r = fs_hls_muxer(h, i);
        if (r->error) {
            if (detail && len) {
                if (r == &h->audio) snprintf(detail, len, "audio rendition: %s", r->detail);
                else snprintf(detail, len, "rung %dx%d: %s", r->width, r->height, r->detail);
            }
            return r->error;
        }
    }
    return 0;
}

int fs_hls_step(fs_hls *h, double *seconds) {
    if (!h || h->finished) return FS_ERR_ARGUMENT;
    for (;;) {
        fs_picture *picture = NULL;
        int ret = fs_reader_next_picture(h->video, &picture);
        if (ret < 0) return ret;
        double time = picture->time;
        int64_t pts = llrint(time * video_tb.den);
        if (pts <= h->last_pts) { fs_picture_free(&picture); continue; } /* a repeated timestamp */
        h->last_pts = pts;
        int key = time >= h->next_key - 1e-6;
        if (key) while (h->next_key <= time + 1e-6) h->next_key += h->gop;
        for (int i = 0; i < h->nrungs && ret >= 0; i++) {
            if (h->rungs[i].feeder) continue;
            job j = {.picture = av_frame_clone(picture->frame), .time = time, .key = key};
            ret = j.picture ? fs_hls_push(h, &h->rungs[i], j) : AVERROR(ENOMEM);
        }
        fs_picture_free(&picture);
        if (ret >= 0) ret = audio_until(h, time + 0.5);
        if (seconds) *seconds = time;
        return ret;
    }
}

static void stop_rungs(fs_hls *h, int abort) {
    if (!h->lock_ready) return;
    pthread_mutex_lock(&h->lock);
    if (abort) h->aborting = 1; else h->stopping = 1;
    pthread_cond_broadcast(&h->changed);
    pthread_mutex_unlock(&h->lock);
    for (int i = 0; i <= h->nrungs; i++) {
        rung *r = fs_hls_muxer(h, i);
        if (r->started) pthread_join(r->thread, NULL);
        r->started = 0;
    }
}

int fs_hls_finish(fs_hls *h, char *detail, size_t len) {
    if (detail && len) detail[0] = '\0';
    if (!h || h->finished) return FS_ERR_ARGUMENT;
    h->finished = 1;
    int ret = audio_until(h, INFINITY);
    if (ret >= 0 && h->aac.enc) ret = fs_aac_finish(&h->aac, share_audio, h);
    if (ret < 0) { stop_rungs(h, 1); int bad = rung_error(h, detail, len); if (!bad) fs_detail(detail, len, "audio", ret); return bad ? bad : ret; }
    stop_rungs(h, 0);
    return rung_error(h, detail, len);
}

int fs_hls_codecs(const fs_hls *h, int index, char *buf, size_t len) {
    if (!h || index < 0 || index >= h->nrungs || !buf || !len) return FS_ERR_ARGUMENT;
    snprintf(buf, len, "%s", h->rungs[index].codecs);
    return 0;
}

int fs_hls_pictures(const fs_hls *h, int index) {
    if (!h || index < 0 || index >= h->nrungs || h->rungs[index].started) return FS_ERR_ARGUMENT;
    return h->rungs[index].pictures;
}

void fs_hls_free(fs_hls **hls) {
    if (!hls || !*hls) return;
    fs_hls *h = *hls;
    stop_rungs(h, 1);
    for (int i = 0; i <= MAX_RUNGS; i++) {
        rung *r = i < MAX_RUNGS ? &h->rungs[i] : &h->audio;
        for (; r->count > 0; r->count--, r->head = (r->head + 1) % (QUEUE + AUDIO_QUEUE)) fs_hls_job_free(&r->queue[r->head]);
        avcodec_free_context(&r->enc);
        av_frame_free(&r->scaled);
        av_packet_free(&r->pkt);
        fs_scaler_free(&r->scaler);
        /* A stopped or failed rung: the trailer closes the segment and init buffers the hls
         * muxer holds open (freeing the context alone leaks them); the files are the caller's
         * to remove. */
        if (r->header_written && !r->trailer_written) av_write_trailer(r->oc);
        if (r->oc) avformat_free_context(r->oc);
    }
    if (h->lock_ready) { pthread_cond_destroy(&h->changed); pthread_mutex_destroy(&h->lock); }
    fs_aac_free(&h->aac);
    av_freep(&h->samples);
    fs_reader_free(&h->video);
    fs_reader_free(&h->sound);
    av_freep(hls);
}
