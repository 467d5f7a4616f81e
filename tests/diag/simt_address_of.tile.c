/* address-of in SIMT code outside an atomic's first argument: rejected,
 * once (the use of y, whose declaration failed, is not an error of its own). */
#include <tilec.h>
SIMT_KERNEL void k(TILE_ARRAY(int, 1) a)
{
    int x = 0;
    int y = (int)(long)&x;
    a[simt_tid(0)] = y;
}
// expect: tests/diag/simt_address_of.tile.c:7:24: error: address-of '&' is not allowed here in SIMT code
// expect: tests/diag/simt_address_of.tile.c:7:24: note: fix: pointers exist in SIMT code only as an atomic's operand, e.g. simt_atomic_add(&a[i], v)
// expect-no-other-errors
