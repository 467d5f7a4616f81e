#include <tilec.h>
/* A statement whose value is dropped is a named warning (gcc's tag); the
 * error after it (libclang's) makes tilec exit 1. */
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    float t = tile_zeros(float, .shape = {16});
    t * 2;
    // expect: tests/diag/unused_value.tile.c:7:7: warning: expression result unused [-Wunused-value]
    tile_store(c, t + q, .index = {0});
    // expect: tests/diag/unused_value.tile.c:9:23: error: use of undeclared identifier 'q'
}
