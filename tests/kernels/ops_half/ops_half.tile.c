/* ops_half.tile.c: float16 and bfloat16 arithmetic, which Tile C rounds to
 * the narrow type after every operation: operators and compound assignments
 * on special values (NaN, +-inf, +-0, subnormals, the largest finite value,
 * overflow to inf), chains of operations, integer and floating constants and
 * integer tiles promoted to the narrow type, promotion to float32, math
 * functions (exp, sin, fma, pow), comparisons and selection.  One row of the
 * (R, N) output per expression.  Each block handles a one-element tile: the
 * element operations are what is tested here (tests/kernels/ops runs float16
 * and bfloat16 arithmetic on 128-element tiles), and it keeps the generated
 * code small. */
#include <tilec.h>

#define ROW(o, k, v) tile_store(o, tile_expand_dims(v, .axis = 0), .index = {k, pid})

#define KERNELS(T, S)                                                                                       \
    TILE_KERNEL void arith_##S(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const T, 1) b, TILE_ARRAY(T, 2) o)      \
    {                                                                                                       \
        int pid = tile_bid(0);                                                                              \
        T x = tile_load(a, .index = {pid}, .shape = {1});                                                  \
        T y = tile_load(b, .index = {pid}, .shape = {1});                                                  \
        ROW(o, 0, x + y);                                                                                   \
        ROW(o, 1, x - y);                                                                                   \
        ROW(o, 2, x * y);                                                                                   \
        ROW(o, 3, x / y);                                                                                   \
        ROW(o, 4, x * y + x);                                                                               \
        T t = x;                                                                                            \
        t += y;                                                                                             \
        t *= 3;                                                                                             \
        t -= 0.5;                                                                                           \
        t /= y;                                                                                             \
        ROW(o, 5, t);                                                                                       \
        ROW(o, 6, -x);                                                                                      \
    }                                                                                                       \
    /* integer tiles and constants take the narrow type; float32 wins */                                      \
    TILE_KERNEL void mixed_##S(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const int16_t, 1) c,                    \
                               TILE_ARRAY(const float, 1) f, TILE_ARRAY(T, 2) o, TILE_ARRAY(float, 2) o32)  \
    {                                                                                                       \
        int pid = tile_bid(0);                                                                              \
        T x = tile_load(a, .index = {pid}, .shape = {1});                                                  \
        int16_t i = tile_load(c, .index = {pid}, .shape = {1});                                            \
        float g = tile_load(f, .index = {pid}, .shape = {1});                                              \
        ROW(o, 0, x + i);                                                                                   \
        ROW(o, 1, x * 3);                                                                                   \
        ROW(o, 2, x + 0.1);                                                                                 \
        ROW(o, 3, i - x * x);                                                                               \
        ROW(o32, 0, x + g);                                                                                 \
        ROW(o32, 1, x * (g + 1));                                                                           \
    }                                                                                                       \
    TILE_KERNEL void exact_##S(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const T, 1) b, TILE_ARRAY(T, 2) o)      \
    {                                                                                                       \
        int pid = tile_bid(0);                                                                              \
        T x = tile_load(a, .index = {pid}, .shape = {1});                                                  \
        T y = tile_load(b, .index = {pid}, .shape = {1});                                                  \
        ROW(o, 0, tile_sqrt(x));                                                                            \
        ROW(o, 1, tile_abs(x));                                                                             \
        ROW(o, 2, tile_floor(y));                                                                           \
        ROW(o, 3, tile_ceil(y));                                                                            \
        ROW(o, 4, tile_minimum(x, y));                                                                      \
        ROW(o, 5, tile_maximum(x, y));                                                                      \
        ROW(o, 6, tile_where(x > y, x, y));                                                                 \
        ROW(o, 7, (T)(x < y) + (T)(x == y) * 2 + (T)(x != y) * 4 + (T)(x >= y) * 8);                         \
    }                                                                                                       \
    TILE_KERNEL void math_##S(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const T, 1) b, TILE_ARRAY(T, 2) o)       \
    {                                                                                                       \
        int pid = tile_bid(0);                                                                              \
        T x = tile_load(a, .index = {pid}, .shape = {1});                                                  \
        T y = tile_load(b, .index = {pid}, .shape = {1});                                                  \
        ROW(o, 0, tile_exp(x));                                                                             \
        ROW(o, 1, tile_sin(y));                                                                             \
        ROW(o, 2, tile_fma(x, y, x));                                                                       \
        ROW(o, 3, tile_pow(tile_abs(x), y));                                                                \
    }
KERNELS(_Float16, f16)
KERNELS(__bf16, bf16)
