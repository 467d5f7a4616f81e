/* casts.tile.c: conversions between all 16 dtypes, and the rounding modes.
 *
 * to_<dtype>: one kernel per destination dtype; row k of its (16, N) output
 * is source k (bool, int8 ... uint64, float16, bfloat16, float32, float64,
 * tf32, e4m3, e5m2) converted with the default rounding.  Even rows use a C
 * cast `(T)x`, odd rows `tile_cast(x, T)`.
 * modes_<dtype>: from a float source (and from int64/uint64), one output per
 * destination whose row m is the conversion with rounding mode m (RN, RZ,
 * RM, RP, then RZI for float sources), plus float8 without saturation.
 * Each block converts one element: a (1, 1) tile, so that the generated code
 * stays small while every pair is compiled and executed. */
#include <tilec.h>

#define SOURCES                                                                                             \
    TILE_ARRAY(const bool, 2) s0, TILE_ARRAY(const int8_t, 2) s1, TILE_ARRAY(const int16_t, 2) s2,             \
        TILE_ARRAY(const int32_t, 2) s3, TILE_ARRAY(const int64_t, 2) s4, TILE_ARRAY(const uint8_t, 2) s5,     \
        TILE_ARRAY(const uint16_t, 2) s6, TILE_ARRAY(const uint32_t, 2) s7, TILE_ARRAY(const uint64_t, 2) s8,  \
        TILE_ARRAY(const _Float16, 2) s9, TILE_ARRAY(const __bf16, 2) s10, TILE_ARRAY(const float, 2) s11,     \
        TILE_ARRAY(const double, 2) s12, TILE_ARRAY(const tilec_tf32, 2) s13,                                   \
        TILE_ARRAY(const tilec_fp8_e4m3, 2) s14, TILE_ARRAY(const tilec_fp8_e5m2, 2) s15

#define LD(s) tile_load(s, .index = {0, pid}, .shape = {1, 1})
#define C_ROW(T, k) tile_store(o, (T)LD(s##k), .index = {k, pid})
#define F_ROW(T, k) tile_store(o, tile_cast(LD(s##k), T), .index = {k, pid})

#define TO(T, NAME)                                                                                         \
    TILE_KERNEL void NAME(TILE_ARRAY(T, 2) o, SOURCES)                                                      \
    {                                                                                                       \
        int pid = tile_bid(0);                                                                              \
        C_ROW(T, 0); F_ROW(T, 1); C_ROW(T, 2); F_ROW(T, 3); C_ROW(T, 4); F_ROW(T, 5); C_ROW(T, 6);          \
        F_ROW(T, 7); C_ROW(T, 8); F_ROW(T, 9); C_ROW(T, 10); F_ROW(T, 11); C_ROW(T, 12); F_ROW(T, 13);      \
        C_ROW(T, 14); F_ROW(T, 15);                                                                         \
    }
TO(bool, to_bool)
TO(int8_t, to_i8)
TO(int16_t, to_i16)
TO(int32_t, to_i32)
TO(int64_t, to_i64)
TO(uint8_t, to_u8)
TO(uint16_t, to_u16)
TO(uint32_t, to_u32)
TO(uint64_t, to_u64)
TO(_Float16, to_f16)
TO(__bf16, to_bf16)
TO(float, to_f32)
TO(double, to_f64)
TO(tilec_tf32, to_tf32)
TO(tilec_fp8_e4m3, to_e4m3)
TO(tilec_fp8_e5m2, to_e5m2)

/* Row m of o: v converted to T with rounding mode m. */
#define MODES4(o, T)                                                                                        \
    tile_store(o, tile_cast(v, T, .rounding = TILE_RN), .index = {0, pid});                                 \
    tile_store(o, tile_cast(v, T, .rounding = TILE_RZ), .index = {1, pid});                                 \
    tile_store(o, tile_cast(v, T, .rounding = TILE_RM), .index = {2, pid});                                 \
    tile_store(o, tile_cast(v, T, .rounding = TILE_RP), .index = {3, pid})
#define MODES5(o, T) MODES4(o, T); tile_store(o, tile_cast(v, T, .rounding = TILE_RZI), .index = {4, pid})

/* float8 rows 5, 6: without saturation, RN and RZ. */
#define NOSAT(o, T)                                                                                         \
    tile_store(o, tile_cast(v, T, .saturate = false), .index = {5, pid});                                   \
    tile_store(o, tile_cast(v, T, .rounding = TILE_RZ, .saturate = false), .index = {6, pid})

TILE_KERNEL void modes_f64(TILE_ARRAY(const double, 2) x, TILE_ARRAY(float, 2) f32, TILE_ARRAY(tilec_tf32, 2) tf32,
                           TILE_ARRAY(tilec_fp8_e5m2, 2) e5)
{
    int pid = tile_bid(0);
    double v = LD(x);
    MODES5(f32, float);
    MODES4(tf32, tilec_tf32);
    MODES5(e5, tilec_fp8_e5m2);
    NOSAT(e5, tilec_fp8_e5m2);
}

TILE_KERNEL void modes_f32(TILE_ARRAY(const float, 2) x, TILE_ARRAY(_Float16, 2) f16, TILE_ARRAY(__bf16, 2) bf16,
                           TILE_ARRAY(tilec_fp8_e4m3, 2) e4, TILE_ARRAY(int16_t, 2) i16, TILE_ARRAY(uint32_t, 2) u32)
{
    int pid = tile_bid(0);
    float v = LD(x);
    MODES5(f16, _Float16);
    MODES5(bf16, __bf16);
    MODES5(e4, tilec_fp8_e4m3);
    NOSAT(e4, tilec_fp8_e4m3);
    MODES5(i16, int16_t);
    MODES5(u32, uint32_t);
}

TILE_KERNEL void modes_f16(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(__bf16, 2) bf16, TILE_ARRAY(tilec_fp8_e5m2, 2) e5,
                           TILE_ARRAY(uint8_t, 2) u8)
{
    int pid = tile_bid(0);
    _Float16 v = LD(x);
    MODES5(bf16, __bf16);
    MODES5(e5, tilec_fp8_e5m2);
    MODES5(u8, uint8_t);
}

TILE_KERNEL void modes_bf16(TILE_ARRAY(const __bf16, 2) x, TILE_ARRAY(_Float16, 2) f16, TILE_ARRAY(int32_t, 2) i32)
{
    int pid = tile_bid(0);
    __bf16 v = LD(x);
    MODES5(f16, _Float16);
    MODES5(i32, int32_t);
}

TILE_KERNEL void modes_i64(TILE_ARRAY(const int64_t, 2) x, TILE_ARRAY(float, 2) f32, TILE_ARRAY(__bf16, 2) bf16,
                           TILE_ARRAY(tilec_fp8_e5m2, 2) e5)
{
    int pid = tile_bid(0);
    int64_t v = LD(x);
    MODES4(f32, float);
    MODES4(bf16, __bf16);
    MODES4(e5, tilec_fp8_e5m2);
    NOSAT(e5, tilec_fp8_e5m2);
}

TILE_KERNEL void modes_u64(TILE_ARRAY(const uint64_t, 2) x, TILE_ARRAY(double, 2) f64)
{
    int pid = tile_bid(0);
    uint64_t v = LD(x);
    MODES4(f64, double);
}
