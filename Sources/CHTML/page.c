#include "chtml.h"

#include <gumbo.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Every block gumbo allocates goes through an arena: counted (with its overhead) against the
 * memory limit, the clock looked at every 1,024 allocations, and linked so that a parse
 * stopped midway (a longjmp out of gumbo, which cannot be told to stop) frees all it had. A
 * block's header keeps the links and the size, 32 bytes, so the memory after it stays 16-byte
 * aligned. */
typedef struct fh_block {
    struct fh_block *prev, *next;
    size_t size;
    size_t pad;
} fh_block;

typedef struct {
    fh_block ring; /* the list's sentinel */
    size_t used, limit;
    unsigned long calls;
    int64_t deadline_ns; /* CLOCK_MONOTONIC; 0: none */
    int reason;
    jmp_buf escape;
} fh_arena;

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* What a block costs: its size, its header, and malloc's own bookkeeping (about 16 bytes). */
static size_t cost(size_t size) { return size + sizeof(fh_block) + 16; }

static void *arena_alloc(void *userdata, size_t size) {
    fh_arena *a = userdata;
    if (a->limit && (size > a->limit || cost(size) > a->limit - a->used)) { a->reason = FH_ERR_TOO_LARGE; longjmp(a->escape, 1); }
    if (a->deadline_ns && (++a->calls & 1023) == 0 && now_ns() > a->deadline_ns) { a->reason = FH_ERR_TIMED_OUT; longjmp(a->escape, 1); }
    fh_block *b = malloc(sizeof *b + size);
    if (b == NULL) { a->reason = FH_ERR_MEMORY; longjmp(a->escape, 1); }
    b->size = size;
    b->prev = &a->ring;
    b->next = a->ring.next;
    a->ring.next->prev = b;
    a->ring.next = b;
    a->used += cost(size);
    return b + 1;
}

static void arena_free(void *userdata, void *ptr) {
    if (ptr == NULL) return;
    fh_arena *a = userdata;
    fh_block *b = (fh_block *)ptr - 1;
    b->prev->next = b->next;
    b->next->prev = b->prev;
    a->used -= cost(b->size);
    free(b);
}

/* Frees every block still in the arena (a parse stopped midway). */
static void arena_release(fh_arena *a) {
    while (a->ring.next != &a->ring) arena_free(a, a->ring.next + 1);
}

typedef struct {
    char *url;
    char *poster;
    int kind;
} fh_item;

struct fh_page {
    fh_item *items;
    int count;
    int capacity;
    char *base;
    char *title;
    int failed; /* out of memory while collecting */
};

static char *copy(const char *text) {
    if (text == NULL) return NULL;
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    if (out != NULL) memcpy(out, text, n + 1);
    return out;
}

static const char *attribute(const GumboElement *element, const char *name) {
    const GumboAttribute *found = gumbo_get_attribute(&element->attributes, name);
    return found != NULL ? found->value : NULL;
}

/* Whether the whitespace-separated list `list` holds `token` (ASCII case-insensitive). */
static int has_token(const char *list, const char *token) {
    size_t n = strlen(token);
    const char *p = list;
    while (p != NULL && *p != '\0') {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f') p++;
        const char *start = p;
        while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '\f') p++;
        if ((size_t)(p - start) == n && strncasecmp(start, token, n) == 0) return 1;
    }
    return 0;
}

static void add(fh_page *page, const char *url, int kind, const char *poster) {
    if (url == NULL || page->failed) return;
    if (page->count == page->capacity) {
        int capacity = page->capacity ? page->capacity * 2 : 16;
        fh_item *grown = realloc(page->items, (size_t)capacity * sizeof *grown);
        if (grown == NULL) { page->failed = 1; return; }
        page->items = grown;
        page->capacity = capacity;
    }
    fh_item *item = &page->items[page->count];
    item->url = copy(url);
    item->poster = copy(poster);
    item->kind = kind;
    if (item->url == NULL || (poster != NULL && item->poster == NULL)) {
        free(item->url);
        free(item->poster);
        page->failed = 1;
        return;
    }
    page->count++;
}

/* The text of an element's text children, concatenated (for <title>). */
static char *text_of(const GumboElement *element) {
    size_t total = 0;
    for (unsigned i = 0; i < element->children.length; i++) {
        const GumboNode *child = element->children.data[i];
        if (child->type == GUMBO_NODE_TEXT || child->type == GUMBO_NODE_WHITESPACE) total += strlen(child->v.text.text);
    }
    char *out = malloc(total + 1);
    if (out == NULL) return NULL;
    out[0] = '\0';
    for (unsigned i = 0; i < element->children.length; i++) {
        const GumboNode *child = element->children.data[i];
        if (child->type == GUMBO_NODE_TEXT || child->type == GUMBO_NODE_WHITESPACE) strcat(out, child->v.text.text);
    }
    return out;
}

/* Depth-first, in document order, with an explicit stack (no recursion on deep markup). */
static void walk(fh_page *page, const GumboNode *root) {
    size_t capacity = 64, depth = 0;
    const GumboNode **stack = malloc(capacity * sizeof *stack);
    if (stack == NULL) { page->failed = 1; return; }
    stack[depth++] = root;
    while (depth > 0 && !page->failed) {
        const GumboNode *node = stack[--depth];
        if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE) continue;
        const GumboElement *element = &node->v.element;
        switch (element->tag) {
        case GUMBO_TAG_LINK: {
            const char *rel = attribute(element, "rel"), *as = attribute(element, "as");
            if (rel != NULL && as != NULL && has_token(rel, "prefetch") && strcasecmp(as, "video") == 0) {
                add(page, attribute(element, "href"), FH_LINK_PREFETCH, NULL);
            }
            break;
        }
        case GUMBO_TAG_VIDEO:
            add(page, attribute(element, "src"), FH_VIDEO_SRC, attribute(element, "poster"));
            break;
        case GUMBO_TAG_SOURCE: {
            const GumboNode *parent = node->parent;
            if (parent != NULL && parent->type == GUMBO_NODE_ELEMENT && parent->v.element.tag == GUMBO_TAG_VIDEO) {
                add(page, attribute(element, "src"), FH_SOURCE_SRC, attribute(&parent->v.element, "poster"));
            }
            break;
        }
        case GUMBO_TAG_META: {
            const char *property = attribute(element, "property");
            if (property != NULL && (strcasecmp(property, "og:video") == 0 || strcasecmp(property, "og:video:url") == 0)) {
                add(page, attribute(element, "content"), FH_OG_VIDEO, NULL);
            }
            break;
        }
        case GUMBO_TAG_BASE:
            if (page->base == NULL && attribute(element, "href") != NULL) {
                page->base = copy(attribute(element, "href"));
                if (page->base == NULL) page->failed = 1;
            }
            break;
        case GUMBO_TAG_TITLE:
            if (page->title == NULL) {
                page->title = text_of(element);
                if (page->title == NULL) page->failed = 1;
            }
            break;
        default:
            break;
        }
        /* Children pushed last-first so the first child is visited next. */
        for (unsigned i = element->children.length; i > 0; i--) {
            if (depth == capacity) {
                capacity *= 2;
                const GumboNode **grown = realloc(stack, capacity * sizeof *grown);
                if (grown == NULL) { page->failed = 1; break; }
                stack = grown;
            }
            stack[depth++] = element->children.data[i - 1];
        }
    }
    free(stack);
}

int fh_page_parse(const char *html, size_t len, const fh_limits *limits, fh_page **out) {
    *out = NULL;
    fh_page *page = calloc(1, sizeof *page);
    if (page == NULL) return FH_ERR_MEMORY;
    /* volatile: read after a longjmp back here. */
    fh_arena *volatile arena = calloc(1, sizeof *arena);
    if (arena == NULL) { free(page); return FH_ERR_MEMORY; }
    arena->ring.prev = arena->ring.next = &arena->ring;
    if (limits != NULL) {
        arena->limit = limits->max_memory;
        if (limits->timeout_ms > 0) arena->deadline_ns = now_ns() + (int64_t)limits->timeout_ms * 1000000;
    }
    /* Parse errors are not wanted, and recording them costs a copy of the open-element stack
     * each: quadratic memory on deeply nested markup. */
    GumboOptions options = kGumboDefaultOptions;
    options.max_errors = 0;
    options.allocator = arena_alloc;
    options.deallocator = arena_free;
    options.userdata = arena;
    if (setjmp(arena->escape) != 0) {
        int reason = arena->reason;
        arena_release(arena);
        free(arena);
        free(page);
        return reason;
    }
    GumboOutput *output = gumbo_parse_with_options(&options, html, len);
    if (output == NULL) { arena_release(arena); free(arena); free(page); return FH_ERR_MEMORY; }
    /* Parsed: nothing may jump back now. */
    arena->limit = 0;
    arena->deadline_ns = 0;
    walk(page, output->root);
    gumbo_destroy_output(&options, output);
    arena_release(arena);
    free(arena);
    if (page->failed) { fh_page_free(&page); return FH_ERR_MEMORY; }
    *out = page;
    return 0;
}

int fh_page_count(const fh_page *page) { return page->count; }

int fh_page_item(const fh_page *page, int index, const char **url, int *kind, const char **poster) {
    if (index < 0 || index >= page->count) return -1;
    *url = page->items[index].url;
    *kind = page->items[index].kind;
    *poster = page->items[index].poster;
    return 0;
}

const char *fh_page_base(const fh_page *page) { return page->base; }
const char *fh_page_title(const fh_page *page) { return page->title; }

void fh_page_free(fh_page **page) {
    if (page == NULL || *page == NULL) return;
    for (int i = 0; i < (*page)->count; i++) {
        free((*page)->items[i].url);
        free((*page)->items[i].poster);
    }
    free((*page)->items);
    free((*page)->base);
    free((*page)->title);
    free(*page);
    *page = NULL;
}
