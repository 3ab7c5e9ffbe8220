/* Umbrella for the FFmpeg headers the CFFmpeg shim is compiled against.
 * Swift code never imports this module directly: it imports CFFmpeg. */
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
