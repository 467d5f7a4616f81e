/* transpose_view_t128.tile.c: transpose_view.tile.c's kernel with 128 threads per block.
 * tilec-flags: --max-threads=128 */
#define TRANSPOSE_NAME transpose_view_t128
#define TRANSPOSE_BH 64, 128 /* 256 spills with 128 threads */
#include "transpose_view.tile.c"
