/* array as value: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    tile_store(c, a + 1, .index = {0});
}
// expect: tests/diag/array_as_value.tile.c:5:19: error: passing 'const float *' to parameter of incompatible type 'double'
