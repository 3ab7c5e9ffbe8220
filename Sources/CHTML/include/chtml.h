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

/* What a parse may cost: the parser's memory (gumbo builds a node per element and text run,
 * about 80 times the page's size for dense markup) and its time (deeply nested markup costs
 * gumbo quadratic time). 0 for no limit. */
typedef struct {
    size_t max_memory;   /* bytes the parser may hold at once */
    long timeout_ms;     /* milliseconds from the call */
} fh_limits;

enum {
    FH_ERR_MEMORY = -1,    /* out of memory */
    FH_ERR_TOO_LARGE = -2, /* over limits->max_memory */
    FH_ERR_TIMED_OUT = -3, /* over limits->timeout_ms */
};

/* Parses `len` bytes of `html` (UTF-8) within `limits` (NULL: none). 0, or FH_ERR_*: then
 * nothing is left allocated (every block the parser had is freed). */
int fh_page_parse(const char *html, size_t len, const fh_limits *limits, fh_page **out);

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
