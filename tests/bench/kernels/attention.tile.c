/* attention.tile.c: examples/attention's kernels (FlashAttention's forward
 * and backward in Tile C), float16 only, the forward with more tilings:
 * 64 or 128 query rows by 32, 64 or 128 keys. */
#define ATTN_FWD_BM 64, 128
#define ATTN_FWD_BN 32, 64, 128
#define ATTN_F16_ONLY
#include "../../../examples/attention/attention.tile.c"
