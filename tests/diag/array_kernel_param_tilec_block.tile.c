/* array kernel param tilec block: TILEC_BLOCK is the name of the tile extent tilec adds; a parameter cannot take it. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 1) x, float TILEC_BLOCK)
{
    y = x * TILEC_BLOCK;
}
// expect: tests/diag/array_kernel_param_tilec_block.tile.c:3:90: error: TILEC_BLOCK is the name of the tile extent tilec adds to array kernels; rename the parameter
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 1) x, float TILEC_BLOCK)
// expect:       |                                                                                          ^
// expect-no-other-errors
