/* precision_pipeline.tile.c: seed 000's precision conversion pipeline:
 * float32 -> float16 and bfloat16 (each rounding mode), float8, tf32, and
 * back to float32. */
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
