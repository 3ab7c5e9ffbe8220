#ifndef FS_SYMBOLS_H
#define FS_SYMBOLS_H
/* X-macro lists of the FFmpeg libraries the shim loads at run time and of every FFmpeg function
 * it calls, each with the library that defines it. Adding a call to a new FFmpeg function means
 * adding one line here and its redirecting #define in internal.h (the link fails with an
 * undefined symbol until both are there).
 *
 * FS_LIBRARIES(X): X(key, soname), in load order (each after the libraries it needs).
 * FS_SYMBOLS(X):   X(key, name). */

#define FS_LIBRARIES(X) \
    X(avutil, "libavutil.so.57") \
    X(swresample, "libswresample.so.4") \
    X(swscale, "libswscale.so.6") \
    X(avcodec, "libavcodec.so.59") \
    X(avformat, "libavformat.so.59")

#define FS_SYMBOLS(X) \
    X(avutil, av_asprintf) \
    X(avutil, av_audio_fifo_alloc) \
    X(avutil, av_audio_fifo_free) \
    X(avutil, av_audio_fifo_read) \
    X(avutil, av_audio_fifo_reset) \
    X(avutil, av_audio_fifo_size) \
    X(avutil, av_audio_fifo_write) \
    X(avutil, av_calloc) \
    X(avutil, av_channel_layout_copy) \
    X(avutil, av_channel_layout_default) \
    X(avutil, av_channel_layout_uninit) \
    X(avutil, av_dict_free) \
    X(avutil, av_dict_get) \
    X(avutil, av_dict_set) \
    X(avutil, av_dict_set_int) \
    X(avutil, av_display_rotation_get) \
    X(avutil, av_display_rotation_set) \
    X(avutil, av_d2q) \
    X(avutil, av_frame_alloc) \
    X(avutil, av_frame_clone) \
    X(avutil, av_frame_free) \
    X(avutil, av_frame_get_buffer) \
    X(avutil, av_frame_is_writable) \
    X(avutil, av_frame_make_writable) \
    X(avutil, av_frame_move_ref) \
    X(avutil, av_frame_unref) \
    X(avutil, av_free) \
    X(avutil, av_freep) \
    X(avutil, av_image_copy) \
    X(avutil, av_image_fill_arrays) \
    X(avutil, av_image_fill_linesizes) \
    X(avutil, av_image_fill_max_pixsteps) \
    X(avutil, av_image_get_buffer_size) \
    X(avutil, av_log_set_callback) \
    X(avutil, av_malloc) \
    X(avutil, av_mallocz) \
    X(avutil, av_match_list) \
    X(avutil, av_opt_set) \
    X(avutil, av_pix_fmt_desc_get) \
    X(avutil, av_samples_alloc) \
    X(avutil, av_strdup) \
    X(avutil, av_strerror) \
    X(avutil, av_version_info) \
    X(swresample, swr_alloc_set_opts2) \
    X(swresample, swr_convert) \
    X(swresample, swr_free) \
    X(swresample, swr_get_out_samples) \
    X(swresample, swr_init) \
    X(swscale, sws_freeContext) \
    X(swscale, sws_getCachedContext) \
    X(swscale, sws_getCoefficients) \
    X(swscale, sws_scale) \
    X(swscale, sws_setColorspaceDetails) \
    X(avcodec, av_packet_alloc) \
    X(avcodec, av_packet_clone) \
    X(avcodec, av_packet_free) \
    X(avcodec, av_packet_move_ref) \
    X(avcodec, av_packet_rescale_ts) \
    X(avcodec, av_packet_unref) \
    X(avcodec, avcodec_alloc_context3) \
    X(avcodec, avcodec_find_decoder) \
    X(avcodec, avcodec_find_encoder) \
    X(avcodec, avcodec_find_encoder_by_name) \
    X(avcodec, avcodec_flush_buffers) \
    X(avcodec, avcodec_free_context) \
    X(avcodec, avcodec_get_name) \
    X(avcodec, avcodec_open2) \
    X(avcodec, avcodec_parameters_from_context) \
    X(avcodec, avcodec_parameters_to_context) \
    X(avcodec, avcodec_receive_frame) \
    X(avcodec, avcodec_receive_packet) \
    X(avcodec, avcodec_send_frame) \
    X(avcodec, avcodec_send_packet) \
    X(avformat, av_find_best_stream) \
    X(avformat, av_interleaved_write_frame) \
    X(avformat, av_probe_input_buffer2) \
    X(avformat, av_read_frame) \
    X(avformat, av_stream_get_side_data) \
    X(avformat, av_stream_new_side_data) \
    X(avformat, av_write_trailer) \
    X(avformat, avformat_alloc_context) \
    X(avformat, avformat_alloc_output_context2) \
    X(avformat, avformat_close_input) \
    X(avformat, avformat_find_stream_info) \
    X(avformat, avformat_free_context) \
    X(avformat, avformat_index_get_entries_count) \
    X(avformat, avformat_index_get_entry) \
    X(avformat, avformat_index_get_entry_from_timestamp) \
    X(avformat, avformat_new_stream) \
    X(avformat, avformat_open_input) \
    X(avformat, avformat_seek_file) \
    X(avformat, avformat_write_header) \
    X(avformat, avio_closep) \
    X(avformat, avio_open2) \
    X(avformat, avio_size)

#endif
