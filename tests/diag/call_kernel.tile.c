/* call kernel: a kernel cannot be called from tile code; the message says so (not "mark it TILE_FUNC"). */
#include <tilec.h>
TILE_KERNEL void other(TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    other(c);
}
// expect: tests/diag/call_kernel.tile.c:9:5: error: kernel 'other' cannot be called from tile code; mark a helper TILE_FUNC
