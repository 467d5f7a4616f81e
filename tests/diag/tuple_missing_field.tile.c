/* Every field of a struct literal needs a value: it gives the tile's shape. */
#include <tilec.h>
struct pair { float lo, hi; };
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    float x = tile_zeros(float, .shape = {4});
    struct pair p = (struct pair){.hi = x};
    tile_store(c, p.hi, .index = {0});
}
// expect: tests/diag/tuple_missing_field.tile.c:7:21: error: field 'lo' of struct pair has no value
