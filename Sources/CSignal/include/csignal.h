#ifndef CSIGNAL_H
#define CSIGNAL_H
/* feed's signal processing in C, over FFTW (Debian's libfftw3, single precision). No FFTW type
 * appears in this header. Functions return 0 or a negative error code. */

/** A count or option out of range. */
#define CS_ERR_ARGUMENT (-1)
/** Memory ran out (or FFTW could not plan the transform). */
#define CS_ERR_MEMORY (-2)

/** Most samples cs_correlate takes (a_count + b_count): 2^22, about 524 s at 8 kHz. */
#define CS_CORRELATE_MAX_COUNT 4194304

/** How cs_correlate weights the cross-spectrum. Zero-initialise, then set fields. */
typedef struct cs_correlate_options {
    double weighting;  /**< each bin divided by its magnitude to this power: 1 = PHAT (GCC-PHAT), 0 = plain */
    double low, high;  /**< band kept, in cycles per sample (0 <= low < high <= 0.5); others are zeroed */
} cs_correlate_options;

/** Generalised cross-correlation of two real signals by FFT (one real transform each, one
 *  inverse): out[lag + max_lag] = sum over t of a[t] * b[t + lag], after the weighting, for
 *  lag = -max_lag ... max_lag (2 * max_lag + 1 values). Zero-padded, so nothing wraps around;
 *  lags the signals cannot reach are 0. A positive lag means b's copy of a shared sound comes
 *  `lag` samples later than a's. Safe to call from several threads at once. */
int cs_correlate(const float *a, int a_count, const float *b, int b_count, int max_lag,
                 const cs_correlate_options *opts, float *out);

#endif
