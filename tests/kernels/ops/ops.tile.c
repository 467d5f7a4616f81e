/* ops.tile.c: every element-wise operator and math function on every
 * integer and float dtype, and casts between all dtypes with every rounding
 * mode.  Each kernel writes one row of its output per operation. */
#include <tilec.h>

#define ROW(out, k, v) tile_store(out, tile_expand_dims(v, .axis = 0), .index = {k, pid})

/* Integer operators: wrapping + - *, defined / % << >> (0 for division by
 * zero and out-of-range shift counts), bitwise, comparisons, unary. */
#define INT_OPS(T, NAME)                                                                        \
    TILE_KERNEL void NAME(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const T, 1) b, TILE_ARRAY(T, 2) out) \
    {                                                                                            \
        int pid = tile_bid(0);                                                                   \
        T x = tile_load(a, .index = {pid}, .shape = {128});                                      \
        T y = tile_load(b, .index = {pid}, .shape = {128});                                      \
        ROW(out, 0, x + y);                                                                      \
        ROW(out, 1, x - y);                                                                      \
        ROW(out, 2, x * y);                                                                      \
        ROW(out, 3, x / y);                                                                      \
        ROW(out, 4, x % y);                                                                      \
        ROW(out, 5, x & y);                                                                      \
        ROW(out, 6, x | y);                                                                      \
        ROW(out, 7, x ^ y);                                                                      \
        ROW(out, 8, x << y);                                                                     \
        ROW(out, 9, x >> y);                                                                     \
        ROW(out, 10, (T)(x < y) + (T)(x <= y) * 2 + (T)(x == y) * 4 + (T)(x != y) * 8 + (T)(x > y) * 16 + (T)(x >= y) * 32); \
        ROW(out, 11, ~x);                                                                        \
        ROW(out, 12, -x);                                                                        \
        ROW(out, 13, tile_abs(x));                                                               \
        ROW(out, 14, tile_minimum(x, y));                                                        \
        ROW(out, 15, tile_maximum(x, y));                                                        \
        ROW(out, 16, tile_where(x > y, x, y + 1));                                               \
        ROW(out, 17, (T)(!x) + (T)(x && y) * 2 + (T)(x || y) * 4);                               \
    }
INT_OPS(int8_t, ops_i8)
INT_OPS(int16_t, ops_i16)
INT_OPS(int32_t, ops_i32)
INT_OPS(int64_t, ops_i64)
INT_OPS(uint8_t, ops_u8)
INT_OPS(uint16_t, ops_u16)
INT_OPS(uint32_t, ops_u32)
INT_OPS(uint64_t, ops_u64)

/* Float operators and every math function. */
#define FLOAT_OPS(T, NAME)                                                                      \
    TILE_KERNEL void NAME(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const T, 1) b, TILE_ARRAY(T, 2) out) \
    {                                                                                            \
        int pid = tile_bid(0);                                                                   \
        T x = tile_load(a, .index = {pid}, .shape = {128});                                      \
        T y = tile_load(b, .index = {pid}, .shape = {128});                                      \
        T p = tile_abs(x) + 0.5;                                                                 \
        ROW(out, 0, x + y);                                                                      \
        ROW(out, 1, x - y);                                                                      \
        ROW(out, 2, x * y);                                                                      \
        ROW(out, 3, x / y);                                                                      \
        ROW(out, 4, x * 2 - y);                                                                        \
        ROW(out, 5, (T)(x < y) + (T)(x == y) * 2 + (T)(x >= y) * 4);                             \
        ROW(out, 6, -x);                                                                         \
        ROW(out, 7, tile_exp(x));                                                                \
        ROW(out, 8, tile_exp2(x));                                                               \
        ROW(out, 9, tile_log(p));                                                                \
        ROW(out, 10, tile_log2(p));                                                              \
        ROW(out, 11, tile_sqrt(p));                                                              \
        ROW(out, 12, tile_rsqrt(p));                                                             \
        ROW(out, 13, tile_sin(x));                                                               \
        ROW(out, 14, tile_cos(x));                                                               \
        ROW(out, 15, tile_tanh(x));                                                              \
        ROW(out, 16, tile_abs(x));                                                               \
        ROW(out, 17, tile_floor(x));                                                             \
        ROW(out, 18, tile_ceil(x));                                                              \
        ROW(out, 19, tile_pow(p, y));                                                            \
        ROW(out, 20, tile_fma(x, y, p));                                                         \
        ROW(out, 21, tile_minimum(x, y));                                                        \
        ROW(out, 22, tile_maximum(x, y));                                                        \
        ROW(out, 23, tile_truediv(x, y));                                                        \
        ROW(out, 24, x > 0 ? x : y);                                                             \
    }
FLOAT_OPS(float, ops_f32)
FLOAT_OPS(double, ops_f64)

/* float16 and bfloat16 arithmetic: each operation rounded to the type. */
#define HALF_OPS(T, NAME)                                                                       \
    TILE_KERNEL void NAME(TILE_ARRAY(const T, 1) a, TILE_ARRAY(const T, 1) b, TILE_ARRAY(T, 2) out) \
    {                                                                                            \
        int pid = tile_bid(0);                                                                   \
        T x = tile_load(a, .index = {pid}, .shape = {128});                                      \
        T y = tile_load(b, .index = {pid}, .shape = {128});                                      \
        ROW(out, 0, x + y);                                                                      \
        ROW(out, 1, x - y);                                                                      \
        ROW(out, 2, x * y);                                                                      \
        ROW(out, 3, x / y);                                                                      \
        ROW(out, 4, x * y + x);                                                                  \
        ROW(out, 5, tile_sqrt(tile_abs(x)));                                                     \
        ROW(out, 6, x + 3);                                                                      \
    }
HALF_OPS(_Float16, ops_f16)
HALF_OPS(__bf16, ops_bf16)

/* Casts from float64 values to every dtype (default rounding), and to the
 * float types and int32 with each rounding mode. */
TILE_KERNEL void casts(TILE_ARRAY(const double, 1) x, TILE_ARRAY(bool, 1) o_b, TILE_ARRAY(int8_t, 1) o_i8,
                       TILE_ARRAY(int16_t, 1) o_i16, TILE_ARRAY(int32_t, 2) o_i32, TILE_ARRAY(int64_t, 1) o_i64,
                       TILE_ARRAY(uint8_t, 1) o_u8, TILE_ARRAY(uint16_t, 1) o_u16, TILE_ARRAY(uint32_t, 1) o_u32,
                       TILE_ARRAY(uint64_t, 1) o_u64, TILE_ARRAY(_Float16, 2) o_f16, TILE_ARRAY(__bf16, 2) o_bf16,
                       TILE_ARRAY(float, 2) o_f32, TILE_ARRAY(tilec_tf32, 1) o_tf32,
                       TILE_ARRAY(tilec_fp8_e4m3, 1) o_e4, TILE_ARRAY(tilec_fp8_e5m2, 1) o_e5)
{
    int pid = tile_bid(0);
    double v = tile_load(x, .index = {pid}, .shape = {128});
    tile_store(o_b, (bool)v, .index = {pid});
    tile_store(o_i8, (int8_t)v, .index = {pid});
    tile_store(o_i16, (int16_t)v, .index = {pid});
    tile_store(o_i64, (int64_t)v, .index = {pid});
    tile_store(o_u8, (uint8_t)v, .index = {pid});
    tile_store(o_u16, (uint16_t)v, .index = {pid});
    tile_store(o_u32, (uint32_t)v, .index = {pid});
    tile_store(o_u64, (uint64_t)v, .index = {pid});
    tile_store(o_tf32, tile_cast((float)v, tilec_tf32), .index = {pid});
    tile_store(o_e4, tile_cast(v, tilec_fp8_e4m3), .index = {pid});
    tile_store(o_e5, tile_cast(v, tilec_fp8_e5m2, .saturate = false), .index = {pid});
    ROW(o_i32, 0, (int32_t)v);
    ROW(o_i32, 1, tile_cast(v, int32_t, .rounding = TILE_RN));
    ROW(o_i32, 2, tile_cast(v, int32_t, .rounding = TILE_RM));
    ROW(o_i32, 3, tile_cast(v, int32_t, .rounding = TILE_RP));
    ROW(o_i32, 4, tile_cast(v, int32_t, .rounding = TILE_RZI));
    ROW(o_f16, 0, tile_cast(v, _Float16));
    ROW(o_f16, 1, tile_cast(v, _Float16, .rounding = TILE_RZ));
    ROW(o_f16, 2, tile_cast(v, _Float16, .rounding = TILE_RM));
    ROW(o_f16, 3, tile_cast(v, _Float16, .rounding = TILE_RP));
    ROW(o_bf16, 0, tile_cast(v, __bf16));
    ROW(o_bf16, 1, tile_cast(v, __bf16, .rounding = TILE_RZ));
    ROW(o_bf16, 2, tile_cast(v, __bf16, .rounding = TILE_RM));
    ROW(o_bf16, 3, tile_cast(v, __bf16, .rounding = TILE_RP));
    ROW(o_f32, 0, (float)v);
    ROW(o_f32, 1, tile_cast(v, float, .rounding = TILE_RZ));
    ROW(o_f32, 2, tile_cast(v, float, .rounding = TILE_RM));
    ROW(o_f32, 3, tile_cast(v, float, .rounding = TILE_RP));
    ROW(o_f32, 4, tile_cast(v, float, .rounding = TILE_RZI));
    ROW(o_f32, 5, (float)(int64_t)v);
    ROW(o_f32, 6, tile_cast((int64_t)v * 1000003, float, .rounding = TILE_RZ));
}

/* Every dtype back to float64, and factories. */
TILE_KERNEL void widen(TILE_ARRAY(const int8_t, 1) i8, TILE_ARRAY(const uint16_t, 1) u16, TILE_ARRAY(const _Float16, 1) f16,
                       TILE_ARRAY(const __bf16, 1) bf16, TILE_ARRAY(const tilec_fp8_e4m3, 1) e4,
                       TILE_ARRAY(const tilec_fp8_e5m2, 1) e5, TILE_ARRAY(const bool, 1) b, TILE_ARRAY(double, 2) out)
{
    int pid = tile_bid(0);
    ROW(out, 0, (double)tile_load(i8, .index = {pid}, .shape = {128}));
    ROW(out, 1, (double)tile_load(u16, .index = {pid}, .shape = {128}));
    ROW(out, 2, (double)tile_load(f16, .index = {pid}, .shape = {128}));
    ROW(out, 3, (double)tile_load(bf16, .index = {pid}, .shape = {128}));
    ROW(out, 4, (double)tile_load(e4, .index = {pid}, .shape = {128}));
    ROW(out, 5, (double)tile_load(e5, .index = {pid}, .shape = {128}));
    ROW(out, 6, (double)tile_load(b, .index = {pid}, .shape = {128}));
    ROW(out, 7, tile_zeros(double, .shape = {128}) + tile_ones(double, .shape = {128}) * 2 +
                    tile_full(double, 0.25, .shape = {128}) + (double)tile_arange(int32_t, .shape = {128}));
}
