/* Loads FFmpeg at first use instead of linking it: linking pulls FFmpeg's ~150 dependent shared
 * libraries into every process start, even for commands that never touch media. */
#define FS_NO_REDIRECT /* the table is filled by name */
#include "internal.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct fs_ffmpeg fs_ffmpeg;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = FS_ERR_UNAVAILABLE;
static char load_error[512];

enum {
#define FS_LIBRARY_INDEX(key, soname) FS_LIB_##key,
    FS_LIBRARIES(FS_LIBRARY_INDEX)
#undef FS_LIBRARY_INDEX
    FS_LIB_COUNT
};

static const char *const sonames[FS_LIB_COUNT] = {
#define FS_LIBRARY_NAME(key, soname) soname,
    FS_LIBRARIES(FS_LIBRARY_NAME)
#undef FS_LIBRARY_NAME
};

static void load_once_body(void) {
    void *handles[FS_LIB_COUNT] = {0};
    for (int i = 0; i < FS_LIB_COUNT; i++) {
        handles[i] = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
        if (!handles[i]) {
            const char *why = dlerror();
            snprintf(load_error, sizeof load_error, "cannot load FFmpeg library %s: %s", sonames[i], why ? why : "unknown error");
            goto fail;
        }
    }
    struct fs_ffmpeg table;
#define FS_RESOLVE(lib, name)                                                                        \
    {                                                                                                \
        dlerror();                                                                                   \
        void *p = dlsym(handles[FS_LIB_##lib], #name);                                               \
        if (!p) {                                                                                    \
            const char *why = dlerror();                                                             \
            snprintf(load_error, sizeof load_error, "cannot load FFmpeg function %s from %s: %s", #name, \
                     sonames[FS_LIB_##lib], why ? why : "symbol is NULL");                           \
            goto fail;                                                                               \
        }                                                                                            \
        table.name = (__typeof__(table.name))p;                                                      \
    }
    FS_SYMBOLS(FS_RESOLVE)
#undef FS_RESOLVE
    fs_ffmpeg = table;
    load_result = 0;
    return;
fail:
    for (int i = FS_LIB_COUNT - 1; i >= 0; i--)
        if (handles[i]) dlclose(handles[i]);
}

int fs_load(void) {
    pthread_once(&load_once, load_once_body);
    return load_result;
}

const char *fs_load_error(void) {
    fs_load();
    return load_error[0] ? load_error : "FFmpeg libraries unavailable";
}
