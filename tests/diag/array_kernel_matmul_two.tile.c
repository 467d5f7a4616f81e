/* array kernel matmul two: an array kernel computes one matrix product; the second is reported, with a note at the first. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const _Float16, 2) a, TILE_NDARRAY(const _Float16, 2) b,
                         TILE_NDARRAY(const _Float16, 2) c)
{
    float t = tile_matmul(a, b);
    y = t + tile_matmul(a, c);
}
// expect: tests/diag/array_kernel_matmul_two.tile.c:7:13: error: an array kernel computes one matrix product; this is a second
// expect:     7 |     y = t + tile_matmul(a, c);
// expect:       |             ^~~~~~~~~~~
// expect: tests/diag/array_kernel_matmul_two.tile.c:6:15: note: the first
// expect:     6 |     float t = tile_matmul(a, b);
// expect:       |               ^~~~~~~~~~~
// expect-no-other-errors
