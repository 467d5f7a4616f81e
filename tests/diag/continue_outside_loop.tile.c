/* continue outside loop: continue outside a loop (clang's error, gcc format). */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    continue;
}
// expect: tests/diag/continue_outside_loop.tile.c:5:5: error: 'continue' statement not in loop statement
