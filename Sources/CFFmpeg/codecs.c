/* RFC 6381 codecs strings for HLS master playlists, read from an encoder's own SPS. */
#include "hls.h"
#include <stdio.h>

/* The first NAL unit of `type` in Annex B `data`, emulation-prevention bytes removed, into `out`. */
static int find_nal(const uint8_t *data, int size, int hevc, int type, uint8_t *out, int cap) {
    for (int i = 0; i + 3 < size; i++) {
        if (!(data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1)) continue;
        int start = i + 3;
        int nal = hevc ? (data[start] >> 1) & 0x3F : data[start] & 0x1F;
        if (nal != type) continue;
        int n = 0, zeros = 0;
        for (int k = start; k < size && n < cap; k++) {
            if (zeros >= 2 && data[k] == 3) { zeros = 0; continue; }
            if (zeros >= 2 && data[k] <= 1) break; /* next start code */
            zeros = data[k] == 0 ? zeros + 1 : 0;
            out[n++] = data[k];
        }
        return n;
    }
    return 0;
}

void fs_codecs_string(const AVCodecContext *enc, int hevc, char *out, size_t len) {
    uint8_t sps[64];
    const uint8_t *x = enc->extradata;
    int size = enc->extradata_size;
    if (!hevc) {
        int n = find_nal(x, size, 0, 7, sps, sizeof sps);
        if (n >= 4) snprintf(out, len, "avc1.%02x%02x%02x", sps[1], sps[2], sps[3]);
        else snprintf(out, len, "avc1");
        return;
    }
    /* SPS: 2-byte NAL header, 1 byte of ids, then profile_tier_level: space/tier/profile, 32
     * compatibility flags, 48 constraint bits, level. */
    int n = find_nal(x, size, 1, 33, sps, sizeof sps);
    if (n < 15) { snprintf(out, len, "hvc1"); return; }
    const uint8_t *p = sps + 3;
    int space = p[0] >> 6, tier = (p[0] >> 5) & 1, profile = p[0] & 0x1F;
    uint32_t flags = (uint32_t)p[1] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 8 | p[4], reversed = 0;
    for (int b = 0; b < 32; b++) if (flags & (1u << b)) reversed |= 1u << (31 - b);
    int used = snprintf(out, len, "hvc1.%s%d.%X.%c%d", space ? (const char *[]){"", "A", "B", "C"}[space] : "",
                       profile, reversed, tier ? 'H' : 'L', p[11]);
    int last = 5; /* trailing zero constraint bytes are left out */
    for (int b = 5; b < 11; b++) if (p[b]) last = b + 1;
    for (int b = 5; b < last && used >= 0 && (size_t)used + 4 < len; b++) used += snprintf(out + used, len - used, ".%02X", p[b]);
}
