#include "reader.h"
#include <stdlib.h>

int fs_reader_next_picture(fs_reader *r, fs_picture **out) {
    if (!r || !out) return FS_ERR_ARGUMENT;
    *out = NULL;
    if (!r->vdec) return FS_ERR_ARGUMENT;
    AVStream *st = r->fmt->streams[r->vindex];
    double tb = av_q2d(st->time_base);
    for (;;) {
        int ret = avcodec_receive_frame(r->vdec, r->frame);
        if (ret == 0) {
            AVFrame *f = r->frame;
            if (!fs_size_ok(f->width, f->height)) { av_frame_unref(f); return FS_ERR_TOO_LARGE; }
            double nominal = r->info.fps > 0 ? 1.0 / r->info.fps : 0;
            double duration = f->pkt_duration > 0 ? f->pkt_duration * tb : nominal;
            double time = f->best_effort_timestamp != AV_NOPTS_VALUE ? f->best_effort_timestamp * tb - r->start
                                                                     : r->last_time + duration;
            r->last_time = time;
            if (r->seek_target >= 0) {
                if (time + duration <= r->seek_target + 1e-6) { av_frame_unref(f); continue; }
                r->seek_target = -1;
            }
            fs_picture *p = av_mallocz(sizeof *p);
            if (!p || !(p->frame = av_frame_alloc())) { av_free(p); av_frame_unref(f); return AVERROR(ENOMEM); }
            av_frame_move_ref(p->frame, f);
            p->time = time;
            p->duration = duration;
            *out = p;
            return 0;
        }
        if (ret == AVERROR_EOF) return FS_EOF;
        if (ret != AVERROR(EAGAIN)) return ret;
        if (r->video_flushed) return FS_EOF;
        ret = fs_reader_next_packet(r, r->pkt);
        if (ret == AVERROR_EOF) {
            r->video_flushed = 1;
            if ((ret = avcodec_send_packet(r->vdec, NULL)) < 0) return ret;
            continue;
        }
        if (ret < 0) return ret;
        if (r->pkt->stream_index != r->vindex) { av_packet_unref(r->pkt); continue; }
        ret = avcodec_send_packet(r->vdec, r->pkt);
        av_packet_unref(r->pkt);
        if (ret < 0 && ret != AVERROR(EAGAIN)) return ret;
    }
}

static int setup_resampler(fs_reader *r, const AVFrame *f, int rate, int channels) {
    AVChannelLayout in = {0}, out = {0};
    int ret;
    if (f->ch_layout.nb_channels > 0 && f->ch_layout.order != AV_CHANNEL_ORDER_UNSPEC)
        ret = av_channel_layout_copy(&in, &f->ch_layout);
    else
        av_channel_layout_default(&in, f->ch_layout.nb_channels > 0 ? f->ch_layout.nb_channels : r->adec->ch_layout.nb_channels), ret = 0;
    if (ret < 0) return ret;
    av_channel_layout_default(&out, channels);
    ret = swr_alloc_set_opts2(&r->swr, &out, AV_SAMPLE_FMT_FLT, rate, &in, f->format, f->sample_rate, 0, NULL);
    av_channel_layout_uninit(&in);
    av_channel_layout_uninit(&out);
    if (ret < 0) return ret;
    if ((ret = swr_init(r->swr)) < 0) return ret;
    r->swr_in_format = f->format;
    r->swr_in_rate = f->sample_rate;
    r->swr_in_channels = f->ch_layout.nb_channels;
    if (!r->fifo && !(r->fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLT, channels, 4096))) return AVERROR(ENOMEM);
    r->swr_rate = rate;
    r->swr_channels = channels;
    return 0;
}

/* Converts `count` input samples (NULL input flushes the resampler) into the FIFO. */
static int resample_into_fifo(fs_reader *r, const uint8_t **data, int count) {
    int room = swr_get_out_samples(r->swr, count);
    if (room < 0) return room;
    if (room == 0) return 0;
    if (room > r->audio_scratch_samples) {
        av_freep(&r->audio_scratch);
        if (av_samples_alloc(&r->audio_scratch, NULL, r->swr_channels, room, AV_SAMPLE_FMT_FLT, 0) < 0) return AVERROR(ENOMEM);
        r->audio_scratch_samples = room;
    }
    int n = swr_convert(r->swr, &r->audio_scratch, room, data, count);
    if (n < 0) return n;
    if (n > 0 && av_audio_fifo_write(r->fifo, (void **)&r->audio_scratch, n) < n) return AVERROR(ENOMEM);
    return 0;
}

int fs_reader_read_audio(fs_reader *r, int rate, int channels, float *dst, int capacity, int *got, double *time) {
    if (!r || !dst || !got || !time || rate <= 0 || channels < 1 || channels > 2 || capacity <= 0) return FS_ERR_ARGUMENT;
    *got = 0;
    if (!r->adec) return r->aindex < 0 ? FS_EOF : FS_ERR_ARGUMENT;
    if (r->swr && (rate != r->swr_rate || channels != r->swr_channels)) return FS_ERR_ARGUMENT;
    AVStream *st = r->fmt->streams[r->aindex];
    int ret;
    while (!r->audio_eof && (!r->fifo || av_audio_fifo_size(r->fifo) < capacity)) {
        ret = avcodec_receive_frame(r->adec, r->frame);
        if (ret == 0) {
            AVFrame *f = r->frame;
            if (!r->swr) {
                if ((ret = setup_resampler(r, f, rate, channels)) < 0) { av_frame_unref(f); return ret; }
                r->audio_start = f->best_effort_timestamp != AV_NOPTS_VALUE ? f->best_effort_timestamp * av_q2d(st->time_base) - r->start : 0;
                r->audio_out = 0;
            } else if (f->format != r->swr_in_format || f->sample_rate != r->swr_in_rate
                       || f->ch_layout.nb_channels != r->swr_in_channels) {
                /* The stream changed its sample format, rate or channels mid-way (two recordings
                 * joined, a broadcast switching to mono): drain the old resampler into the FIFO and
                 * set up one for the new input; the output rate and timeline go on unchanged. */
                if ((ret = resample_into_fifo(r, NULL, 0)) < 0) { av_frame_unref(f); return ret; }
                swr_free(&r->swr);
                if ((ret = setup_resampler(r, f, rate, channels)) < 0) { av_frame_unref(f); return ret; }
            }
            ret = resample_into_fifo(r, (const uint8_t **)f->extended_data, f->nb_samples);
            av_frame_unref(f);
            if (ret < 0) return ret;
            continue;
        }
        if (ret == AVERROR_EOF) {
            if (r->swr && (ret = resample_into_fifo(r, NULL, 0)) < 0) return ret;
            r->audio_eof = 1;
            break;
        }
        if (ret != AVERROR(EAGAIN)) return ret;
        ret = fs_reader_next_packet(r, r->pkt);
        if (ret == AVERROR_EOF) {
            if (r->audio_flushed) { r->audio_eof = 1; break; }
            r->audio_flushed = 1;
            if ((ret = avcodec_send_packet(r->adec, NULL)) < 0) return ret;
            continue;
        }
        if (ret < 0) return ret;
        if (r->pkt->stream_index != r->aindex) { av_packet_unref(r->pkt); continue; }
        ret = avcodec_send_packet(r->adec, r->pkt);
        av_packet_unref(r->pkt);
        if (ret < 0 && ret != AVERROR(EAGAIN)) return ret;
    }
    int n = r->fifo ? av_audio_fifo_size(r->fifo) : 0;
    if (n > capacity) n = capacity;
    if (n == 0) return FS_EOF;
    if (av_audio_fifo_read(r->fifo, (void **)&dst, n) < n) return AVERROR(EIO);
    *time = r->audio_start + (double)r->audio_out / rate;
    r->audio_out += n;
    *got = n;
    return 0;
}

int fs_reader_seek(fs_reader *r, double seconds) {
    if (!r || !(seconds >= 0)) return FS_ERR_ARGUMENT;
    fs_reader_drop_queue(r);
    int64_t ts = (int64_t)((seconds + r->start) * AV_TIME_BASE);
    int ret = avformat_seek_file(r->fmt, -1, INT64_MIN, ts, ts, 0);
    if (ret < 0) return ret;
    if (r->vdec) avcodec_flush_buffers(r->vdec);
    if (r->adec) avcodec_flush_buffers(r->adec);
    r->demux_eof = r->video_flushed = r->audio_flushed = r->audio_eof = 0;
    swr_free(&r->swr);
    if (r->fifo) av_audio_fifo_reset(r->fifo);
    r->seek_target = seconds;
    return 0;
}

int fs_reader_key_frame_before(const fs_reader *r, double seconds, double *time) {
    if (!r || !time || r->vindex < 0 || !(seconds >= 0)) return FS_ERR_ARGUMENT;
    AVStream *st = r->fmt->streams[r->vindex];
    double tb = av_q2d(st->time_base);
    if (!(tb > 0)) return FS_EOF;
    /* Key frames only (no AVSEEK_FLAG_ANY); the entry at or before the time. */
    const AVIndexEntry *e = avformat_index_get_entry_from_timestamp(st, (int64_t)((seconds + r->start) / tb), AVSEEK_FLAG_BACKWARD);
    if (!e) return FS_EOF;
    *time = e->timestamp * tb - r->start;
    return 0;
}

double fs_picture_time(const fs_picture *p) { return p ? p->time : 0; }
double fs_picture_duration(const fs_picture *p) { return p ? p->duration : 0; }
int fs_picture_width(const fs_picture *p) { return p ? p->frame->width : 0; }
int fs_picture_height(const fs_picture *p) { return p ? p->frame->height : 0; }

void fs_picture_free(fs_picture **picture) {
    if (!picture || !*picture) return;
    av_frame_free(&(*picture)->frame);
    av_freep(picture);
}
