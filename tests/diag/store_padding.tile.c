/* store padding: tile_store takes no .padding. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {16}), .index = {0}, .padding = TILE_PAD_ZERO);
}
// expect: tests/diag/store_padding.tile.c:5:68: error: tile_store takes no .padding (stores are masked)
