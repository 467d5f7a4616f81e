/* vec_add.tile.c: c = a + b, float32, one BS-element tile per block; the
 * harness times every listed BS and reports the fastest. */
#include <tilec.h>

TILE_KERNEL void vec_add(TILE_ARRAY(const float, 1) a, TILE_ARRAY(const float, 1) b, TILE_ARRAY(float, 1) c,
                         TILE_CONST(int, 1024, 2048, 4096, 8192) BS)
{
    int pid = tile_bid(0);
    float x = tile_load(a, .index = {pid}, .shape = {BS}, .padding = TILE_PAD_ZERO);
    float y = tile_load(b, .index = {pid}, .shape = {BS}, .padding = TILE_PAD_ZERO);
    tile_store(c, x + y, .index = {pid});
}
