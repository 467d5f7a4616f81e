/* transpose_view_t64.tile.c: transpose_view.tile.c's kernel with 64 threads per block.
 * tilec-flags: --max-threads=64 */
#define TRANSPOSE_NAME transpose_view_t64
#define TRANSPOSE_BH 64 /* larger tiles spill with 64 threads */
#include "transpose_view.tile.c"
