/* precision_pipeline.tile.c: seed 000's precision conversion pipeline.
 * convert: float32 -> float16 and bfloat16 in several rounding modes, float8
 * e4m3, tf32, and float16 back to float32.
 * pipeline64: float64 -> float32 -> float16, and float32 -> int32. */
#include <tilec.h>

TILE_KERNEL void convert(TILE_ARRAY(const float, 1) x, TILE_ARRAY(_Float16, 1) h_rn, TILE_ARRAY(_Float16, 1) h_rz,
                         TILE_ARRAY(__bf16, 1) b_rm, TILE_ARRAY(__bf16, 1) b_rp, TILE_ARRAY(tilec_fp8_e4m3, 1) e4,
                         TILE_ARRAY(float, 1) via_tf32, TILE_ARRAY(float, 1) back)
{
    int pid = tile_bid(0);
    float t = tile_load(x, .index = {pid}, .shape = {256});
    _Float16 h = tile_cast(t, _Float16);
    tile_store(h_rn, h, .index = {pid});
    tile_store(h_rz, tile_cast(t, _Float16, .rounding = TILE_RZ), .index = {pid});
    tile_store(b_rm, tile_cast(t, __bf16, .rounding = TILE_RM), .index = {pid});
    tile_store(b_rp, tile_cast(t, __bf16, .rounding = TILE_RP), .index = {pid});
    tile_store(e4, tile_cast(t, tilec_fp8_e4m3), .index = {pid});
    tile_store(via_tf32, tile_cast(tile_cast(t, tilec_tf32), float), .index = {pid});
    tile_store(back, (float)h, .index = {pid});
}

/* The seed's pipeline from float64: float64 -> float32 -> float16, and the
 * float32 value truncated to int32 (saturating). */
TILE_KERNEL void pipeline64(TILE_ARRAY(const double, 1) x, TILE_ARRAY(float, 1) f32, TILE_ARRAY(_Float16, 1) f16,
                            TILE_ARRAY(int32_t, 1) i32)
{
    int pid = tile_bid(0);
    float t = tile_cast(tile_load(x, .index = {pid}, .shape = {256}), float);
    tile_store(f32, t, .index = {pid});
    tile_store(f16, tile_cast(t, _Float16), .index = {pid});
    tile_store(i32, tile_cast(t, int32_t), .index = {pid});
}
