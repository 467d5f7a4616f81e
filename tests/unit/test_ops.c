/* test_ops.c: checks the float helpers of runtime/tilec_ops.h that the
 * generated CUDA uses in place of a library call, on the host, where their
 * integer and fma steps are the same IEEE operations as on the GPU.
 * tilec_rcp_fmaf (the reciprocal on the FMA pipe of GELU's tanh form) is
 * compared with the correctly rounded 1/d in every binade of its range, at
 * 2^15 evenly spaced mantissas and both ends of each, and above it (to
 * FLT_MAX) and at NaN for what it gives there; the GPU side of the
 * tanh forms is tests/kernels/ops_float's tanh_forms on the device.
 * Also the view helpers tilec_vdiv and tilec_vmod against C's / and %. */
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

/* tilec_vdiv and tilec_vmod (a view's coordinates split by extents of the
 * array): C's / and % on the 32-bit path and on the shift-and-subtract
 * path of the other cases (negative, 64-bit, INT64_MIN, b = 0 gives 0). */
static void test_vdiv(void)
{
    uint64_t s = 88172645463325252u;
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        int64_t a = (int64_t)s, b = (int64_t)(s * 2654435761u);
        switch (i % 4) {
        case 0: a = (int64_t)(s & 0xffffffffu), b = (int64_t)((s >> 32) % 5000 + 1); break; /* the 32-bit path */
        case 1: a >>= (i % 60), b >>= (i % 62); break;
        case 2: a = -(int64_t)(s % 100000), b = (int64_t)(s % 97) + 1; break;
        default: break;
        }
        if (b == 0 || (a == INT64_MIN && b == -1)) continue;
        if (tilec_vdiv(a, b) != a / b || tilec_vmod(a, b) != a % b) bad++;
    }
    CHECK(bad == 0, "%d of 200000 quotients or remainders differ from C's", bad);
    CHECK(tilec_vdiv(INT64_MIN, 3) == INT64_MIN / 3 && tilec_vmod(INT64_MIN, 3) == INT64_MIN % 3, "INT64_MIN / 3");
    CHECK(tilec_vdiv(5, 0) == 0 && tilec_vmod(5, 0) == 0, "division by 0 gives 0");
    CHECK(tilec_vdiv(0xffffffffLL, 0xffffffffLL) == 1 && tilec_vmod(0x100000000LL, 7) == 0x100000000LL % 7, "edges of 32 bits");
}

int main(void)
{
    test_vdiv();
    test_rcp_fmaf();
    test_inv1p_host();
    return check_done("ops");
}
