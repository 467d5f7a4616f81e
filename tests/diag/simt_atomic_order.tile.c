/* an atomic load with release order (C++'s rules). */
#include <tilec.h>
SIMT_KERNEL void k(TILE_ARRAY(int, 1) a)
{
    a[1] = simt_atomic_load(&a[0], .memory_order = TILE_RELEASE);
}
// expect: tests/diag/simt_atomic_order.tile.c:5:12: error: an atomic load cannot have release semantics
// expect: tests/diag/simt_atomic_order.tile.c:5:12: note: fix: use TILE_ACQUIRE, TILE_SEQ_CST or TILE_RELAXED
// expect-no-other-errors
