/* copy.tile.c: a tile copy, b = a, float32: tilec's own view of the memory
 * roofline (tests/bench/bench.py times it beside torch's copy_).  The tile
 * size is a compile-time constant; the harness times every listed value and
 * reports the fastest. */
#include <tilec.h>

TILE_KERNEL void copy(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) b, TILE_CONST(int, 1024, 2048, 4096, 8192) BS)
{
    int pid = tile_bid(0);
    tile_store(b, tile_load(a, .index = {pid}, .shape = {BS}), .index = {pid});
}
