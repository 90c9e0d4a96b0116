// branchy.hip -- loads on both arms of branches, scalar loads through a
// pointer table inside a loop, a returning atomic, a data-dependent exit.
#include "lint_hip.h"
KERNEL void branchy(const float *const *tab, const float *x, float *y, unsigned *cnt,
                    unsigned n, unsigned m)
{
    unsigned i = wg_x() * 256 + tid_x();
    if (i >= n)
        return;
    float v = x[i], w;
    if (v > 0.0f)
        w = x[(i + 1) % n] * 2.0f;
    else
        w = x[(i + 7) % n] - 1.0f;
    for (unsigned k = 0; k < m; k++) {
        const float *p = tab[k];           /* uniform: s_load */
        w += p[i];
        if (w > 100.0f)
            break;
    }
    unsigned slot = __hip_atomic_fetch_add(cnt, 1u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    y[slot % n] = v + w;
}
