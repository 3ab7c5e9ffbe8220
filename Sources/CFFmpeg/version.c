#include "cffmpeg.h"
#include <libavformat/avformat.h>

const char *fs_version(void) { return av_version_info(); }
