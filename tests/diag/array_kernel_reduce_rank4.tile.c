/* array kernel reduce rank 4: array kernels reduce operands of rank 2 and 3. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 3) y, TILE_NDARRAY(const float, 4) x)
{
    y = tile_sum(x, .axis = 1);
}
// expect: tests/diag/array_kernel_reduce_rank4.tile.c:5:22: error: array kernels reduce operands of rank 2 and 3; this one has rank 4
// expect:     5 |     y = tile_sum(x, .axis = 1);
// expect:       |                      ^~~~
// expect-no-other-errors
