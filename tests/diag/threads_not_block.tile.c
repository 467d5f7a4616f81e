/* TILE_THREADS lists a value that is no CUDA block size: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, TILE_THREADS(256, 100) threads)
{
    tile_store(c, tile_zeros(float, .shape = {256}), .index = {tile_bid(0)});
}
// expect: tests/diag/threads_not_block.tile.c:3:67: error: TILE_THREADS parameter 'threads': 100 threads is not a CUDA block size
