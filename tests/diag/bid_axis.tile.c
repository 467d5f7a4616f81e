/* bid axis: tile_bid takes axis 0, 1 or 2. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {tile_bid(3)});
}
// expect: tests/diag/bid_axis.tile.c:5:71: error: tile_bid axis must be 0, 1 or 2
