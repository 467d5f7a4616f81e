/* arange rank: tile_arange makes 1-d tiles. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_reshape(tile_arange(float, .shape = {4, 4}), .shape = {16}), .index = {0});
}
// expect: tests/diag/arange_rank.tile.c:5:52: error: tile_arange makes 1-d tiles; give one .shape entry
