/* vec_add.tile.c: element-wise vector addition, the "hello world" of tile
 * programming (seed 000, example 1). */
#include <tilec.h>

/* c[i] = a[i] + b[i], one 1024-element tile per block; the last tile is
 * partial and masked. */
TILE_KERNEL void vec_add(TILE_ARRAY(const float, 1) a, TILE_ARRAY(const float, 1) b,
                         TILE_ARRAY(float, 1) c)
{
    int pid = tile_bid(0);
    float x = tile_load(a, .index = {pid}, .shape = {1024}, .padding = TILE_PAD_ZERO);
    float y = tile_load(b, .index = {pid}, .shape = {1024}, .padding = TILE_PAD_ZERO);
    tile_store(c, x + y, .index = {pid});
}
