/* A TILE_TUNABLE constant in a kernel whose grid the launcher cannot work
 * out (no access indexed by tile_bid(0) itself): the launcher takes no grid,
 * so this is an error at the constant. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c, TILE_TUNABLE(int, 16, 32) BN)
{
    int i = tile_bid(0) * 2;
    tile_store(c, tile_load(a, .index = {i}, .shape = {BN}), .index = {i});
}
// expect: tests/diag/tunable_no_grid.tile.c:5:100: error: tunable constant 'BN': the launcher cannot work out the grid from the arrays: no tile_store or tile_load of 'k' has tile_bid(0) as an .index entry
