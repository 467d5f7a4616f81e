/* layer_norm_t128.tile.c: layer_norm.tile.c's kernel with 128 threads per block.
 * tilec-flags: --max-threads=128 */
#define LAYER_NORM_NAME layer_norm_f16_t128
#include "layer_norm.tile.c"
