/* An HLS ladder in one pass: one decode, each rung scaled from the decoded picture and encoded
 * and muxed (FFmpeg's hls muxer, fMP4 segments) on a thread of its own; key frames forced at the
 * same timestamps in every rung so segments align; the audio encoded once and its packets muxed
 * into every rung. The main thread decodes and hands each picture to the rungs through small
 * queues (a full queue waits: memory stays a few pictures per rung). */
#include "internal.h"
#include "aac.h"
#include "reader.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { QUEUE = 2, AUDIO_QUEUE = 64, MAX_RUNGS = 8 };
static const AVRational video_tb = {1, 90000};

/* One thing for a rung to do: scale and encode a picture (a reference shared by all rungs), or
 * mux an audio packet. */
typedef struct job {
    AVFrame *picture;
    AVPacket *audio;
    double time;
    int key;
} job;

typedef struct rung {
    struct fs_hls *owner;
    int width, height;
    AVFormatContext *oc;
    AVCodecContext *enc;
    AVStream *vst, *ast;
    AVFrame *scaled;
    AVPacket *pkt;
    fs_scaler *scaler;
    pthread_t thread;
    int started;
    job queue[QUEUE + AUDIO_QUEUE];
    int head, count, pictures;
    int header_written, trailer_written; /* the muxer's segment files are closed only by the trailer */
    int error; /* first failure on this rung's thread */
    char detail[256];
    char codecs[64];
} rung;

struct fs_hls {
    fs_reader *video, *sound;
    int rotation, nrungs;
    rung rungs[MAX_RUNGS];
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int lock_ready;
    int stopping; /* no more jobs: rungs drain their queues and stop */
    int aborting; /* stop now: queued jobs are dropped, no trailer */
    fs_aac aac;
    int audio_rate, audio_channels, audio_eof;
    float *samples;
    double audio_time, gop, next_key;
    int64_t last_pts;
    int finished;
};

static void job_free(job *j) {
    av_frame_free(&j->picture);
    av_packet_free(&j->audio);
}

/* ------------------------------------------------------------------ rung threads */

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

static int run_job(rung *r, job *j) {
    int ret;
    if (j->audio) {
        av_packet_rescale_ts(j->audio, r->owner->aac.enc->time_base, r->ast->time_base);
        j->audio->stream_index = r->ast->index;
        return av_interleaved_write_frame(r->oc, j->audio); /* takes the packet's reference */
    }
    AVFrame *in = j->picture;
    if (in->width == r->width && in->height == r->height && in->format == AV_PIX_FMT_YUV420P && r->owner->rotation == 0) {
        /* The source's own size: encode the decoded picture itself, no conversion. */
        in->pts = llrint(j->time * video_tb.den);
        in->pict_type = j->key ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
        in->key_frame = 0;
        in->sample_aspect_ratio = (AVRational){1, 1};
        if ((ret = avcodec_send_frame(r->enc, in)) < 0) return ret;
        r->pictures++;
        return mux_video(r);
    }
    if ((ret = av_frame_make_writable(r->scaled)) < 0) return ret;
    fs_picture picture = {.frame = j->picture, .time = j->time};
    ret = fs_scaler_convert(r->scaler, &picture, NULL, r->owner->rotation, r->width, r->height, FS_PIX_YUV420P,
                            r->scaled->data, r->scaled->linesize);
    if (ret < 0) return ret;
    r->scaled->pts = llrint(j->time * video_tb.den);
    r->scaled->pict_type = j->key ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
    if ((ret = avcodec_send_frame(r->enc, r->scaled)) < 0) return ret;
    r->pictures++;
    return mux_video(r);
}

static void *rung_main(void *arg) {
    rung *r = arg;
    fs_hls *h = r->owner;
    for (;;) {
        pthread_mutex_lock(&h->lock);
        while (r->count == 0 && !h->stopping && !h->aborting) pthread_cond_wait(&h->changed, &h->lock);
        if (h->aborting || (r->count == 0 && h->stopping)) { pthread_mutex_unlock(&h->lock); break; }
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
        job_free(&j);
    }
    if (!h->aborting && !r->error) {
        int ret = avcodec_send_frame(r->enc, NULL);
        if (ret >= 0) ret = mux_video(r);
        if (ret >= 0) { ret = av_write_trailer(r->oc); r->trailer_written = 1; }
        if (ret < 0) { fs_detail(r->detail, sizeof r->detail, "finishing", ret); r->error = ret; }
    }
    return NULL;
}

/* Queues a job for rung `r`, waiting while its queue is full; takes ownership of the job. */
static int push(fs_hls *h, rung *r, job j) {
    int capacity = j.picture ? QUEUE : QUEUE + AUDIO_QUEUE;
    pthread_mutex_lock(&h->lock);
    while (r->count >= capacity && !r->error) pthread_cond_wait(&h->changed, &h->lock);
    int error = r->error;
    if (!error) {
        r->queue[(r->head + r->count) % (QUEUE + AUDIO_QUEUE)] = j;
        r->count++;
        pthread_cond_broadcast(&h->changed);
    }
    pthread_mutex_unlock(&h->lock);
    if (error) job_free(&j);
    return error;
}

/* ------------------------------------------------------------------ codecs string (RFC 6381) */

/* The first NAL unit of `type` in Annex B `data`, emulation-prevention bytes removed, into `out`. */
static int find_nal(const uint8_t *data, int size, int hevc, int type, uint8_t *out, int cap) {
    for (int i = 0; i + 3 < size; i++) {
        if (!(data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1)) continue;
        int start = i + 3;
        int nal = hevc ? (data[start] >> 1) & 0x3F : data[start] & 0x1F;
        if (nal != type) continue;
        int n = 0, zeros = 0;
        for (int k = start; k < size && n < cap; k++) {
            if (zeros >= 2 && data[k] == 3) { zeros = 0; continue; }
            if (zeros >= 2 && data[k] <= 1) break; /* next start code */
            zeros = data[k] == 0 ? zeros + 1 : 0;
            out[n++] = data[k];
        }
        return n;
    }
    return 0;
}

static void codecs_string(rung *r, int hevc) {
    uint8_t sps[64];
    const uint8_t *x = r->enc->extradata;
    int size = r->enc->extradata_size;
    if (!hevc) {
        int n = find_nal(x, size, 0, 7, sps, sizeof sps);
        if (n >= 4) snprintf(r->codecs, sizeof r->codecs, "avc1.%02x%02x%02x", sps[1], sps[2], sps[3]);
        else snprintf(r->codecs, sizeof r->codecs, "avc1");
        return;
    }
    /* SPS: 2-byte NAL header, 1 byte of ids, then profile_tier_level: space/tier/profile, 32
     * compatibility flags, 48 constraint bits, level. */
    int n = find_nal(x, size, 1, 33, sps, sizeof sps);
    if (n < 15) { snprintf(r->codecs, sizeof r->codecs, "hvc1"); return; }
    const uint8_t *p = sps + 3;
    int space = p[0] >> 6, tier = (p[0] >> 5) & 1, profile = p[0] & 0x1F;
    uint32_t flags = (uint32_t)p[1] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 8 | p[4], reversed = 0;
    for (int b = 0; b < 32; b++) if (flags & (1u << b)) reversed |= 1u << (31 - b);
    int len = snprintf(r->codecs, sizeof r->codecs, "hvc1.%s%d.%X.%c%d", space ? (const char *[]){"", "A", "B", "C"}[space] : "",
                       profile, reversed, tier ? 'H' : 'L', p[11]);
    int last = 5; /* trailing zero constraint bytes are left out */
    for (int b = 5; b < 11; b++) if (p[b]) last = b + 1;
    for (int b = 5; b < last && len < (int)sizeof r->codecs - 4; b++) len += snprintf(r->codecs + len, sizeof r->codecs - len, ".%02X", p[b]);
}

/* ------------------------------------------------------------------ open */

static int open_rung(fs_hls *h, rung *r, const fs_hls_rung *spec, const fs_hls_options *o, double fps) {
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
    codecs_string(r, hevc);
    if (h->aac.enc) {
        if (!(r->ast = avformat_new_stream(r->oc, NULL))) { av_free(segments); return AVERROR(ENOMEM); }
        if ((ret = avcodec_parameters_from_context(r->ast->codecpar, h->aac.enc)) < 0) { av_free(segments); return ret; }
        r->ast->time_base = h->aac.enc->time_base;
    }
    if (!(r->scaled = av_frame_alloc()) || !(r->pkt = av_packet_alloc())) { av_free(segments); return AVERROR(ENOMEM); }
    r->scaled->width = r->width;
    r->scaled->height = r->height;
    r->scaled->format = AV_PIX_FMT_YUV420P;
    if ((ret = av_frame_get_buffer(r->scaled, 0)) < 0) { av_free(segments); return ret; }
    if ((ret = fs_scaler_alloc(&r->scaler)) < 0) { av_free(segments); return ret; }
    fs_scaler_set_bicubic(r->scaler);

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

static int hls_open(fs_hls *h, const char *input, const fs_hls_options *o, char *detail, size_t len) {
    int ret;
    fs_reader_options ro = {.decode_video = 1};
    if ((ret = fs_reader_open(input, &ro, &h->video, detail, len)) < 0) return ret;
    fs_media_info info;
    fs_reader_info(h->video, &info);
    h->rotation = info.rotation;
    double fps = info.fps > 0 && info.fps < 1000 ? info.fps : 30;
    if (o->audio && info.audio_codec[0]) {
        fs_reader_options ao = {.decode_audio = 1};
        if ((ret = fs_reader_open(input, &ao, &h->sound, detail, len)) < 0) return ret;
        h->audio_rate = info.audio_sample_rate == 44100 ? 44100 : 48000;
        h->audio_channels = info.audio_channels >= 2 ? 2 : 1;
        if ((ret = fs_aac_open(&h->aac, h->audio_rate, h->audio_channels, 1)) < 0) { fs_detail(detail, len, "audio encoder", ret); return ret; }
        if (!(h->samples = av_malloc(sizeof(float) * 2 * 4096))) return AVERROR(ENOMEM);
    }
    for (int i = 0; i < o->rung_count; i++) {
        if ((ret = open_rung(h, &h->rungs[i], &o->rungs[i], o, fps)) < 0) {
            char what[64];
            snprintf(what, sizeof what, "rung %dx%d", o->rungs[i].width, o->rungs[i].height);
            fs_detail(detail, len, what, ret);
            return ret;
        }
        h->nrungs = i + 1;
    }
    if ((ret = pthread_mutex_init(&h->lock, NULL)) != 0) return AVERROR(ret);
    if ((ret = pthread_cond_init(&h->changed, NULL)) != 0) { pthread_mutex_destroy(&h->lock); return AVERROR(ret); }
    h->lock_ready = 1;
    for (int i = 0; i < h->nrungs; i++) {
        if ((ret = pthread_create(&h->rungs[i].thread, NULL, rung_main, &h->rungs[i])) != 0) return AVERROR(ret);
        h->rungs[i].started = 1;
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

/* fs_aac_sink: an audio packet for every rung. */
static int share_audio(void *context, AVPacket *pkt) {
    fs_hls *h = context;
    for (int i = 0; i < h->nrungs; i++) {
        job j = {.audio = av_packet_clone(pkt)};
        if (!j.audio) return AVERROR(ENOMEM);
        int ret = push(h, &h->rungs[i], j);
        if (ret < 0) return ret;
    }
    return 0;
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
    for (int i = 0; i < h->nrungs; i++) {
        if (h->rungs[i].error) {
            if (detail && len) snprintf(detail, len, "rung %dx%d: %s", h->rungs[i].width, h->rungs[i].height, h->rungs[i].detail);
            return h->rungs[i].error;
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
            job j = {.picture = av_frame_clone(picture->frame), .time = time, .key = key};
            ret = j.picture ? push(h, &h->rungs[i], j) : AVERROR(ENOMEM);
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
    for (int i = 0; i < h->nrungs; i++) {
        if (h->rungs[i].started) pthread_join(h->rungs[i].thread, NULL);
        h->rungs[i].started = 0;
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
    for (int i = 0; i < MAX_RUNGS; i++) {
        rung *r = &h->rungs[i];
        for (; r->count > 0; r->count--, r->head = (r->head + 1) % (QUEUE + AUDIO_QUEUE)) job_free(&r->queue[r->head]);
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
