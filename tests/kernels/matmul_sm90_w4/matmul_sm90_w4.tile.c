/* matmul_sm90_w4.tile.c: matmul_sm90.tile.c's kernels planned for 128
 * threads (one consumer warpgroup): their Hopper variants put two blocks on
 * an SM, each with a 128 x 128 (or 64-row) accumulator; tiles whose
 * accumulator does not fit one warpgroup's registers keep the mma.sync
 * kernel.  main.c is matmul_sm90's.
 * tilec-flags: --max-threads=128
 * nvcc-spills: allowed */
#define MM_FP8_BN 128
#define MM_FP8_BM 64, 128
#include "../matmul_sm90/matmul_sm90.tile.c"
