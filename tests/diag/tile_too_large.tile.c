/* tile too large: a tile of more than 2^20 elements. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 2) c)
{
    tile_store(c, tile_zeros(float, .shape = {2048, 1024}), .index = {0, 0});
}
// expect: tests/diag/tile_too_large.tile.c:5:38: error: tile of 2097152 elements is too large (at most 2^20)
