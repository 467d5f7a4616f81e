/* array kernel matmul two places: an array read both in the product's operand and after the product is refused. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const _Float16, 2) a, TILE_NDARRAY(const _Float16, 2) b)
{
    y = tile_matmul(a, b) + a;
}
// expect: tests/diag/array_kernel_matmul_two_places.tile.c:3:84: error: 'a' is read in the product's first operand and after the product; a kernel with a matrix product reads each array in one place: an operand's, or the product's coordinates
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const _Float16, 2) a, TILE_NDARRAY(const _Float16, 2) b)
// expect:       |                                                                                    ^
// expect-no-other-errors
