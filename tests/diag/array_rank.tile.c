/* array rank: arrays have rank 1 to 8. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 9) c)
{
}
// expect: tests/diag/array_rank.tile.c:3:41: error: array parameter 'c' has rank 9; ranks 1 to 8 are supported
