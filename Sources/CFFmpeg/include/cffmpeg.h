#ifndef CFFMPEG_H
#define CFFMPEG_H
/* feed's narrow C API over FFmpeg. No FFmpeg type appears in this header.
 *
 * Conventions: every function returns 0 or a negative error code (an AVERROR or one of the
 * FS_ERR_* codes below); fs_strerror turns a code into text. FFmpeg's libraries are not linked:
 * they are loaded with dlopen on the first call that creates a handle (or fs_version), so a
 * program that never touches media never loads them. Every handle has one *_open or
 * *_alloc and one *_free, which takes the address of the handle and sets it to NULL. */

#include <stddef.h>
#include <stdint.h>

/** End of stream (FFmpeg's AVERROR_EOF). */
#define FS_EOF (-541478725)
/** The input's container or protocol is not allowed (playlist, concat script, URL ...). */
#define FS_ERR_REFUSED (-100001)
/** The input has no video stream. */
#define FS_ERR_NO_VIDEO (-100002)
/** A picture is larger than the pixel limit (16384 per side, 100 million pixels). */
#define FS_ERR_TOO_LARGE (-100003)
/** The file ends before the data its index promises. */
#define FS_ERR_TRUNCATED (-100004)
/** A caller error: bad size, format, timestamp or call order. */
#define FS_ERR_ARGUMENT (-100005)
/** The FFmpeg libraries (loaded at first use) or one of their functions cannot be loaded;
 *  fs_strerror names the library and gives dlerror()'s reason. */
#define FS_ERR_UNAVAILABLE (-100006)
/** The input does not exist (ENOENT). */
#define FS_ERR_NOENT (-2)

/** Pixel formats the caller's planes can be in. */
enum fs_pixel_format { FS_PIX_RGB24 = 0, FS_PIX_YUV420P = 1 };

/** Largest side and area a picture may have; larger inputs are refused before allocation. */
#define FS_MAX_SIDE 16384
#define FS_MAX_PIXELS 100000000LL

/** How long a network read (or connect) may wait for a byte before the reader gives up, in µs. */
#define FS_NETWORK_TIMEOUT_US 30000000LL

/** Writes the text for `code` into `buf` (always NUL-terminated). */
void fs_strerror(int code, char *buf, size_t len);

/** Moves the last FFmpeg error message logged on this thread into `buf` ("" if none) and clears it.
 *  FFmpeg's own logging is silenced; this is how its reasons reach the caller. */
void fs_last_message(char *buf, size_t len);

/** The FFmpeg version string this shim runs against, e.g. "5.1.6-0+deb12u1"; loads FFmpeg.
 *  NULL when FFmpeg cannot be loaded (fs_strerror(FS_ERR_UNAVAILABLE, ...) says why). */
const char *fs_version(void);

/* ---------------------------------------------------------------- reader */

typedef struct fs_reader fs_reader;
typedef struct fs_picture fs_picture;

/** What the reader should open. Zero-initialise, then set fields. */
typedef struct fs_reader_options {
    int allow_network; /**< nonzero: http/https URLs allowed; otherwise local files only */
    int decode_video;  /**< nonzero: open the best video stream's decoder */
    int decode_audio;  /**< nonzero: open the best audio stream's decoder */
    int threads;       /**< decoder threads; 0 = automatic */
    int packets;       /**< nonzero: the best streams' packets are read undecoded (fs_reader_read_packet) */
} fs_reader_options;

/** What the reader found at open. Strings are NUL-terminated. */
typedef struct fs_media_info {
    char container[32];
    char video_codec[32];
    char audio_codec[32]; /**< "" when there is no audio stream */
    double duration;      /**< seconds; 0 when unknown */
    int coded_width, coded_height;
    int rotation;         /**< 0, 90, 180, 270: clockwise turn that shows the picture upright */
    double fps;           /**< average frame rate */
    double nominal_fps;   /**< the rate of most frames (the mean interval near the median one); = fps when unknown */
    int variable_frame_rate;
    int audio_sample_rate, audio_channels;
    int64_t bytes;        /**< file size, -1 when unknown */
} fs_media_info;

/** Opens `path`. On failure returns an error and writes a one-line reason into `detail`. */
int fs_reader_open(const char *path, const fs_reader_options *opts, fs_reader **out, char *detail, size_t detail_len);
void fs_reader_free(fs_reader **reader);
int fs_reader_info(const fs_reader *reader, fs_media_info *out);
/** The standard rate (23.976, 24, 25, 29.97, 30, 50, 59.94, 60) within 3 % of `nominal`; above
 *  60, 60; else `nominal` to the thousandth; 30 when `nominal` is not positive. */
double fs_standard_frame_rate(double nominal);
/** Seeks so the next video frame is the one shown at `seconds` (decoding from the last key frame
 *  at or before it, and dropping the frames before it). */
int fs_reader_seek(fs_reader *reader, double seconds);
/** The presentation time of the last video key frame at or before `seconds` as the container's
 *  index lists it, into `*time` (seconds from the start of the file). Reads nothing; FS_EOF when
 *  the index lists none there (or the container keeps no index). */
int fs_reader_key_frame_before(const fs_reader *reader, double seconds, double *time);
/** One packet as the container holds it, for passing on without decoding (feed live publish). */
typedef struct fs_packet {
    int audio;            /**< nonzero: the best audio stream's; else the best video stream's */
    int key;              /**< nonzero: a key frame */
    int64_t dts_ms;       /**< decoding time, milliseconds from the file's start (may be negative) */
    int64_t pts_ms;       /**< presentation time, the same way */
    int64_t duration_ms;  /**< 0 when the container does not say */
    const uint8_t *data;  /**< the reader's: valid until the next read or the reader's free */
    int size;
} fs_packet;

/** The codec configuration of the best video (`audio` 0) or audio stream as the container
 *  holds it (avcC for H.264 in MP4, AudioSpecificConfig for AAC): the reader's bytes, valid
 *  while it lives; `*size` 0 when there are none. FS_EOF when there is no such stream. */
int fs_reader_extradata(const fs_reader *reader, int audio, const uint8_t **data, int *size);
/** The next packet of the best video or audio stream, in file order, undecoded; FS_EOF at the
 *  end. For a reader opened without decoders. */
int fs_reader_read_packet(fs_reader *reader, fs_packet *out);
/** Decodes the next video frame into a new picture the caller frees; FS_EOF at the end. */
int fs_reader_next_picture(fs_reader *reader, fs_picture **out);
/** Decodes audio converted to interleaved float at `rate` Hz and `channels` (1 or 2) into `dst`
 *  (room for `capacity` samples per channel). `*got` samples were written, the first at `*time`
 *  seconds. FS_EOF when no samples remain. */
int fs_reader_read_audio(fs_reader *reader, int rate, int channels, float *dst, int capacity, int *got, double *time);

/** Presentation time of a picture in seconds from the start of the file. */
double fs_picture_time(const fs_picture *picture);
/** How long the picture is shown, in seconds; 0 when unknown. */
double fs_picture_duration(const fs_picture *picture);
int fs_picture_width(const fs_picture *picture);
int fs_picture_height(const fs_picture *picture);
void fs_picture_free(fs_picture **picture);

/* ---------------------------------------------------------------- scaler */

typedef struct fs_scaler fs_scaler;

/** A region in upright (display) coordinates of the source picture. */
typedef struct fs_rect { int x, y, width, height; } fs_rect;

int fs_scaler_alloc(fs_scaler **out);
void fs_scaler_free(fs_scaler **scaler);
/** Converts `picture` (or the `crop` part of it, in upright coordinates; NULL = all) turned
 *  upright by `rotation` degrees clockwise and scaled to `width` x `height` of `format` into the
 *  caller's planes. Caches the conversion context between calls with the same geometry. */
int fs_scaler_convert(fs_scaler *scaler, const fs_picture *picture, const fs_rect *crop, int rotation,
                      int width, int height, int format, uint8_t *const planes[3], const int strides[3]);
/** Fills a `width` x `height` picture of `format` with an RGB colour (BT.601 limited range for YUV). */
void fs_fill(int width, int height, int format, uint8_t *const planes[3], const int strides[3], int r, int g, int b);

/* ---------------------------------------------------------------- writer */

typedef struct fs_writer fs_writer;

enum fs_video_codec { FS_CODEC_H264 = 0, FS_CODEC_HEVC = 1 };

/** What the writer produces. Zero-initialise, then set fields. */
typedef struct fs_writer_options {
    int width, height;      /**< even, within the pixel limit */
    int fps_num, fps_den;   /**< nominal frame rate */
    int codec;              /**< enum fs_video_codec */
    const char *preset;     /**< x264/x265 preset, NULL = "veryfast" */
    int crf;                /**< 0..51 */
    int rotation;           /**< 0/90/180/270: display matrix tag on the video stream */
    int audio_rate;         /**< 0 = no audio track */
    int audio_channels;     /**< 1 or 2 */
    int threads;            /**< encoder threads; 0 = automatic */
} fs_writer_options;

/** Creates `path` as an MP4 (+faststart). Reasons for failure go into `detail`. */
int fs_writer_open(const char *path, const fs_writer_options *opts, fs_writer **out, char *detail, size_t detail_len);
/** The writer's own yuv420p frame for the caller to draw into, zero-copy; valid until submit. */
int fs_writer_frame(fs_writer *writer, uint8_t *planes[3], int strides[3]);
/** Encodes the frame filled through fs_writer_frame, shown at `seconds` (strictly increasing). */
int fs_writer_submit(fs_writer *writer, double seconds);
/** Converts and encodes a caller picture of `format` at the writer's size. */
int fs_writer_write_video(fs_writer *writer, int format, const uint8_t *const planes[3], const int strides[3], double seconds);
/** Queues interleaved float samples (the writer's rate and channels); encodes whole AAC frames. */
int fs_writer_write_audio(fs_writer *writer, const float *samples, int count);
/** Flushes the encoders and writes the trailer. The file is complete only after this returns 0. */
int fs_writer_finish(fs_writer *writer);
/** Frees the writer; an unfinished file is left as is (the caller removes it). */
void fs_writer_free(fs_writer **writer);

/* ---------------------------------------------------------------- images */

typedef struct fs_image_encoder fs_image_encoder;

enum fs_image_kind { FS_IMAGE_JPEG = 0, FS_IMAGE_PNG = 1 };

/** An encoder for still images of one size. `quality` is the JPEG qscale (2 best .. 31). */
int fs_image_encoder_open(int kind, int width, int height, int quality, fs_image_encoder **out);
/** Encodes one picture; `*data` (owned by the encoder) stays valid until the next call or free. */
int fs_image_encoder_encode(fs_image_encoder *encoder, int format, const uint8_t *const planes[3], const int strides[3],
                            const uint8_t **data, int *size);
void fs_image_encoder_free(fs_image_encoder **encoder);

/* ---------------------------------------------------------------- HLS ladder */

typedef struct fs_hls fs_hls;

/** One rendition of a ladder. */
typedef struct fs_hls_rung {
    const char *folder; /**< an existing folder for the rung's index.m3u8, init.mp4 and segment_NNNNN.m4s */
    int width, height;  /**< even; the upright picture is scaled to this size */
    int maxrate;        /**< peak bit rate cap in bits/s (VBV buffer twice that); 0 = none */
    int threads;        /**< this rung's encoder threads; 0 = fs_hls_options.threads */
} fs_hls_rung;

/** How the ladder is made. Zero-initialise, then set fields. */
typedef struct fs_hls_options {
    const fs_hls_rung *rungs;
    int rung_count;         /**< 1..8 */
    int codec;              /**< enum fs_video_codec */
    const char *preset;     /**< x264/x265 preset, NULL = "veryfast" */
    int crf;                /**< 0..51 */
    double segment_seconds; /**< target segment length, 1..60 */
    double gop_seconds;     /**< key frame interval, > 0 and <= segment_seconds */
    int audio;              /**< nonzero: the input's audio (if any) encoded once as AAC into its own rendition */
    const char *audio_folder; /**< an existing folder for the audio rendition's index.m3u8, init.mp4 and segments (needed with audio) */
    int threads;            /**< encoder threads per rung; 0 = automatic */
} fs_hls_options;

/** Opens `input` (a local file) and starts one encoder thread per rung. The rungs' playlists are
 *  written by FFmpeg's hls muxer (fMP4, VOD); segments start at key frames forced every
 *  gop_seconds at the same pictures in every rung. */
int fs_hls_open(const char *input, const fs_hls_options *opts, fs_hls **out, char *detail, size_t detail_len);
/** Decodes the next picture, hands it to every rung (waiting while a rung is 2 pictures behind)
 *  and encodes the audio up to it; `*seconds` gets its time. FS_EOF once every picture was read. */
int fs_hls_step(fs_hls *hls, double *seconds);
/** Encodes the rest of the audio, drains every encoder and writes each rung's last segment and
 *  playlist. The output is complete only after this returns 0; a rung's failure names the rung. */
int fs_hls_finish(fs_hls *hls, char *detail, size_t detail_len);
/** The RFC 6381 codecs string of rung `index`'s video, e.g. "avc1.64001f" or "hvc1.1.6.L93.B0". */
int fs_hls_codecs(const fs_hls *hls, int index, char *buf, size_t len);
/** Pictures rung `index` encoded; valid after fs_hls_finish. */
int fs_hls_pictures(const fs_hls *hls, int index);
/** Stops the rung threads (dropping what is queued) and frees everything; files written so far
 *  are left as they are (the caller removes its temporary folder). */
void fs_hls_free(fs_hls **hls);

#endif
