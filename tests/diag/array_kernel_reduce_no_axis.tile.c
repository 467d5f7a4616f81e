/* array kernel reduce no axis: a reduction without .axis (a whole-array total) is rejected. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x)
{
    y = tile_sum(x);
}
// expect: tests/diag/array_kernel_reduce_no_axis.tile.c:5:9: error: array kernels reduce along one axis; tile_sum without .axis reduces the whole array
// expect:     5 |     y = tile_sum(x);
// expect:       |         ^~~~~~~~
// expect: tests/diag/array_kernel_reduce_no_axis.tile.c:5:9: note: fix: reduce along an axis (.axis = k); a whole-array total is tile_atomic_add in a tile kernel (examples/array_sum)
// expect-no-other-errors
