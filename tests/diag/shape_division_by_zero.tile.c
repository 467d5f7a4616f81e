/* shape division by zero: a constant division by zero inside a shape. */
#include <tilec.h>
#define Z 0
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16 / Z});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/shape_division_by_zero.tile.c:6:52: error: integer division by constant zero
