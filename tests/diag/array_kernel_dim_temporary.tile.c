/* array kernel dim temporary: tile_dim takes an array parameter, not a temporary. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 1) x)
{
    float t = x * 2;
    y = t + tile_dim(t, 0);
}
// expect: tests/diag/array_kernel_dim_temporary.tile.c:6:13: error: tile_dim takes an array parameter of the array kernel and an axis
// expect:     6 |     y = t + tile_dim(t, 0);
// expect:       |             ^~~~~~~~
// expect-no-other-errors
