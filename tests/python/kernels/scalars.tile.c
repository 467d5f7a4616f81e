/* scalars.tile.c: integer scalar parameters of several widths, for the
 * Python module's range checks (tests/python/test_scalars.py). */
#include <tilec.h>

/* a[i] += k + u + s, one 256-element tile per block. */
TILE_KERNEL void add_scalars(TILE_ARRAY(int64_t, 1) a, int32_t k, uint8_t u, int16_t s)
{
    int pid = tile_bid(0);
    int64_t x = tile_load(a, .index = {pid}, .shape = {256});
    tile_store(a, x + k + tile_cast(u, int64_t) + s, .index = {pid});
}
