#ifndef FS_AAC_H
#define FS_AAC_H
/* An AAC encoder fed interleaved float samples, shared by the writer (one file) and the HLS
 * ladder (one encode, its packets muxed into every rung). */
#include "internal.h"

typedef struct fs_aac {
    AVCodecContext *enc;
    AVAudioFifo *fifo;
    AVFrame *frame;
    AVPacket *pkt;
    float *planar[2]; /* de-interleaving scratch */
    int channels;
    int64_t pts; /* in samples */
} fs_aac;

/** Receives each encoded packet (timestamps in 1/rate); a negative return stops the encode. */
typedef int (*fs_aac_sink)(void *context, AVPacket *packet);

/** Opens an encoder for `rate` Hz and 1 or 2 `channels` at 64 kb/s per channel. */
int fs_aac_open(fs_aac *a, int rate, int channels, int global_header);
/** Encodes every whole frame of `count` more samples (interleaved) and hands the packets to `sink`. */
int fs_aac_write(fs_aac *a, const float *samples, int count, fs_aac_sink sink, void *context);
/** Encodes what is left (a short last frame) and drains the encoder into `sink`. */
int fs_aac_finish(fs_aac *a, fs_aac_sink sink, void *context);
/** Frees what fs_aac_open allocated (safe on a zeroed or half-opened encoder). */
void fs_aac_free(fs_aac *a);

#endif
