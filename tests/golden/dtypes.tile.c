/* dtypes.tile.c: every element type, promotions between them, casts with
 * rounding and saturation, true division and a tensor-core multiply. */
#include <tilec.h>

TILE_KERNEL void dtypes(TILE_ARRAY(const int8_t, 1) i8, TILE_ARRAY(const uint16_t, 1) u16,
                        TILE_ARRAY(const _Float16, 2) h, TILE_ARRAY(const __bf16, 1) bf,
                        TILE_ARRAY(double, 1) f64, TILE_ARRAY(uint64_t, 1) u64,
                        TILE_ARRAY(tilec_fp8_e5m2, 1) e5, TILE_ARRAY(float, 2) mm,
                        TILE_ARRAY(bool, 1) flags, double scale)
{
    int32_t p = tile_bid(0);
    int8_t a = tile_load(i8, .index = {p}, .shape = {32});
    uint16_t b = tile_load(u16, .index = {p}, .shape = {32});
    int64_t c = a + (int16_t)3;
    uint32_t d = b * 2u;
    _Float16 e = a + tile_reshape(tile_load(h, .index = {p, 0}, .shape = {1, 32}), .shape = {32});
    __bf16 f = tile_load(bf, .index = {p}, .shape = {32}) + 1;
    float g = tile_cast(f, float) + tile_cast(e, float, .rounding = TILE_RN);
    double q = tile_truediv(c, 3) + g * scale;
    tile_store(f64, tile_reshape(q, .shape = {32}), .index = {p});
    tile_store(u64, (uint64_t)d + tile_cast(q, uint64_t, .rounding = TILE_RZI, .saturate = true),
               .index = {p});
    tilec_tf32 t = tile_cast(g, tilec_tf32, .rounding = TILE_RZ);
    tilec_fp8_e4m3 e4 = tile_cast(g, tilec_fp8_e4m3, .saturate = false);
    tile_store(e5, tile_reshape(tile_cast(tile_cast(e4, float), tilec_fp8_e5m2), .shape = {32}),
               .index = {p});
    tile_store(flags, tile_reshape(tile_cast(t, float) > 0 || c < 0, .shape = {32}), .index = {p});
    _Float16 x = tile_load(h, .index = {p, 0}, .shape = {16, 16});
    tile_store(mm, tile_matmul(x, x), .index = {p, 0});
}

/* A second kernel in the file: int8 inputs accumulate in int32. */
TILE_KERNEL void dtypes_mma(TILE_ARRAY(const int8_t, 2) a, TILE_ARRAY(int32_t, 2) c)
{
    int8_t x = tile_load(a, .index = {tile_bid(0), 0}, .shape = {32, 16});
    int8_t y = tile_load(a, .index = {0, tile_bid(1)}, .shape = {16, 32});
    int32_t acc = tile_zeros(int32_t, .shape = {32, 32});
    acc = tile_mma(x, y, acc);
    tile_store(c, acc, .index = {tile_bid(0), tile_bid(1)});
}
