/* subscript store: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    c[0] = 1.0f;
}
// expect: tests/diag/subscript_store.tile.c:5:5: error: arrays can only be written through tile_store
