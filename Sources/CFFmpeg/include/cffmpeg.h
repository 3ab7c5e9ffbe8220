#ifndef CFFMPEG_H
#define CFFMPEG_H
/* feed's narrow C API over FFmpeg. No FFmpeg type appears in this header. */

/** The libavformat version string this shim runs against, e.g. "59.27.100". */
const char *fs_version(void);

#endif
