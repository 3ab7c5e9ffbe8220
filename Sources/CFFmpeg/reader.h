#ifndef FS_READER_H
#define FS_READER_H
/* The reader's state, shared by reader.c (open, info) and reader_decode.c (frames, audio, seek). */
#include "internal.h"

enum { SCAN_VIDEO_PACKETS = 64, MAX_QUEUED = 256 };

struct fs_reader {
    AVFormatContext *fmt;
    AVIOContext *pb; /* ours: opened before probing so the probe result can be checked */
    AVCodecContext *vdec, *adec;
    int vindex, aindex;
    AVPacket *pkt;
    AVFrame *frame;
    AVPacket *queued[MAX_QUEUED]; /* packets read at open while looking for variable frame rate */
    int nqueued, qpos;
    int demux_eof, video_flushed, audio_flushed;
    int packets;        /* opened for fs_reader_read_packet: the scan at open keeps both streams' packets */
    double start;       /* container start time, seconds */
    double seek_target; /* frames ending before this are skipped after a seek; -1 = none */
    double last_time;
    fs_media_info info;
    SwrContext *swr;
    int swr_rate, swr_channels, audio_eof, audio_started;
    /* What the resampler was set up to read: a decoded frame that differs needs a new one. */
    int swr_in_format, swr_in_rate, swr_in_channels;
    AVAudioFifo *fifo;
    uint8_t *audio_scratch;
    int audio_scratch_samples;
    double audio_start;
    int64_t audio_out;
};

/** The next packet: first those queued at open, then from the demuxer. */
int fs_reader_next_packet(fs_reader *r, AVPacket *pkt);
/** Frees the packets queued at open that were not consumed. */
void fs_reader_drop_queue(fs_reader *r);

#endif
