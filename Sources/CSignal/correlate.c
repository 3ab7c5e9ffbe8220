/* Generalised cross-correlation by FFT (cs_correlate), for lining up two recordings by their
 * sound. FFTW rather than FFmpeg's av_tx: Debian's FFmpeg 5.1 av_tx never returns from a
 * power-of-two transform longer than 2^17 points and gives wrong results for longer mixed-radix
 * ones, and a minute of sound at 8 kHz needs about 2^20. */
#include "csignal.h"
#include <fftw3.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>

/* FFTW's planner is not thread-safe (executing a plan is). */
static pthread_mutex_t planner = PTHREAD_MUTEX_INITIALIZER;

int cs_correlate(const float *a, int a_count, const float *b, int b_count, int max_lag,
                 const cs_correlate_options *opts, float *out) {
    if (!a || !b || !out || !opts || a_count <= 0 || b_count <= 0 || max_lag < 0 ||
        (int64_t)a_count + b_count > CS_CORRELATE_MAX_COUNT || !(opts->weighting >= 0 && opts->weighting <= 1) ||
        !(opts->low >= 0 && opts->low < opts->high && opts->high <= 0.5))
        return CS_ERR_ARGUMENT;
    int n = 2;
    while (n < a_count + b_count) n <<= 1;
    const int bins = n / 2 + 1;
    int code = CS_ERR_MEMORY;
    float *time = fftwf_malloc(sizeof *time * n);
    fftwf_complex *fa = fftwf_malloc(sizeof *fa * bins), *fb = fftwf_malloc(sizeof *fb * bins);
    fftwf_plan forward_a = NULL, forward_b = NULL, inverse = NULL;
    if (!time || !fa || !fb) goto done;
    pthread_mutex_lock(&planner);
    forward_a = fftwf_plan_dft_r2c_1d(n, time, fa, FFTW_ESTIMATE);
    forward_b = fftwf_plan_dft_r2c_1d(n, time, fb, FFTW_ESTIMATE);
    inverse = fftwf_plan_dft_c2r_1d(n, fa, time, FFTW_ESTIMATE);
    pthread_mutex_unlock(&planner);
    if (!forward_a || !forward_b || !inverse) goto done;

    for (int t = 0; t < n; t++) time[t] = t < a_count ? a[t] : 0.0f;
    fftwf_execute(forward_a);
    for (int t = 0; t < n; t++) time[t] = t < b_count ? b[t] : 0.0f;
    fftwf_execute(forward_b);

    /* conj(A) B transforms back to sum_t a[t] b[t + lag]; weighted, into fa. */
    const double beta = opts->weighting;
    for (int k = 0; k < bins; k++) {
        double ar = fa[k][0], ai = fa[k][1], br = fb[k][0], bi = fb[k][1];
        double cr = ar * br + ai * bi, ci = ar * bi - ai * br;
        double cycles = (double)k / n, weight = 0;
        if (cycles >= opts->low && cycles <= opts->high) {
            double magnitude = hypot(cr, ci);
            if (magnitude > 1e-20) weight = beta == 0 ? 1 : beta == 1 ? 1 / magnitude : pow(magnitude, -beta);
        }
        fa[k][0] = (float)(cr * weight);
        fa[k][1] = (float)(ci * weight);
    }
    fftwf_execute(inverse);                          /* overwrites fa, as c2r transforms do */

    for (int lag = -max_lag; lag <= max_lag; lag++) {
        int reachable = lag > -a_count && lag < b_count;
        out[lag + max_lag] = reachable ? time[lag >= 0 ? lag : n + lag] / (float)n : 0.0f;
    }
    code = 0;
done:
    pthread_mutex_lock(&planner);
    if (forward_a) fftwf_destroy_plan(forward_a);
    if (forward_b) fftwf_destroy_plan(forward_b);
    if (inverse) fftwf_destroy_plan(inverse);
    pthread_mutex_unlock(&planner);
    fftwf_free(time);
    fftwf_free(fa);
    fftwf_free(fb);
    return code;
}
