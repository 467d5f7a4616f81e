/* tunable.tile.c: TILE_TUNABLE constants through the Python module: the
 * function takes neither BN, BM nor grid= (the launcher picks them; with no
 * --tuning, each tunable's first value) and writes BN into `o`, so the test
 * sees the choice.  K is an ordinary TILE_CONST, still an argument. */
#include <tilec.h>

TILE_KERNEL void scale_tuned(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, TILE_ARRAY(int32_t, 1) o,
                             float a, TILE_CONST(int, 1, 3) K, TILE_TUNABLE(int, 32, 16) BN,
                             TILE_TUNABLE(int, 2, 4) BM)
{
    float t = tile_load(x, .index = {tile_bid(1), tile_bid(0)}, .shape = {BM, BN});
    tile_store(y, t * a + K, .index = {tile_bid(1), tile_bid(0)});
    tile_store(o, tile_full(int32_t, BN * 100 + BM, .shape = {BN}), .index = {tile_bid(0)});
}
