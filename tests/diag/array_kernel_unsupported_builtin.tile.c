/* array kernel unsupported builtin: tile_arange, tile_mma, tile_cumsum and tile_argmax are not array-kernel operations; each statement is reported. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(float, 2) z, TILE_NDARRAY(int32_t, 1) i,
                         TILE_NDARRAY(float, 1) r, TILE_NDARRAY(const float, 2) a, TILE_NDARRAY(const float, 2) b)
{
    y = tile_mma(a, b, y);
    z = tile_cumsum(a, .axis = 1);
    i = tile_argmax(a, .axis = 1);
    r = tile_arange(float, .shape = {16});
}
// expect: tests/diag/array_kernel_unsupported_builtin.tile.c:6:9: error: tile_mma is not an array-kernel operation
// expect:     6 |     y = tile_mma(a, b, y);
// expect:       |         ^~~~~~~~
// expect: tests/diag/array_kernel_unsupported_builtin.tile.c:6:9: note: fix: array kernels take element-wise operations, tile_where, tile_cast, tile_dim, tile_sum, tile_prod, tile_max or tile_min along an axis, and one tile_matmul; write a tile kernel (TILE_KERNEL) for the rest
// expect: tests/diag/array_kernel_unsupported_builtin.tile.c:7:9: error: tile_cumsum is not an array-kernel operation
// expect:     7 |     z = tile_cumsum(a, .axis = 1);
// expect:       |         ^~~~~~~~~~~
// expect: tests/diag/array_kernel_unsupported_builtin.tile.c:7:9: note: fix: array kernels take element-wise operations, tile_where, tile_cast, tile_dim, tile_sum, tile_prod, tile_max or tile_min along an axis, and one tile_matmul; write a tile kernel (TILE_KERNEL) for the rest
// expect: tests/diag/array_kernel_unsupported_builtin.tile.c:8:9: error: tile_argmax is not an array-kernel operation
// expect:     8 |     i = tile_argmax(a, .axis = 1);
// expect:       |         ^~~~~~~~~~~
// expect: tests/diag/array_kernel_unsupported_builtin.tile.c:8:9: note: fix: array kernels take element-wise operations, tile_where, tile_cast, tile_dim, tile_sum, tile_prod, tile_max or tile_min along an axis, and one tile_matmul; write a tile kernel (TILE_KERNEL) for the rest
// expect: tests/diag/array_kernel_unsupported_builtin.tile.c:9:9: error: tile_arange is not an array-kernel operation
// expect:     9 |     r = tile_arange(float, .shape = {16});
// expect:       |         ^~~~~~~~~~~
// expect: tests/diag/array_kernel_unsupported_builtin.tile.c:9:9: note: fix: array kernels take element-wise operations, tile_where, tile_cast, tile_dim, tile_sum, tile_prod, tile_max or tile_min along an axis, and one tile_matmul; write a tile kernel (TILE_KERNEL) for the rest
// expect-no-other-errors
