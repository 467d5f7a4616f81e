/* deref: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {4}) + *a, .index = {0});
}
// expect: tests/diag/deref.tile.c:5:53: error: pointer dereference '*' is not allowed in tile code
