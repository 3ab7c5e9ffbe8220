#include "reader.h"
#include <math.h>

/* Packets passed on as they are (feed live publish): the reader's demuxer without its decoders.
 * The packet handed out is the reader's own r->pkt, unreferenced at the next call and at free:
 * the caller copies what it keeps and frees nothing. */

static const AVStream *stream_of(const fs_reader *r, int audio) {
    int index = audio ? r->aindex : r->vindex;
    return index >= 0 ? r->fmt->streams[index] : NULL;
}

int fs_reader_extradata(const fs_reader *reader, int audio, const uint8_t **data, int *size) {
    if (!reader || !data || !size) return FS_ERR_ARGUMENT;
    const AVStream *st = stream_of(reader, audio);
    if (!st) return FS_EOF;
    *data = st->codecpar->extradata;
    *size = st->codecpar->extradata ? st->codecpar->extradata_size : 0;
    return 0;
}

/* `ts` in `st`'s time base as milliseconds from the file's start. */
static int64_t milliseconds(const fs_reader *r, const AVStream *st, int64_t ts) {
    return llround((ts * av_q2d(st->time_base) - r->start) * 1000);
}

int fs_reader_read_packet(fs_reader *reader, fs_packet *out) {
    if (!reader || !out || !reader->pkt) return FS_ERR_ARGUMENT;
    fs_reader *r = reader;
    for (;;) {
        av_packet_unref(r->pkt);
        int ret = fs_reader_next_packet(r, r->pkt);
        if (ret == AVERROR_EOF) return FS_EOF;
        if (ret < 0) return ret;
        int index = r->pkt->stream_index;
        if (index != r->vindex && index != r->aindex) continue;
        const AVStream *st = r->fmt->streams[index];
        int64_t dts = r->pkt->dts != AV_NOPTS_VALUE ? r->pkt->dts : r->pkt->pts;
        int64_t pts = r->pkt->pts != AV_NOPTS_VALUE ? r->pkt->pts : dts;
        if (dts == AV_NOPTS_VALUE || r->pkt->size <= 0) continue; /* nothing to place in time */
        out->audio = index == r->aindex;
        out->key = (r->pkt->flags & AV_PKT_FLAG_KEY) != 0;
        out->dts_ms = milliseconds(r, st, dts);
        out->pts_ms = milliseconds(r, st, pts);
        out->duration_ms = r->pkt->duration > 0 ? llround(r->pkt->duration * av_q2d(st->time_base) * 1000) : 0;
        out->data = r->pkt->data;
        out->size = r->pkt->size;
        return 0;
    }
}
