#ifndef CHTML_H
#define CHTML_H

#include <stddef.h>

/* The videos of an HTML page, found by Debian's gumbo (an HTML5 parser: malformed markup
 * parses the way browsers parse it). Nothing of gumbo leaks out: one opaque handle, ints,
 * and strings owned by the handle until fh_page_free. */

/* Where a video URL was found. */
enum {
    FH_LINK_PREFETCH = 1, /* <link rel~=prefetch as=video href> */
    FH_VIDEO_SRC = 2,     /* <video src> */
    FH_SOURCE_SRC = 3,    /* <video><source src></video> */
    FH_OG_VIDEO = 4,      /* <meta property=og:video|og:video:url content> */
};

typedef struct fh_page fh_page;

/* Parses `len` bytes of `html` (UTF-8). 0, or -1 when out of memory (nothing allocated). */
int fh_page_parse(const char *html, size_t len, fh_page **out);

/* How many video URLs the page has, in document order (duplicates included). */
int fh_page_count(const fh_page *page);

/* The `index`th: its URL as written (attribute value), where it was found (FH_*), and the
 * enclosing <video>'s poster (NULL when none). 0, or -1 for an index out of range. */
int fh_page_item(const fh_page *page, int index, const char **url, int *kind, const char **poster);

/* The first <base href> (NULL when none) and the <title> text (NULL when none). */
const char *fh_page_base(const fh_page *page);
const char *fh_page_title(const fh_page *page);

/* Frees the page and its strings; sets *page to NULL. */
void fh_page_free(fh_page **page);

#endif
