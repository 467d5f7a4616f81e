/* main.c: matmul_sm90's checks on matmul_sm90_w4.tile.c's kernels (the same
 * kernels, planned for 128 threads). */
#define MATMUL_SM90_H "matmul_sm90_w4.h"
#define MM_FP8_BN_256 0 /* its mm_fp8 has BN 128 only */
#include "../matmul_sm90/main.c"
