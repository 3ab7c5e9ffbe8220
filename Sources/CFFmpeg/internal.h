#ifndef FS_INTERNAL_H
#define FS_INTERNAL_H
/* Shared between the shim's .c files; never seen by Swift. */
#include "cffmpeg.h"
#include "symbols.h"
/* Every FFmpeg header the shim uses, before the call redirections below. */
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/avstring.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

/** A decoded picture: one reference to a decoder frame plus its time in seconds. */
struct fs_picture {
    AVFrame *frame;
    double time;
    double duration;
};

/** Loads FFmpeg once (loader.c) and silences its logging, routing error messages to
 *  fs_last_message. 0, or FS_ERR_UNAVAILABLE when a library or symbol is missing. */
int fs_init(void);
/** Loads the FFmpeg libraries and resolves fs_ffmpeg once; 0 or FS_ERR_UNAVAILABLE. */
int fs_load(void);
/** Why fs_load failed ("" when it did not or has not run): the library and dlerror()'s text. */
const char *fs_load_error(void);
/** Writes "what: code text (last FFmpeg message)" into detail. */
void fs_detail(char *detail, size_t len, const char *what, int code);
/** The FFmpeg pixel format for an fs_pixel_format, AV_PIX_FMT_NONE for an unknown one. */
enum AVPixelFormat fs_av_format(int format);
/** Makes `scaler` use bicubic filtering (FFmpeg's scale filter default) instead of bilinear:
 *  what a ladder whose quality is compared with ffmpeg's needs. */
void fs_scaler_set_bicubic(fs_scaler *scaler);
/** Nonzero when width x height is a picture size the shim accepts. */
int fs_size_ok(int width, int height);

/** The FFmpeg functions, resolved by fs_load; typed from the headers so calls are checked. */
struct fs_ffmpeg {
#define FS_MEMBER(lib, name) __typeof__(&name) name;
    FS_SYMBOLS(FS_MEMBER)
#undef FS_MEMBER
};
extern struct fs_ffmpeg fs_ffmpeg;
#define FS_SYM(name) (fs_ffmpeg.name)

/* Calls go through the table: valid only after fs_init/fs_load returned 0, which every entry
 * point that creates a handle checks. One line per symbol in symbols.h. loader.c, which fills
 * the table and needs the plain names, defines FS_NO_REDIRECT. */
#ifndef FS_NO_REDIRECT
#define av_asprintf                      FS_SYM(av_asprintf)
#define av_audio_fifo_alloc              FS_SYM(av_audio_fifo_alloc)
#define av_audio_fifo_free               FS_SYM(av_audio_fifo_free)
#define av_audio_fifo_read               FS_SYM(av_audio_fifo_read)
#define av_audio_fifo_reset              FS_SYM(av_audio_fifo_reset)
#define av_audio_fifo_size               FS_SYM(av_audio_fifo_size)
#define av_audio_fifo_write              FS_SYM(av_audio_fifo_write)
#define av_calloc                        FS_SYM(av_calloc)
#define av_channel_layout_copy           FS_SYM(av_channel_layout_copy)
#define av_channel_layout_default        FS_SYM(av_channel_layout_default)
#define av_channel_layout_uninit         FS_SYM(av_channel_layout_uninit)
#define av_d2q                           FS_SYM(av_d2q)
#define av_dict_free                     FS_SYM(av_dict_free)
#define av_dict_get                      FS_SYM(av_dict_get)
#define av_dict_set                      FS_SYM(av_dict_set)
#define av_dict_set_int                  FS_SYM(av_dict_set_int)
#define av_display_rotation_get          FS_SYM(av_display_rotation_get)
#define av_display_rotation_set          FS_SYM(av_display_rotation_set)
#define av_find_best_stream              FS_SYM(av_find_best_stream)
#define av_frame_alloc                   FS_SYM(av_frame_alloc)
#define av_frame_clone                   FS_SYM(av_frame_clone)
#define av_frame_free                    FS_SYM(av_frame_free)
#define av_frame_get_buffer              FS_SYM(av_frame_get_buffer)
#define av_frame_is_writable             FS_SYM(av_frame_is_writable)
#define av_frame_make_writable           FS_SYM(av_frame_make_writable)
#define av_frame_move_ref                FS_SYM(av_frame_move_ref)
#define av_frame_unref                   FS_SYM(av_frame_unref)
#define av_free                          FS_SYM(av_free)
#define av_freep                         FS_SYM(av_freep)
#define av_image_copy                    FS_SYM(av_image_copy)
#define av_image_fill_arrays             FS_SYM(av_image_fill_arrays)
#define av_image_fill_linesizes          FS_SYM(av_image_fill_linesizes)
#define av_image_fill_max_pixsteps       FS_SYM(av_image_fill_max_pixsteps)
#define av_image_get_buffer_size         FS_SYM(av_image_get_buffer_size)
#define av_interleaved_write_frame       FS_SYM(av_interleaved_write_frame)
#define av_log_set_callback              FS_SYM(av_log_set_callback)
#define av_malloc                        FS_SYM(av_malloc)
#define av_mallocz                       FS_SYM(av_mallocz)
#define av_match_list                    FS_SYM(av_match_list)
#define av_opt_set                       FS_SYM(av_opt_set)
#define av_packet_alloc                  FS_SYM(av_packet_alloc)
#define av_packet_clone                  FS_SYM(av_packet_clone)
#define av_packet_free                   FS_SYM(av_packet_free)
#define av_packet_move_ref               FS_SYM(av_packet_move_ref)
#define av_packet_rescale_ts             FS_SYM(av_packet_rescale_ts)
#define av_packet_unref                  FS_SYM(av_packet_unref)
#define av_pix_fmt_desc_get              FS_SYM(av_pix_fmt_desc_get)
#define av_probe_input_buffer2           FS_SYM(av_probe_input_buffer2)
#define av_read_frame                    FS_SYM(av_read_frame)
#define av_samples_alloc                 FS_SYM(av_samples_alloc)
#define av_strdup                        FS_SYM(av_strdup)
#define av_stream_get_side_data          FS_SYM(av_stream_get_side_data)
#define av_stream_new_side_data          FS_SYM(av_stream_new_side_data)
#define av_strerror                      FS_SYM(av_strerror)
#define av_version_info                  FS_SYM(av_version_info)
#define av_write_trailer                 FS_SYM(av_write_trailer)
#define avcodec_alloc_context3           FS_SYM(avcodec_alloc_context3)
#define avcodec_find_decoder             FS_SYM(avcodec_find_decoder)
#define avcodec_find_encoder             FS_SYM(avcodec_find_encoder)
#define avcodec_find_encoder_by_name     FS_SYM(avcodec_find_encoder_by_name)
#define avcodec_flush_buffers            FS_SYM(avcodec_flush_buffers)
#define avcodec_free_context             FS_SYM(avcodec_free_context)
#define avcodec_get_name                 FS_SYM(avcodec_get_name)
#define avcodec_open2                    FS_SYM(avcodec_open2)
#define avcodec_parameters_from_context  FS_SYM(avcodec_parameters_from_context)
#define avcodec_parameters_to_context    FS_SYM(avcodec_parameters_to_context)
#define avcodec_receive_frame            FS_SYM(avcodec_receive_frame)
#define avcodec_receive_packet           FS_SYM(avcodec_receive_packet)
#define avcodec_send_frame               FS_SYM(avcodec_send_frame)
#define avcodec_send_packet              FS_SYM(avcodec_send_packet)
#define avformat_alloc_context           FS_SYM(avformat_alloc_context)
#define avformat_alloc_output_context2   FS_SYM(avformat_alloc_output_context2)
#define avformat_close_input             FS_SYM(avformat_close_input)
#define avformat_find_stream_info        FS_SYM(avformat_find_stream_info)
#define avformat_free_context            FS_SYM(avformat_free_context)
#define avformat_index_get_entries_count FS_SYM(avformat_index_get_entries_count)
#define avformat_index_get_entry         FS_SYM(avformat_index_get_entry)
#define avformat_index_get_entry_from_timestamp FS_SYM(avformat_index_get_entry_from_timestamp)
#define avformat_new_stream              FS_SYM(avformat_new_stream)
#define avformat_open_input              FS_SYM(avformat_open_input)
#define avformat_seek_file               FS_SYM(avformat_seek_file)
#define avformat_write_header            FS_SYM(avformat_write_header)
#define avio_closep                      FS_SYM(avio_closep)
#define avio_open2                       FS_SYM(avio_open2)
#define avio_size                        FS_SYM(avio_size)
#define swr_alloc_set_opts2              FS_SYM(swr_alloc_set_opts2)
#define swr_convert                      FS_SYM(swr_convert)
#define swr_free                         FS_SYM(swr_free)
#define swr_get_out_samples              FS_SYM(swr_get_out_samples)
#define swr_init                         FS_SYM(swr_init)
#define sws_freeContext                  FS_SYM(sws_freeContext)
#define sws_getCachedContext             FS_SYM(sws_getCachedContext)
#define sws_getCoefficients              FS_SYM(sws_getCoefficients)
#define sws_scale                        FS_SYM(sws_scale)
#define sws_setColorspaceDetails         FS_SYM(sws_setColorspaceDetails)
#endif

#endif
