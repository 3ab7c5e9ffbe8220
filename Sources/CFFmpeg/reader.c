#include "reader.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Real media containers only: never hls, dash, concat, subfile, image2 sequences or playlists. */
static const char *const allowed_demuxers =
    "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts,mpeg,flv,ogg,h264,hevc,m4v,ivf,nut";

int fs_reader_next_packet(fs_reader *r, AVPacket *pkt) {
    if (r->qpos < r->nqueued) {
        av_packet_move_ref(pkt, r->queued[r->qpos]);
        av_packet_free(&r->queued[r->qpos]);
        r->qpos++;
        return 0;
    }
    if (r->demux_eof) return AVERROR_EOF;
    int ret = av_read_frame(r->fmt, pkt);
    if (ret == AVERROR_EOF) r->demux_eof = 1;
    return ret;
}

void fs_reader_drop_queue(fs_reader *r) {
    for (int i = r->qpos; i < r->nqueued; i++) av_packet_free(&r->queued[i]);
    r->nqueued = r->qpos = 0;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The rate the camera meant: the mean of the frame intervals near the median one, among the first
 * `n` sorted timestamps. Dropped frames (long gaps) and bursts (short ones) do not move it, and
 * millisecond time bases (33/34 ms for 29.97) average out. 0 when there are too few. */
static double nominal_rate(int64_t *pts, int n, AVRational time_base) {
    int64_t d[SCAN_VIDEO_PACKETS];
    int nd = 0;
    for (int i = 1; i < n; i++) if (pts[i] > pts[i - 1]) d[nd++] = pts[i] - pts[i - 1];
    if (nd < 2 || time_base.num <= 0 || time_base.den <= 0) return 0;
    qsort(d, nd, sizeof d[0], cmp_i64);
    double median = (double)d[nd / 2], sum = 0;
    int used = 0;
    for (int i = 0; i < nd; i++) {
        if (d[i] >= 0.75 * median && d[i] <= 1.25 * median) { sum += (double)d[i]; used++; }
    }
    double seconds = sum / used * av_q2d(time_base);
    double rate = seconds > 0 ? 1 / seconds : 0;
    return rate > 1000 ? 0 : rate;
}

/* Reads the first packets, keeping those of the decoded streams for replay, and decides from the
 * spread of the video timestamps whether the frame rate varies. */
static int scan_frame_rate(fs_reader *r) {
    int64_t pts[SCAN_VIDEO_PACKETS];
    int npts = 0, reads = 0;
    AVPacket *pkt = r->pkt;
    while (npts < SCAN_VIDEO_PACKETS && reads < MAX_QUEUED && r->nqueued < MAX_QUEUED) {
        int ret = av_read_frame(r->fmt, pkt);
        if (ret == AVERROR_EOF) { r->demux_eof = 1; break; }
        if (ret < 0) return ret;
        reads++;
        if (pkt->stream_index == r->vindex && pkt->pts != AV_NOPTS_VALUE) pts[npts++] = pkt->pts;
        int keep = (pkt->stream_index == r->vindex && (r->vdec || r->packets)) ||
                   (pkt->stream_index == r->aindex && (r->adec || r->packets));
        if (keep) {
            r->queued[r->nqueued] = av_packet_alloc();
            if (!r->queued[r->nqueued]) { av_packet_unref(pkt); return AVERROR(ENOMEM); }
            av_packet_move_ref(r->queued[r->nqueued++], pkt);
        } else {
            av_packet_unref(pkt);
        }
    }
    /* Reordered (B-frame) timestamps may leave the last few out of the sorted run: ignore them. */
    int usable = npts - 4;
    if (usable < 3) { r->info.nominal_fps = r->info.fps; return 0; }
    qsort(pts, npts, sizeof pts[0], cmp_i64);
    int64_t lo = INT64_MAX, hi = 0;
    for (int i = 1; i < usable; i++) {
        int64_t d = pts[i] - pts[i - 1];
        if (d <= 0) continue;
        if (d < lo) lo = d;
        if (d > hi) hi = d;
    }
    if (lo != INT64_MAX && hi - lo > 2 && (double)(hi - lo) > 0.1 * (double)lo) r->info.variable_frame_rate = 1;
    r->info.nominal_fps = nominal_rate(pts, usable, r->fmt->streams[r->vindex]->time_base);
    if (r->info.nominal_fps <= 0) r->info.nominal_fps = r->info.fps;
    return 0;
}

/* An index entry past the end of the file means the file was cut short. */
static int check_truncated(fs_reader *r) {
    int64_t size = avio_size(r->pb);
    if (size <= 0) return 0;
    for (unsigned s = 0; s < r->fmt->nb_streams; s++) {
        AVStream *st = r->fmt->streams[s];
        int n = avformat_index_get_entries_count(st);
        for (int i = 0; i < n; i++) {
            const AVIndexEntry *e = avformat_index_get_entry(st, i);
            if (e && e->pos + e->size > size) return FS_ERR_TRUNCATED;
        }
    }
    return 0;
}

static void fill_info(fs_reader *r) {
    fs_media_info *info = &r->info;
    AVFormatContext *fmt = r->fmt;
    const char *name = fmt->iformat->name;
    if (!strncmp(name, "mov,", 4)) {
        AVDictionaryEntry *brand = av_dict_get(fmt->metadata, "major_brand", NULL, 0);
        snprintf(info->container, sizeof info->container, "%s", brand && !strncmp(brand->value, "qt", 2) ? "mov" : "mp4");
    } else {
        size_t n = strcspn(name, ",");
        snprintf(info->container, sizeof info->container, "%.*s", (int)n, name);
    }
    info->bytes = avio_size(r->pb);
    AVStream *vs = fmt->streams[r->vindex];
    info->duration = fmt->duration != AV_NOPTS_VALUE ? fmt->duration / (double)AV_TIME_BASE
                   : vs->duration != AV_NOPTS_VALUE ? vs->duration * av_q2d(vs->time_base) : 0;
    snprintf(info->video_codec, sizeof info->video_codec, "%s", avcodec_get_name(vs->codecpar->codec_id));
    info->coded_width = vs->codecpar->width;
    info->coded_height = vs->codecpar->height;
    const int32_t *matrix = (const int32_t *)av_stream_get_side_data(vs, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (matrix) {
        double theta = -round(av_display_rotation_get(matrix));
        if (!isnan(theta)) {
            theta -= 360 * floor(theta / 360 + 0.9 / 360);
            int rot = ((int)lround(theta / 90.0) * 90) % 360;
            info->rotation = rot < 0 ? rot + 360 : rot;
        }
    }
    AVRational rate = vs->avg_frame_rate.num > 0 ? vs->avg_frame_rate : vs->r_frame_rate;
    info->fps = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 0;
    /* A raw elementary stream without timing reports its time base (90000) as r_frame_rate; no
     * camera films at over 1000 fps, so such a figure means "unknown". */
    if (info->fps > 1000) info->fps = 0;
    if (r->aindex >= 0) {
        AVCodecParameters *a = fmt->streams[r->aindex]->codecpar;
        snprintf(info->audio_codec, sizeof info->audio_codec, "%s", avcodec_get_name(a->codec_id));
        info->audio_sample_rate = a->sample_rate;
        info->audio_channels = a->ch_layout.nb_channels;
    }
}

static int open_decoder(fs_reader *r, int index, int threads, AVCodecContext **out) {
    AVCodecParameters *par = r->fmt->streams[index]->codecpar;
    const AVCodec *codec = avcodec_find_decoder(par->codec_id);
    if (!codec) return AVERROR_DECODER_NOT_FOUND;
    AVCodecContext *dec = avcodec_alloc_context3(codec);
    if (!dec) return AVERROR(ENOMEM);
    int ret = avcodec_parameters_to_context(dec, par);
    if (ret >= 0) {
        dec->thread_count = threads;
        dec->max_pixels = FS_MAX_PIXELS;
        dec->pkt_timebase = r->fmt->streams[index]->time_base;
        ret = avcodec_open2(dec, codec, NULL);
    }
    if (ret < 0) { avcodec_free_context(&dec); return ret; }
    *out = dec;
    return 0;
}

/* avformat_find_stream_info opens decoders of its own and decodes the first pictures to learn the
 * stream parameters. Giving them the pixel limit makes them refuse an oversized declared picture
 * before allocating it: without it a declared 16384x16000 costs ~800 MB before the shim refuses it. */
static int find_stream_info(AVFormatContext *fmt) {
    unsigned n = fmt->nb_streams;
    AVDictionary **opts = n ? av_calloc(n, sizeof *opts) : NULL;
    if (n && !opts) return AVERROR(ENOMEM);
    for (unsigned i = 0; i < n; i++) av_dict_set_int(&opts[i], "max_pixels", FS_MAX_PIXELS, 0);
    int ret = avformat_find_stream_info(fmt, opts);
    for (unsigned i = 0; i < n; i++) av_dict_free(&opts[i]);
    av_free(opts);
    return ret;
}

static int reader_open(fs_reader *r, const char *path, const fs_reader_options *opts, char *detail, size_t len) {
    int network = strstr(path, "://") != NULL;
    if (network && !(opts->allow_network && (!strncmp(path, "http://", 7) || !strncmp(path, "https://", 8)))) {
        if (detail) snprintf(detail, len, "%s", opts->allow_network ? "only http and https URLs are allowed" : "URLs are not allowed here");
        return FS_ERR_REFUSED;
    }
    const char *protocols = network ? "http,https,tcp,tls" : "file";
    char *url = network ? av_strdup(path) : av_asprintf("file:%s", path);
    if (!url) return AVERROR(ENOMEM);
    AVDictionary *io_opts = NULL;
    av_dict_set(&io_opts, "protocol_whitelist", protocols, 0);
    /* A server that accepts and then says nothing must not hold a reader for ever: every read
     * and the connect give up after FS_NETWORK_TIMEOUT_US (FFmpeg's default is to wait). */
    if (network) {
        av_dict_set_int(&io_opts, "rw_timeout", FS_NETWORK_TIMEOUT_US, 0);
        av_dict_set_int(&io_opts, "timeout", FS_NETWORK_TIMEOUT_US, 0);
    }
    int ret = avio_open2(&r->pb, url, AVIO_FLAG_READ, NULL, &io_opts);
    av_dict_free(&io_opts);
    if (ret < 0) { av_free(url); fs_detail(detail, len, NULL, ret); return ret; }

    const AVInputFormat *ifmt = NULL;
    ret = av_probe_input_buffer2(r->pb, &ifmt, url, NULL, 0, 0);
    if (ret < 0) { av_free(url); fs_detail(detail, len, NULL, ret); return ret; }
    if (av_match_list(ifmt->name, allowed_demuxers, ',') <= 0) {
        av_free(url);
        size_t n = strlen(ifmt->name);
        int image = !strcmp(ifmt->name, "image2") || (n > 5 && !strcmp(ifmt->name + n - 5, "_pipe"));
        if (detail && image) snprintf(detail, len, "an image (%s), not a video", ifmt->name);
        else if (detail) snprintf(detail, len, "%s input (%s) is not allowed", ifmt->name, ifmt->long_name ? ifmt->long_name : "?");
        return FS_ERR_REFUSED;
    }
    r->fmt = avformat_alloc_context();
    if (!r->fmt) { av_free(url); return AVERROR(ENOMEM); }
    r->fmt->pb = r->pb;
    r->fmt->flags |= AVFMT_FLAG_CUSTOM_IO;
    AVDictionary *fmt_opts = NULL;
    av_dict_set(&fmt_opts, "protocol_whitelist", protocols, 0);
    av_dict_set(&fmt_opts, "format_whitelist", allowed_demuxers, 0);
    ret = avformat_open_input(&r->fmt, url, ifmt, &fmt_opts);
    av_dict_free(&fmt_opts);
    av_free(url);
    if (ret < 0) { fs_detail(detail, len, NULL, ret); return ret; }
    if ((ret = find_stream_info(r->fmt)) < 0) { fs_detail(detail, len, NULL, ret); return ret; }

    r->vindex = av_find_best_stream(r->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (r->vindex < 0) { r->vindex = -1; fs_detail(detail, len, NULL, FS_ERR_NO_VIDEO); return FS_ERR_NO_VIDEO; }
    r->aindex = av_find_best_stream(r->fmt, AVMEDIA_TYPE_AUDIO, -1, r->vindex, NULL, 0);
    if (r->aindex < 0) r->aindex = -1;
    AVCodecParameters *vpar = r->fmt->streams[r->vindex]->codecpar;
    if (!fs_size_ok(vpar->width, vpar->height)) {
        fs_detail(detail, len, NULL, FS_ERR_TOO_LARGE);
        if (detail && vpar->width > 0) snprintf(detail, len, "picture %dx%d is over the %dx%d / %lld pixel limit", vpar->width, vpar->height, FS_MAX_SIDE, FS_MAX_SIDE, FS_MAX_PIXELS);
        return FS_ERR_TOO_LARGE;
    }
    if ((ret = check_truncated(r)) < 0) { fs_detail(detail, len, NULL, ret); return ret; }
    r->start = r->fmt->start_time != AV_NOPTS_VALUE ? r->fmt->start_time / (double)AV_TIME_BASE : 0;
    fill_info(r);
    if (opts->decode_video && (ret = open_decoder(r, r->vindex, opts->threads, &r->vdec)) < 0) {
        fs_detail(detail, len, "cannot decode video", ret); return ret;
    }
    if (opts->decode_audio && r->aindex >= 0 && (ret = open_decoder(r, r->aindex, 1, &r->adec)) < 0) {
        fs_detail(detail, len, "cannot decode audio", ret); return ret;
    }
    r->packets = opts->packets != 0;
    r->pkt = av_packet_alloc();
    r->frame = av_frame_alloc();
    if (!r->pkt || !r->frame) return AVERROR(ENOMEM);
    if ((ret = scan_frame_rate(r)) < 0) {
        /* A probe of a URL whose server ignores Range (python -m http.server) has the headers but
         * cannot seek back to the first packet after reading an index at the end: report what
         * the headers say, as ffprobe does, rather than fail. A reader that decodes must read. */
        if (!(network && !opts->decode_video && !opts->decode_audio)) { fs_detail(detail, len, "cannot read", ret); return ret; }
        r->info.nominal_fps = r->info.fps;
    }
    return 0;
}

int fs_reader_open(const char *path, const fs_reader_options *opts, fs_reader **out, char *detail, size_t detail_len) {
    if (detail && detail_len) detail[0] = '\0';
    if (!path || !opts || !out) return FS_ERR_ARGUMENT;
    *out = NULL;
    int loaded = fs_init();
    if (loaded < 0) { fs_detail(detail, detail_len, NULL, loaded); return loaded; }
    fs_reader *r = av_mallocz(sizeof *r);
    if (!r) return AVERROR(ENOMEM);
    r->vindex = r->aindex = -1;
    r->seek_target = -1;
    int ret = reader_open(r, path, opts, detail, detail_len);
    if (ret < 0) { fs_reader_free(&r); return ret; }
    *out = r;
    return 0;
}

void fs_reader_free(fs_reader **reader) {
    if (!reader || !*reader) return;
    fs_reader *r = *reader;
    fs_reader_drop_queue(r);
    avcodec_free_context(&r->vdec);
    avcodec_free_context(&r->adec);
    av_packet_free(&r->pkt);
    av_frame_free(&r->frame);
    swr_free(&r->swr);
    if (r->fifo) av_audio_fifo_free(r->fifo);
    av_freep(&r->audio_scratch);
    avformat_close_input(&r->fmt);
    avio_closep(&r->pb);
    av_freep(reader);
}

int fs_reader_info(const fs_reader *reader, fs_media_info *out) {
    if (!reader || !out) return FS_ERR_ARGUMENT;
    *out = reader->info;
    return 0;
}
