/* test_ops.c: checks the float helpers of runtime/tilec_ops.h that the
 * generated CUDA uses in place of a library call, on the host, where their
 * integer and fma steps are the same IEEE operations as on the GPU.
 * tilec_rcp_fmaf (the reciprocal on the FMA pipe of GELU's tanh form) is
 * compared with the correctly rounded 1/d in every binade of its range, at
 * 2^15 evenly spaced mantissas and both ends of each, and above it (to
 * FLT_MAX) and at NaN for what it gives there; the GPU side of the
 * tanh forms is tests/kernels/ops_float's tanh_forms on the device. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "tilec_ops.h"

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* |got - 1/d| in units of the last place of 1/d as a float (2^-149 below
 * the normal range). */
static double ulps_off(float d, float got)
{
    double want = 1.0 / (double)d;
    int e = ilogb(want);
    double ulp = ldexp(1.0, (e < -126 ? -126 : e) - 23);
    return fabs((double)got - want) / ulp;
}

/* Every binade of d in [1, 2^126]: at most 0.501 ulp below 2^125 (three
 * Newton steps from a 5.1% estimate land within rounding of the exact
 * value), 1 ulp in [2^125, 2^126), whose estimate is subnormal. */
static void test_rcp_fmaf(void)
{
    for (int k = 0; k <= 126; k++) {
        double worst = 0;
        float at = 0;
        uint32_t base = (uint32_t)(127 + k) << 23;
        int n = k == 126 ? 1 : 1 << 15; /* 2^126 is the range's top */
        for (int i = 0; i <= n; i++) {
            uint32_t m = i == n ? 0x7FFFFFu : (uint32_t)i << 8; /* 2^15 steps and the binade's last */
            if (k == 126 && m) break;
            float d = from_bits(base | m);
            double u = ulps_off(d, tilec_rcp_fmaf(d));
            if (u > worst) worst = u, at = d;
        }
        double bound = k < 125 ? 0.501 : 1.0;
        CHECK(worst <= bound, "binade 2^%d: %.4f ulp at d = %a (bound %.3f)", k, worst, (double)at, bound);
    }
    /* exact where 1/d is a float */
    for (int k = 0; k <= 126; k += 5) {
        float d = ldexpf(1.0f, k);
        CHECK(tilec_rcp_fmaf(d) == ldexpf(1.0f, -k), "1/2^%d = %a", k, (double)tilec_rcp_fmaf(d));
    }
    CHECK(tilec_rcp_fmaf(3.0f) == 1.0f / 3.0f, "1/3: %a", (double)tilec_rcp_fmaf(3.0f));
    /* above 2^126 up to the largest float: 0 or a subnormal at most 2^-126
     * (the flush of rcp.approx.ftz, which gives 0 there), never negative,
     * never NaN */
    int bad = 0;
    for (uint32_t u = 0x7E800001u; u <= 0x7F7FFFFFu && u > 0x7E800000u; u += 997) {
        float r = tilec_rcp_fmaf(from_bits(u));
        if (!(r >= 0 && r <= 0x1p-126f) && !bad++) CHECK(0, "1/%a gives %a", (double)from_bits(u), (double)r);
    }
    CHECK(bad == 0, "%d results above 2^126 out of [0, 2^-126]", bad);
    CHECK(tilec_rcp_fmaf(FLT_MAX) == 0, "1/FLT_MAX: %a", (double)tilec_rcp_fmaf(FLT_MAX));
    CHECK(isnan(tilec_rcp_fmaf(NAN)), "NaN in gives %a", (double)tilec_rcp_fmaf(NAN));
    CHECK(isnan(tilec_rcp_fmaf(-NAN)), "-NaN in gives %a", (double)tilec_rcp_fmaf(-NAN));
}

/* On the host tilec_inv1p_exp2f_at is tilec_inv1p_exp2f for every element
 * index, and that is 1 / (1 + 2^y) as float computes it. */
static void test_inv1p_host(void)
{
    const float ys[] = {-200.0f, -30.0f, -1.5f, 0.0f, 0.25f, 3.0f, 40.0f, 200.0f, INFINITY, -INFINITY};
    for (size_t j = 0; j < sizeof ys / sizeof ys[0]; j++)
        for (int i = 0; i < 5; i++) {
            float y = ys[j], want = 1.0f / (1.0f + exp2f(y)), got = tilec_inv1p_exp2f_at(y, i);
            CHECK(got == want, "y %g element %d: got %a, want %a", (double)y, i, (double)got, (double)want);
        }
    CHECK(isnan(tilec_inv1p_exp2f_at(NAN, 0)), "NaN in");
}

int main(void)
{
    test_rcp_fmaf();
    test_inv1p_host();
    return check_done("ops");
}
