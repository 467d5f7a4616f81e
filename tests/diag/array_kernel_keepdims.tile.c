/* array kernel keepdims: array kernels reduce without .keepdims. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x)
{
    y = tile_max(x, .axis = 1, .keepdims = true);
}
// expect: tests/diag/array_kernel_keepdims.tile.c:5:33: error: array kernels reduce without .keepdims
// expect:     5 |     y = tile_max(x, .axis = 1, .keepdims = true);
// expect:       |                                 ^~~~~~~~
// expect: tests/diag/array_kernel_keepdims.tile.c:5:33: note: fix: drop .keepdims: the result broadcasts against the output's axes
// expect-no-other-errors
