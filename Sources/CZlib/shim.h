/* Debian's zlib (zlib1g-dev): gzip for playlists the server sends. */
#include <zlib.h>
