/* pointer param: rejected. */
#include <tilec.h>
TILE_KERNEL void k(float *p, TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/pointer_param.tile.c:3:27: error: pointer parameter 'p' is not allowed in tile code
// expect: tests/diag/pointer_param.tile.c:3:27: note: fix: declare it as an array parameter of element type and rank, e.g. 'TILE_ARRAY(float, 1) p'
