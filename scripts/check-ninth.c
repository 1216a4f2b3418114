/* Exhaustive check behind LMMSEGWDemosaic.ninth (SPEC X2, X5): for every one of the 2^32 float
 * bit patterns x, the FMA form q = x*(1/9), r = fma(-q, 9, x), q' = fma(r, 1/9, q), keeping q
 * where r is 0 or NaN, gives the bits of x / 9 (NaN for NaN). Pipeline versions are pinned by
 * golden checksums, so a faster kernel must not move a single bit; this is the proof for the
 * division it replaces. About a minute:
 *   gcc -O2 -mfma -ffp-contract=off -o /tmp/check-ninth scripts/check-ninth.c -lm && /tmp/check-ninth
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    const float ninth = 1.0f / 9.0f, nine = 9.0f;
    uint64_t unguarded = 0, guarded = 0;
    for (uint64_t i = 0; i <= 0xffffffffull; i++) {
        uint32_t u = (uint32_t)i, a, b, c;
        float x;
        memcpy(&x, &u, 4);
        float d = x / nine, q = x * ninth, r = fmaf(-q, nine, x), refined = fmaf(r, ninth, q);
        float kept = (r > 0 || r < 0) ? refined : q;
        memcpy(&a, &d, 4); memcpy(&b, &refined, 4); memcpy(&c, &kept, 4);
        if (!(isnan(d) && isnan(refined)) && a != b) unguarded++;
        if (!(isnan(d) && isnan(kept)) && a != c) guarded++;
    }
    printf("x / 9 against the FMA form over all 2^32 floats: %llu differ without the guard (-0, +inf, -inf), %llu with it\n",
           (unsigned long long)unguarded, (unsigned long long)guarded);
    return guarded == 0 ? 0 : 1;
}
