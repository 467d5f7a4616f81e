/* address-of in SIMT code outside an atomic's first argument: rejected. */
#include <tilec.h>
SIMT_KERNEL void k(TILE_ARRAY(int, 1) a)
{
    int x = 0;
    int y = (int)(long)&x;
    a[simt_tid(0)] = y;
}
// expect: tests/diag/simt_address_of.tile.c:6:24: error: address-of '&' is not allowed here in SIMT code
// expect: tests/diag/simt_address_of.tile.c:6:24: note: fix: pointers exist in SIMT code only as an atomic's operand, e.g. simt_atomic_add(&a[i], v)
// expect: tests/diag/simt_address_of.tile.c:7:22: error: global variable 'y' cannot be used in SIMT code
// expect: tests/diag/simt_address_of.tile.c:7:22: note: fix: pass it as a kernel parameter, or use an enum or #define constant
// expect-no-other-errors
