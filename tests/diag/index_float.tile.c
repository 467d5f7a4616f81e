/* index float: a tile index must be an integer. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c, float i)
{
    float t = tile_load(a, .index = {i}, .shape = {4});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/index_float.tile.c:5:38: error: a tile index must be an integer, not float32
// expect: tests/diag/index_float.tile.c:5:38: note: fix: cast it to an integer type
