/* mma shapes: rejected; the caret is on tile_matmul, not on the tile_store around it. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(float, 2) c)
{
    _Float16 x = tile_load(a, .index = {0, 0}, .shape = {16, 32});
    tile_store(c, tile_matmul(x, x), .index = {0, 0});
}
// expect: tests/diag/mma_shapes.tile.c:6:19: error: tile_matmul multiplies an (M,K) tile by a (K,N) tile, not (16,32) by (16,32)
