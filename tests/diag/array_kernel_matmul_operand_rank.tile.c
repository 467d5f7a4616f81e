/* array kernel matmul operand rank: the product's operands read matrices, not rank-3 arrays; an operand must read a matrix. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const _Float16, 3) a, TILE_NDARRAY(const _Float16, 2) b)
{
    y = tile_matmul(a, b);
}
TILE_ARRAY_KERNEL void v(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const _Float16, 1) a, TILE_NDARRAY(const _Float16, 2) b)
{
    y = tile_matmul(a, b);
}
// expect: tests/diag/array_kernel_matmul_operand_rank.tile.c:5:21: error: the product's first operand reads 'a' of rank 3; a matrix product's operands are matrices (rank 2, or rank 1 broadcast along a matrix)
// expect:     5 |     y = tile_matmul(a, b);
// expect:       |                     ^
// expect: tests/diag/array_kernel_matmul_operand_rank.tile.c:9:21: error: the product's first operand reads no matrix (an array of rank 2)
// expect:     9 |     y = tile_matmul(a, b);
// expect:       |                     ^
// expect-no-other-errors
