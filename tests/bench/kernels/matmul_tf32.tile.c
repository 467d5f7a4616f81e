/* matmul_tf32.tile.c: matmul.tile.c's kernel with tf32 operands (float32
 * arrays whose values are read as tf32), float32 out, float32 accumulation:
 * what cuBLAS computes for float32 matrices when TF32 is allowed.  B is
 * read column-major, which the Hopper variant loads K-major with TMA for
 * wgmma's k8 tf32 form (tf32 has no transposed operands).  128-row tiles,
 * BK 32.
 * The WMMA kernel (other GPUs: tf32 is not pipelined there) of these tiles
 * spills registers; the Hopper variant's are checked on the device by
 * tests/gpu/sass_check.sh.
 * nvcc-spills: allowed */
#ifndef MATMUL_NAME /* matmul_tf32_w4.tile.c: 128 threads, BN 128 (ping-pong) */
#define MATMUL_NAME matmul_tf32
#define MATMUL_BN 256, 128
#endif
#define MATMUL_T tilec_tf32
#define MATMUL_OUT float
#define MATMUL_BM 128
#define MATMUL_BK 32
#include "matmul.tile.c"
