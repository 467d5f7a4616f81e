/* switch: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int i = tile_bid(0);
    switch (i) { default: break; }
}
// expect: tests/diag/switch.tile.c:6:5: error: switch is not supported in tile code
