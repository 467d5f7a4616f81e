/* mixed_precision.tile.c: seed 000's type promotion example: int16 + int32
 * -> int32, int32 + float32 -> float32, int16 + 1.0 -> float32 (a loose
 * constant takes float32 across categories), float16 + int -> float16. */
#include <tilec.h>

TILE_KERNEL void promote(TILE_ARRAY(const int16_t, 1) a16, TILE_ARRAY(const int32_t, 1) a32,
                         TILE_ARRAY(const float, 1) f32, TILE_ARRAY(const _Float16, 1) h,
                         TILE_ARRAY(float, 1) out, TILE_ARRAY(_Float16, 1) hout)
{
    int pid = tile_bid(0);
    int16_t x = tile_load(a16, .index = {pid}, .shape = {64});
    int32_t y = tile_load(a32, .index = {pid}, .shape = {64});
    float z = tile_load(f32, .index = {pid}, .shape = {64});
    _Float16 w = tile_load(h, .index = {pid}, .shape = {64});
    int32_t r1 = x + y;        /* int32 */
    float r2 = y + z;          /* float32 */
    auto r3 = x + 1.0;         /* float32 */
    tile_store(out, (float)r1 + r2 + r3, .index = {pid});
    tile_store(hout, w + x, .index = {pid}); /* float16 (x converted to float16) */
}
