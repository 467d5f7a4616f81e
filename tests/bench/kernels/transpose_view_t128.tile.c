/* transpose_view_t128.tile.c: transpose_view.tile.c's kernel with 128 threads per block.
 * tilec-flags: --max-threads=128 */
#define TRANSPOSE_NAME transpose_view_t128
#include "transpose_view.tile.c"
