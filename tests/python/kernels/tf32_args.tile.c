/* tf32_args.tile.c: a kernel with tf32 array parameters, for
 * tests/python/test_tf32_args.py: the generated module takes float32 arrays
 * for them (neither NumPy nor torch has a tf32 type). */
#include <tilec.h>

TILE_KERNEL void tf32_twice(TILE_ARRAY(const tilec_tf32, 1) a, TILE_ARRAY(float, 1) b)
{
    int pid = tile_bid(0);
    float x = tile_cast(tile_load(a, .index = {pid}, .shape = {64}), float);
    tile_store(b, 2.0f * x, .index = {pid});
}
