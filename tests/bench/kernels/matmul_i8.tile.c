/* matmul_i8.tile.c: matmul.tile.c's kernel with int8 operands, int32 out
 * and accumulation (exact), as torch._int_mm computes it.  B is read
 * column-major, which the Hopper variant loads K-major with TMA for wgmma's
 * k32 s8 form.  128-row tiles, BK 128.
 * The WMMA kernel (other GPUs: int8 is not pipelined there) of these tiles
 * spills registers; the Hopper variant's are checked on the device by
 * tests/gpu/sass_check.sh.
 * nvcc-spills: allowed */
#ifndef MATMUL_NAME /* matmul_i8_w4.tile.c: 128 threads, BN 128 (ping-pong) */
#define MATMUL_NAME matmul_i8
#define MATMUL_BN 256, 128
#endif
#define MATMUL_T int8_t
#define MATMUL_ACC int32_t
#define MATMUL_OUT int32_t
#define MATMUL_BM 128
#define MATMUL_BK 128
#include "matmul.tile.c"
