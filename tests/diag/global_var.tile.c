/* global var: rejected. */
#include <tilec.h>
int offset = 2;
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {offset});
}
// expect: tests/diag/global_var.tile.c:6:62: error: tile code cannot use the global variable 'offset'
