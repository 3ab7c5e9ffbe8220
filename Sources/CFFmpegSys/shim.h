/* Umbrella for the FFmpeg headers the CFFmpeg shim is compiled against.
 * Swift code never imports this module directly: it imports CFFmpeg. Headers only: the shim
 * loads the libraries with dlopen at first use (CFFmpeg/loader.c), so nothing links them. */
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
