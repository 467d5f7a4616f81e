/* array kernel ndarray in tile kernel: a TILE_NDARRAY parameter of a TILE_KERNEL is rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_NDARRAY(const float, 1) x, TILE_ARRAY(float, 1) y)
{
    tile_store(y, tile_zeros(float, .shape = {16}), .index = {0});
}
// expect: tests/diag/array_kernel_ndarray_in_tile_kernel.tile.c:3:49: error: TILE_NDARRAY parameter 'x' belongs to an array kernel or a graph
// expect:     3 | TILE_KERNEL void k(TILE_NDARRAY(const float, 1) x, TILE_ARRAY(float, 1) y)
// expect:       |                                                 ^
// expect: tests/diag/array_kernel_ndarray_in_tile_kernel.tile.c:3:49: note: fix: mark the function TILE_ARRAY_KERNEL, or declare the parameter TILE_ARRAY(T, rank)
// expect-no-other-errors
