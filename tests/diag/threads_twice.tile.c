/* Two TILE_THREADS parameters in one kernel: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, TILE_THREADS(256, 128) t1, TILE_THREADS(64) t2)
{
    tile_store(c, tile_zeros(float, .shape = {256}), .index = {tile_bid(0)});
}
// expect: tests/diag/threads_twice.tile.c:3:88: error: kernel 'k' has a second TILE_THREADS parameter ('t1' is the first)
