/* test_simt_narrow.c: checks the host target's float16 and bfloat16
 * operations of SIMT code (runtime/tilec_simt.h: computed in float, rounded
 * once) against float64 references rounded once (exact for + - *, and
 * correctly rounded division, 53 >= 2p + 2 bits): random operand pairs of
 * every magnitude, subnormals and overflow included, and the special
 * values (signed zeros, infinities, NaN); comparisons with NaN unordered,
 * negation as a sign flip, conversions from double and 64-bit integers
 * rounding once. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "tilec_simt.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd64(void) /* splitmix64 */
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* a random finite pattern (NaN and infinity excluded) */
static uint16_t finite16(int bf)
{
    for (;;) {
        uint16_t b = (uint16_t)rnd64();
        if (bf ? (b & 0x7F80u) != 0x7F80u : (b & 0x7C00u) != 0x7C00u) return b;
    }
}

static double dec(int bf, uint16_t b) { return bf ? tilec_bf16_to_double(b) : tilec_f16_to_double(b); }
static uint16_t enc(int bf, double v) { return bf ? tilec_bf16_from_double(v, TILEC_RN) : tilec_f16_from_double(v, TILEC_RN); }

/* op of a and b through the helpers */
static uint16_t helper(int bf, int op, uint16_t a, uint16_t b)
{
    if (bf) {
        tilec_simt_bf16 x = tilec_simt_bf16_bits(a), y = tilec_simt_bf16_bits(b);
        return (op == 0 ? tilec_simt_bf16_add(x, y) : op == 1 ? tilec_simt_bf16_sub(x, y)
                : op == 2 ? tilec_simt_bf16_mul(x, y) : tilec_simt_bf16_div(x, y)).bits;
    }
    tilec_simt_f16 x = tilec_simt_f16_bits(a), y = tilec_simt_f16_bits(b);
    return (op == 0 ? tilec_simt_f16_add(x, y) : op == 1 ? tilec_simt_f16_sub(x, y)
            : op == 2 ? tilec_simt_f16_mul(x, y) : tilec_simt_f16_div(x, y)).bits;
}

static uint16_t reference(int bf, int op, uint16_t a, uint16_t b)
{
    double x = dec(bf, a), y = dec(bf, b);
    double r = op == 0 ? x + y : op == 1 ? x - y : op == 2 ? x * y : x / y;
    return r != r ? (uint16_t)0x7FFFu : enc(bf, r); /* NaN: the canonical one (cvt.rn.*.f32's) */
}

static void random_pairs(int bf)
{
    static const char *const ops = "+-*/";
    int bad = 0;
    for (int op = 0; op < 4; op++)
        for (int k = 0; k < 1000000; k++) {
            uint16_t a = finite16(bf), b = finite16(bf);
            if (k & 1) b = (uint16_t)((b & 0x83FFu) | (a & 0x7C00u)); /* near magnitudes: cancellation, ties */
            uint16_t got = helper(bf, op, a, b), want = reference(bf, op, a, b);
            if (got != want && bad++ < 5)
                fprintf(stderr, "%s: 0x%04x %c 0x%04x = 0x%04x, want 0x%04x\n", bf ? "bf16" : "f16", a, ops[op], b, got, want);
            check_passed_ += got == want;
        }
    CHECK(bad == 0, "%d of 4000000 %s results differ", bad, bf ? "bfloat16" : "float16");
}

static void specials(void)
{
    const uint16_t pz = 0x0000, nz = 0x8000, one = 0x3C00, pinf = 0x7C00, ninf = 0xFC00, nan = 0x7E00;
    CHECK_INT(helper(0, 0, nz, nz), nz);   /* -0 + -0 = -0 */
    CHECK_INT(helper(0, 1, pz, pz), pz);   /* 0 - 0 = +0 */
    CHECK_INT(helper(0, 1, one, one), pz); /* x - x = +0 */
    CHECK_INT(helper(0, 2, nz, one), nz);  /* -0 * 1 = -0 */
    CHECK_INT(helper(0, 3, one, pz), pinf);
    CHECK_INT(helper(0, 3, one, nz), ninf);
    CHECK_INT(helper(0, 0, pinf, ninf), 0x7FFF); /* inf - inf: the canonical NaN */
    CHECK_INT(helper(0, 2, 0x7BFF, 0x4000), pinf); /* 65504 * 2 overflows */
    CHECK_INT(helper(0, 0, 0x0001, 0x0001), 0x0002); /* subnormals: 2^-24 + 2^-24 */
    CHECK_INT(helper(0, 2, 0x0001, 0x3800), 0x0000); /* 2^-25: a tie, to even (0) */
    CHECK_INT(helper(0, 0, 0x6800, one), 0x6800);    /* 2048 + 1: a tie, to even */
    CHECK_INT(helper(1, 0, 0x4380, 0x3F80), 0x4380); /* bfloat16 256 + 1: a tie, to even */
    CHECK_INT(helper(1, 3, 0x3F80, 0x0000), 0x7F80);
    tilec_simt_f16 n = tilec_simt_f16_bits(nan), o = tilec_simt_f16_bits(one);
    CHECK(!tilec_simt_f16_eq(n, n) && tilec_simt_f16_ne(n, n) && !tilec_simt_f16_lt(n, o) && !tilec_simt_f16_ge(n, o),
          "NaN compares unordered");
    CHECK(tilec_simt_f16_eq(tilec_simt_f16_bits(pz), tilec_simt_f16_bits(nz)), "-0 == +0");
    CHECK(tilec_simt_f16_lt(tilec_simt_f16_bits(ninf), o) && tilec_simt_f16_le(o, o) && tilec_simt_f16_gt(o, tilec_simt_f16_bits(nz)),
          "ordered comparisons");
    CHECK_INT(tilec_simt_f16_neg(o).bits, 0xBC00);
    CHECK_INT(tilec_simt_bf16_neg(tilec_simt_bf16_bits(0x0000)).bits, 0x8000);
    CHECK(tilec_simt_bf16_gt(tilec_simt_bf16_bits(0x3F81), tilec_simt_bf16_bits(0x3F80)), "bfloat16 comparison");
    CHECK(tilec_simt_f16_to_f32(tilec_simt_f16_bits(0x3555)) == 0x1.554p-2f, "widening is exact");
}

/* conversions round once from the source: 2049 is a float16 tie; 0x1000001
 * (2^24 + 1) rounds to 2^24 through float, and bfloat16 must see the +1
 * only when it decides a tie: 2^24 + 2^16 + 1 rounds up directly (through
 * float, 2^24 + 2^16 is a tie and goes to even) */
static void conversions(void)
{
    CHECK_INT(tilec_simt_f16_from_i64(2049).bits, 0x6800);
    CHECK_INT(tilec_simt_f16_from_i64(-2051).bits, 0xE802);
    CHECK_INT(tilec_simt_f16_from_u64(UINT64_MAX).bits, 0x7C00);
    CHECK_INT(tilec_simt_bf16_from_i64((1 << 24) + (1 << 16) + 1).bits, 0x4B81);
    CHECK_INT(tilec_simt_bf16_from_u64(((uint64_t)1 << 40) + ((uint64_t)1 << 32) + 1).bits, 0x5381);
    CHECK_INT(tilec_simt_f16_from_f64(1.0 + 0x1p-11 + 0x1p-40).bits, 0x3C01); /* above the tie in double only */
    CHECK_INT(tilec_simt_f16_from_f32(1.0f + 0x1p-11f).bits, 0x3C00);         /* the tie itself: to even */
    CHECK_INT(tilec_simt_bf16_from_f64(-0.0).bits, 0x8000);
    CHECK_INT(tilec_simt_f16_from_f32(NAN).bits, 0x7FFF);
}

int main(void)
{
    random_pairs(0);
    random_pairs(1);
    specials();
    conversions();
    return check_done("test_simt_narrow");
}
