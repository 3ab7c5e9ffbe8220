#ifndef FS_HLS_H
#define FS_HLS_H
/* The HLS ladder's state, shared by hls.c (open, decode and dispatch, finish) and hls_rung.c
 * (a rung's encoder, muxer and thread). */
#include "internal.h"
#include "aac.h"
#include <pthread.h>

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
    int rotation;              /* turned upright while scaling: the source's, or 0 when fed by a rung */
    struct rung *feeds[MAX_RUNGS]; /* the rungs scaled from this one's picture */
    int nfeeds;
    struct rung *feeder;       /* the rung whose picture this one scales, or NULL */
    int drained;               /* its thread has run its last job: it queues nothing more */
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
    rung audio; /* the audio rendition: a rung with no encoder, muxing the AAC packets (oc NULL without audio) */
    fs_aac aac;
    int audio_rate, audio_channels, audio_eof;
    float *samples;
    double audio_time, gop, next_key;
    int64_t last_pts;
    int finished;
};

/** Frees what a job holds (its picture reference or audio packet). */
void fs_hls_job_free(job *j);
/** Opens rung `r`'s encoder and hls muxer (header written) as `spec` and `o` say. */
int fs_hls_open_rung(struct fs_hls *h, rung *r, const fs_hls_rung *spec, const fs_hls_options *o, double fps);
/** A rung's thread: runs its queued jobs until told to stop, then drains its encoder and
 *  writes the trailer (unless aborting). */
void *fs_hls_rung_main(void *rung);
/** Opens the audio rendition `r`: an hls muxer in `folder` with one AAC stream, no encoder. */
int fs_hls_open_audio(struct fs_hls *h, rung *r, const char *folder, const fs_hls_options *o);
/** Queues a job for rung `r`, waiting while its queue is full; takes ownership of the job.
 *  The rung's error (and the job freed) if it has failed. */
int fs_hls_push(struct fs_hls *h, rung *r, job j);
/** The RFC 6381 codecs string of an opened H.264 or HEVC encoder, from the SPS in its
 *  extradata ("avc1.64001f", "hvc1.1.6.L93.B0"); just "avc1"/"hvc1" if none is found. */
void fs_codecs_string(const AVCodecContext *enc, int hevc, char *out, size_t len);

/* Muxer `i` of 0...nrungs: the rungs, then the audio rendition (whose `oc` is NULL without audio). */
static inline rung *fs_hls_muxer(struct fs_hls *h, int i) { return i < h->nrungs ? &h->rungs[i] : &h->audio; }

#endif
