/* factories.tile.c: tile_zeros, tile_ones, tile_full and tile_arange for
 * every dtype that has them (zeros and ones for tf32 and the float8 types
 * too), at the limits of the integer types, with floating constants that
 * round to the narrow types (0.1) or are signed zeros, with run-time fill
 * values (scalar parameters), in 1-D, 2-D and 3-D shapes combined by
 * broadcasting, and with a TILE_CONST extent.  Row k of a (R, 64) output
 * holds factory k. */
#include <tilec.h>

#define ROW(k, v) tile_store(o, tile_expand_dims(v, .axis = 0), .index = {k, 0})

#define FAC(T, S, V)                                                                                        \
    TILE_KERNEL void fac_##S(TILE_ARRAY(T, 2) o)                                                            \
    {                                                                                                       \
        ROW(0, tile_zeros(T, .shape = {64}));                                                               \
        ROW(1, tile_ones(T, .shape = {64}));                                                                \
        ROW(2, tile_full(T, V, .shape = {64}));                                                             \
        ROW(3, tile_arange(T, .shape = {64}));                                                              \
    }
FAC(int8_t, i8, 127)
FAC(int16_t, i16, 32767)
FAC(int32_t, i32, 2147483647)
FAC(int64_t, i64, 9223372036854775807LL)
FAC(uint8_t, u8, 255)
FAC(uint16_t, u16, 65535)
FAC(uint32_t, u32, 4294967295u)
FAC(uint64_t, u64, 18446744073709551615ull)
FAC(_Float16, f16, 0.1)
FAC(__bf16, bf16, 0.1)
FAC(float, f32, 0.1)
FAC(double, f64, 0.1)

TILE_KERNEL void fac_bool(TILE_ARRAY(bool, 2) o)
{
    ROW(0, tile_zeros(bool, .shape = {64}));
    ROW(1, tile_ones(bool, .shape = {64}));
    ROW(2, tile_full(bool, (bool)1, .shape = {64}));
}

/* Restricted types: zeros and ones only. */
TILE_KERNEL void fac_restricted(TILE_ARRAY(tilec_tf32, 2) t, TILE_ARRAY(tilec_fp8_e4m3, 2) e4,
                                TILE_ARRAY(tilec_fp8_e5m2, 2) e5)
{
    tile_store(t, tile_zeros(tilec_tf32, .shape = {1, 64}), .index = {0, 0});
    tile_store(t, tile_ones(tilec_tf32, .shape = {1, 64}), .index = {1, 0});
    tile_store(e4, tile_zeros(tilec_fp8_e4m3, .shape = {1, 64}), .index = {0, 0});
    tile_store(e4, tile_ones(tilec_fp8_e4m3, .shape = {1, 64}), .index = {1, 0});
    tile_store(e5, tile_zeros(tilec_fp8_e5m2, .shape = {1, 64}), .index = {0, 0});
    tile_store(e5, tile_ones(tilec_fp8_e5m2, .shape = {1, 64}), .index = {1, 0});
}

/* Signed zeros and constants beyond the type's range. */
TILE_KERNEL void fac_special(TILE_ARRAY(double, 1) d, TILE_ARRAY(float, 1) f, TILE_ARRAY(_Float16, 1) h)
{
    tile_store(d, tile_cat(tile_full(double, -0.0, .shape = {2}), tile_full(double, 1e300, .shape = {2}), .axis = 0),
               .index = {0});
    tile_store(f, tile_cat(tile_full(float, -0.0f, .shape = {2}), tile_full(float, 1e300, .shape = {2}), .axis = 0),
               .index = {0});
    tile_store(h, tile_cat(tile_full(_Float16, 65520.0, .shape = {2}), tile_full(_Float16, 1e-8, .shape = {2}), .axis = 0),
               .index = {0});
}

/* Shapes and broadcasting; s and n are run-time fill values; BN a compiled
 * extent. */
TILE_KERNEL void fac_shapes(TILE_ARRAY(float, 2) o2, TILE_ARRAY(int32_t, 3) o3, TILE_ARRAY(float, 1) o1,
                            TILE_ARRAY(int64_t, 1) ob, float s, int32_t n, TILE_CONST(int, 16, 32) BN)
{
    int pid = tile_bid(0);
    if (pid == 0) {
        float rows = tile_expand_dims(tile_arange(float, .shape = {4}), .axis = 1);
        tile_store(o2, rows * 10 + tile_arange(float, .shape = {8}) + tile_full(float, s, .shape = {1, 1}) +
                           tile_zeros(float, .shape = {4, 8}),
                   .index = {0, 0});
        tile_store(o3, tile_full(int32_t, n, .shape = {2, 4, 8}) + tile_arange(int32_t, .shape = {8}), .index = {0, 0, 0});
        tile_store(o1, tile_ones(float, .shape = {64}) * s + tile_arange(float, .shape = {64}), .index = {0});
    }
    tile_store(ob, tile_arange(int64_t, .shape = {BN}) + pid * BN, .index = {pid});
}
