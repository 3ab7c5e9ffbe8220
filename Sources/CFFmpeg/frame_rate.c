/* The output rate a clip's nominal rate stands for: phones record "30 fps" that measures 29.8 or
 * 27.02 on average (dropped frames, variable rate), and people expect the standard rate back. */
#include "cffmpeg.h"
#include <math.h>

double fs_standard_frame_rate(double nominal) {
    static const double standard[] = {24000.0 / 1001, 24, 25, 30000.0 / 1001, 30, 50, 60000.0 / 1001, 60};
    if (!(nominal > 0) || !isfinite(nominal)) return 30;
    double best = standard[0], distance = INFINITY;
    for (unsigned i = 0; i < sizeof standard / sizeof standard[0]; i++) {
        double d = fabs(log(nominal / standard[i]));
        if (d < distance) { distance = d; best = standard[i]; }
    }
    /* Within 3 % of a standard rate: that rate. Above 60: 60. Otherwise (a 15 fps time-lapse,
     * a 12 fps screen capture) the clip's own rate, to the thousandth: never doubled frames. */
    if (distance <= log(1.03)) return best;
    if (nominal > 60) return 60;
    return round(nominal * 1000) / 1000;
}
