/* kernel returns: rejected. */
#include <tilec.h>
TILE_KERNEL int k(TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
    return 0;
}
// expect: tests/diag/kernel_returns.tile.c:3:17: error: kernel 'k' must return void
