/* break outside loop: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    break;
}
// expect: tests/diag/break_outside_loop.tile.c:5:5: error: 'break' statement not in loop or switch statement
