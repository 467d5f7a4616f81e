/* array kernel matmul output rank: a kernel with a matrix product writes (M, N) arrays, and does not read its output in an operand. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const _Float16, 2) a, TILE_NDARRAY(const _Float16, 2) b)
{
    y = tile_matmul(a, b);
}
TILE_ARRAY_KERNEL void u(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) b)
{
    y = tile_matmul(y, b);
}
// expect: tests/diag/array_kernel_matmul_output_rank.tile.c:3:49: error: output 'y' has rank 1; a kernel with a matrix product writes arrays of the product's shape (M, N)
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const _Float16, 2) a, TILE_NDARRAY(const _Float16, 2) b)
// expect:       |                                                 ^
// expect: tests/diag/array_kernel_matmul_output_rank.tile.c:7:52: error: output 'y' is also read in the product's operand
// expect:     7 | TILE_ARRAY_KERNEL void u(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) b)
// expect:       |                                                    ^
// expect-no-other-errors
