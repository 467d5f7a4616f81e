/* _Float16 and __bf16 operands together in SIMT code: rejected with a fix
 * naming the __bf16 operand (clang would round it to _Float16; CUDA has no
 * such conversion), once per operator; assignments convert either way. */
#include <tilec.h>
SIMT_KERNEL void k(TILE_ARRAY(_Float16, 1) a, __bf16 g)
{
    _Float16 h = g;
    a[0] = a[1] * g;
    a[2] = h > 0 ? h : g;
}
// expect: tests/diag/simt_mixed_narrow.tile.c:8:12: error: operands of types _Float16 and __bf16: SIMT code does not convert one to the other implicitly
// expect: tests/diag/simt_mixed_narrow.tile.c:8:12: note: fix: convert one operand explicitly, e.g. to float: '(float)g'
// expect: tests/diag/simt_mixed_narrow.tile.c:9:12: error: operands of types _Float16 and __bf16: SIMT code does not convert one to the other implicitly
// expect: tests/diag/simt_mixed_narrow.tile.c:9:12: note: fix: convert one operand explicitly, e.g. to float: '(float)g'
// expect-no-other-errors
