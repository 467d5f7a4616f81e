/* SIMT_INTEROP exports a SIMT_FUNC; kernels are reached through tilec_kernel_NAME(). */
#include <tilec.h>
SIMT_INTEROP SIMT_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    c[simt_tid(0)] = 1.0f;
}
// expect: tests/diag/simt_interop_kernel.tile.c:3:31: error: SIMT_INTEROP marks a SIMT_FUNC, not a kernel
