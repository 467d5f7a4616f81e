/* bias_row.tile.c: broadcasting a bias row over 2-D tiles (seed 000,
 * broadcasting): (BM, BN) + (BN,) -> (BM, BN). */
#include <tilec.h>

/* y = relu(x + bias), BN a compile-time block width. */
TILE_KERNEL void bias_relu(TILE_ARRAY(const float, 2) x, TILE_ARRAY(const float, 1) bias, TILE_ARRAY(float, 2) y,
                           TILE_CONST(int, 32, 64) BN)
{
    int i = tile_bid(0), j = tile_bid(1);
    float t = tile_load(x, .index = {i, j}, .shape = {8, BN});
    float b = tile_load(bias, .index = {j}, .shape = {BN});
    float s = t + b;
    tile_store(y, s > 0 ? s : 0.0f, .index = {i, j});
}
