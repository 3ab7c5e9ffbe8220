/* libFuzzer entry point for the CHTML shim: bytes → fh_page_parse and every accessor.
 *
 * Compiled with the shim's page.c under -fsanitize=fuzzer,address (see Fuzz/build.sh); gumbo is
 * Debian's, uninstrumented. Each input is parsed with the caps `feed scrape` uses (512 MiB of
 * parser memory, here 64 MiB to reach the cap on fuzzer-sized inputs) and a 10 s deadline, so
 * the arena's stop-and-free path runs too. A crash, an ASan report or a leak is a finding
 * (a stopped parse must free every block gumbo had); so is a broken invariant, which aborts on
 * purpose:
 * - parsing never fails on any bytes but for memory, the memory cap or the deadline;
 * - every item's URL is a NUL-terminated string, its kind one of FH_*, the index past the count
 *   is refused;
 * - base and title, when present, are NUL-terminated strings. */
#include "chtml.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "html-page-fuzz: broken invariant: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fh_page *page = NULL;
    /* Every 8th input with a cap so small it is reached: the longjmp path, under ASan. */
    fh_limits limits = { .max_memory = (size % 8 == 0) ? 64 * 1024 : 64u << 20, .timeout_ms = 10000 };
    int ret = fh_page_parse((const char *)data, size, &limits, &page);
    if (ret < 0) {
        check(page == NULL, "a failed parse returned a page");
        check(ret == FH_ERR_MEMORY || ret == FH_ERR_TOO_LARGE || ret == FH_ERR_TIMED_OUT, "an unknown failure");
        return 0;
    }
    check(page != NULL, "a successful parse returned no page");
    int count = fh_page_count(page);
    check(count >= 0, "negative count");
    size_t total = 0;
    for (int i = 0; i < count; i++) {
        const char *url = NULL, *poster = NULL;
        int kind = 0;
        check(fh_page_item(page, i, &url, &kind, &poster) == 0, "an item in range was refused");
        check(url != NULL, "an item without a URL");
        check(kind >= FH_LINK_PREFETCH && kind <= FH_OG_VIDEO, "an unknown kind");
        total += strlen(url) + (poster ? strlen(poster) : 0);
    }
    const char *url = NULL, *poster = NULL;
    int kind = 0;
    check(fh_page_item(page, count, &url, &kind, &poster) == -1, "the index past the count was accepted");
    check(fh_page_item(page, -1, &url, &kind, &poster) == -1, "a negative index was accepted");
    const char *base = fh_page_base(page), *title = fh_page_title(page);
    if (base) total += strlen(base);
    if (title) total += strlen(title);
    (void)total;
    fh_page_free(&page);
    check(page == NULL, "free left the handle set");
    return 0;
}
