/* ops_float.tile.c: float32 and float64 operators and every math function
 * on special values (NaN, +-inf, +-0, subnormals, huge values) as well as
 * ordinary ones, compound assignments, comparisons and selection with NaN,
 * mixed float32/float64/integer promotion, tile_truediv of integers, and the
 * .approx versions.  tests/kernels/ops covers the plain operators on ordinary
 * values; this test is about the corners.  One row of the (R, N) output per
 * expression; kernels hold a few rows each to keep generated functions small. */
#include <tilec.h>

#define ROW(k, v) tile_store(o, tile_expand_dims(v, .axis = 0), .index = {k, pid})
#define LOADS(T)                                                                                            \
    int pid = tile_bid(0);                                                                                  \
    T x = tile_load(a, .index = {pid}, .shape = {64}, .padding = TILE_PAD_NAN);                             \
    T y = tile_load(b, .index = {pid}, .shape = {64}, .padding = TILE_PAD_NAN)

#define KERNELS(T, S)                                                                                       \
    /* arithmetic and compound assignment */                                                                \
    TILE_KERNEL void arith_##S(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const T, 1) b, TILE_ARRAY(T, 2) o)      \
    {                                                                                                       \
        LOADS(T);                                                                                           \
        ROW(0, x + y);                                                                                      \
        ROW(1, x - y);                                                                                      \
        ROW(2, x * y);                                                                                      \
        ROW(3, x / y);                                                                                      \
        ROW(4, -x);                                                                                         \
        T t = x;                                                                                            \
        t += y;                                                                                             \
        t *= 0.5;                                                                                           \
        t -= 1;                                                                                             \
        t /= y;                                                                                             \
        ROW(5, t);                                                                                          \
    }                                                                                                       \
    /* comparisons (NaN compares unequal to everything), selection, logic */                                 \
    TILE_KERNEL void compare_##S(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const T, 1) b, TILE_ARRAY(T, 2) o)    \
    {                                                                                                       \
        LOADS(T);                                                                                           \
        ROW(0, (T)(x < y) + (T)(x <= y) * 2 + (T)(x == y) * 4 + (T)(x != y) * 8 + (T)(x > y) * 16 +           \
                   (T)(x >= y) * 32);                                                                       \
        ROW(1, tile_where(x > y, x, y));                                                                    \
        ROW(2, x != x ? y : x);                                                                             \
        ROW(3, (T)(!x) + (T)(x && y) * 2 + (T)(x || y) * 4);                                                \
    }                                                                                                       \
    TILE_KERNEL void math1_##S(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const T, 1) b, TILE_ARRAY(T, 2) o)      \
    {                                                                                                       \
        LOADS(T);                                                                                           \
        ROW(0, tile_exp(x));                                                                                \
        ROW(1, tile_exp2(y));                                                                               \
        ROW(2, tile_log(x));                                                                                \
        ROW(3, tile_log2(y));                                                                               \
        ROW(4, tile_sqrt(x));                                                                               \
        ROW(5, tile_rsqrt(y));                                                                              \
    }                                                                                                       \
    TILE_KERNEL void math2_##S(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const T, 1) b, TILE_ARRAY(T, 2) o)      \
    {                                                                                                       \
        LOADS(T);                                                                                           \
        ROW(0, tile_sin(x));                                                                                \
        ROW(1, tile_cos(y));                                                                                \
        ROW(2, tile_tanh(x));                                                                               \
        ROW(3, tile_abs(y));                                                                                \
        ROW(4, tile_floor(x));                                                                              \
        ROW(5, tile_ceil(y));                                                                               \
    }                                                                                                       \
    TILE_KERNEL void math3_##S(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const T, 1) b, TILE_ARRAY(T, 2) o)      \
    {                                                                                                       \
        LOADS(T);                                                                                           \
        ROW(0, tile_pow(x, y));                                                                             \
        ROW(1, tile_fma(x, y, x));                                                                          \
        ROW(2, tile_minimum(x, y));                                                                         \
        ROW(3, tile_maximum(x, y));                                                                         \
        ROW(4, tile_truediv(x, y));                                                                         \
    }
KERNELS(float, f32)
KERNELS(double, f64)

/* The fast versions (on the GPU; the host has no faster ones). */
TILE_KERNEL void approx(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 2) o)
{
    int pid = tile_bid(0);
    float x = tile_load(a, .index = {pid}, .shape = {64});
    ROW(0, tile_exp(x, .approx = true));
    ROW(1, tile_log(tile_abs(x) + 0.125f, .approx = true));
    ROW(2, tile_sin(x, .rounding = TILE_APPROX));
    ROW(3, tile_cos(x, .approx = true));
    ROW(4, tile_tanh(x, .approx = true));
}

/* 1 + tanh(x) and its mirror forms, which the GPU computes as
 * 2 / (1 + e^(-2x)) (docs/language.md section 10), and the tanh form of
 * GELU that is written with them. */
TILE_KERNEL void tanh_forms(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 2) o)
{
    int pid = tile_bid(0);
    float x = tile_load(a, .index = {pid}, .shape = {64}, .padding = TILE_PAD_NAN);
    ROW(0, 1.0f + tile_tanh(x));
    ROW(1, tile_tanh(x) + 1);
    ROW(2, 1.0f - tile_tanh(x));
    ROW(3, 0.5f * x * (1.0f + tile_tanh(0.7978845608f * (x + 0.044715f * x * x * x))));
}

/* The same forms on tiles of 1024, several elements a thread, computed
 * where the loaded elements live (no shared memory between the load and
 * the form): there the GPU sends two of every five elements' reciprocal to
 * the FMA pipe and the others to the MUFU unit (tilec_inv1p_exp2f_at), so
 * both ways run on the specials and the range. */
TILE_KERNEL void tanh_forms_wide(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) o0, TILE_ARRAY(float, 1) o1)
{
    int pid = tile_bid(0);
    float x = tile_load(a, .index = {pid}, .shape = {1024}, .padding = TILE_PAD_NAN);
    tile_store(o0, 1.0f + tile_tanh(x), .index = {pid});
    tile_store(o1, 0.5f * x * (1.0f + tile_tanh(0.7978845608f * (x + 0.044715f * x * x * x))), .index = {pid});
}

/* Promotion across float widths and categories; rows widened into float64. */
TILE_KERNEL void mixed(TILE_ARRAY(const float, 1) a, TILE_ARRAY(const double, 1) b, TILE_ARRAY(const int32_t, 1) c,
                       TILE_ARRAY(const int32_t, 1) d, TILE_ARRAY(const int64_t, 1) e, TILE_ARRAY(double, 2) o)
{
    int pid = tile_bid(0);
    float x = tile_load(a, .index = {pid}, .shape = {64});
    double y = tile_load(b, .index = {pid}, .shape = {64});
    int32_t i = tile_load(c, .index = {pid}, .shape = {64});
    int32_t j = tile_load(d, .index = {pid}, .shape = {64});
    int64_t k = tile_load(e, .index = {pid}, .shape = {64});
    ROW(0, x + y);                  /* float64 */
    ROW(1, x * i);                  /* float32: i converted to float32 */
    ROW(2, i + 1.5);                /* float32: the constant is float32 */
    ROW(3, tile_truediv(i, j));     /* float32 */
    ROW(4, tile_truediv(k, i));     /* float64 from 64-bit integers */
    ROW(5, k + y);                  /* float64 */
    ROW(6, x * 2.5);                /* float32 */
    ROW(7, x + 1e300);              /* float32: the constant rounds to inf */
    double t = y;
    t += x;
    t *= i;
    t /= 3;
    t -= 0.25;
    ROW(8, t);                      /* compound assignments mixing types, float64 */
    ROW(9, tile_where(x > y, x, y)); /* float64 */
}
