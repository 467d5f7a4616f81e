/* array kernel matmul reduction: a matrix product and a reduction are not one array kernel. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const _Float16, 2) a, TILE_NDARRAY(const _Float16, 2) b)
{
    y = tile_sum(tile_matmul(a, b), .axis = 1);
}
// expect: tests/diag/array_kernel_matmul_reduction.tile.c:5:18: error: an array kernel with a matrix product (tile_matmul) has no reductions
// expect:     5 |     y = tile_sum(tile_matmul(a, b), .axis = 1);
// expect:       |                  ^~~~~~~~~~~
// expect: tests/diag/array_kernel_matmul_reduction.tile.c:5:18: note: fix: reduce in an array kernel of its own
// expect-no-other-errors
