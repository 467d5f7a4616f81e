/* bench.tile.c: the kernels the benchmark harness (tests/bench/bench.py)
 * times against their competitors. */
#include <tilec.h>

/* A tile copy: tilec's own view of the memory roofline. */
TILE_KERNEL void copy(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) b, TILE_CONST(int, 2048) BS)
{
    int pid = tile_bid(0);
    tile_store(b, tile_load(a, .index = {pid}, .shape = {BS}), .index = {pid});
}

/* c = a + b, float32. */
TILE_KERNEL void vec_add(TILE_ARRAY(const float, 1) a, TILE_ARRAY(const float, 1) b, TILE_ARRAY(float, 1) c,
                         TILE_CONST(int, 1024, 2048, 4096) BS)
{
    int pid = tile_bid(0);
    float x = tile_load(a, .index = {pid}, .shape = {BS});
    float y = tile_load(b, .index = {pid}, .shape = {BS});
    tile_store(c, x + y, .index = {pid});
}

/* Seed 002: A = B + C*D + sin(E)*F + 10, fused. */
TILE_KERNEL void fused_expr(TILE_ARRAY(float, 1) A, TILE_ARRAY(const float, 1) B, TILE_ARRAY(const float, 1) C,
                            TILE_ARRAY(const float, 1) D, TILE_ARRAY(const float, 1) E, TILE_ARRAY(const float, 1) F,
                            TILE_CONST(int, 1024, 2048) BS)
{
    int pid = tile_bid(0);
    float b = tile_load(B, .index = {pid}, .shape = {BS});
    float c = tile_load(C, .index = {pid}, .shape = {BS});
    float d = tile_load(D, .index = {pid}, .shape = {BS});
    float e = tile_load(E, .index = {pid}, .shape = {BS});
    float f = tile_load(F, .index = {pid}, .shape = {BS});
    tile_store(A, b + c * d + tile_sin(e) * f + 10, .index = {pid});
}

/* Row softmax, one row of N <= BN per block, float32.  Like Triton's
 * tutorial kernel it uses the fast exponential and one reciprocal per row;
 * softmax_f32_exact below is the correctly rounded version. */
TILE_KERNEL void softmax_f32(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, TILE_CONST(int, 4096) BN)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
    float e = tile_exp(t - tile_max(t, .axis = 1, .keepdims = true), .approx = true);
    float r = 1.0f / tile_sum(e, .axis = 1, .keepdims = true);
    tile_store(y, e * r, .index = {i, 0});
}

TILE_KERNEL void softmax_f32_exact(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, TILE_CONST(int, 4096) BN)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
    float e = tile_exp(t - tile_max(t, .axis = 1, .keepdims = true));
    tile_store(y, e / tile_sum(e, .axis = 1, .keepdims = true), .index = {i, 0});
}

/* Row softmax, float16 in and out, float32 inside (fast exponential and a
 * reciprocal per row, as Triton's tutorial kernel; _exact divides). */
TILE_KERNEL void softmax_f16(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(_Float16, 2) y, TILE_CONST(int, 8192) BN)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
    float e = tile_exp(t - tile_max(t, .axis = 1, .keepdims = true), .approx = true);
    float r = 1.0f / tile_sum(e, .axis = 1, .keepdims = true);
    tile_store(y, tile_cast(e * r, _Float16), .index = {i, 0});
}

TILE_KERNEL void softmax_f16_exact(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(_Float16, 2) y, TILE_CONST(int, 8192) BN)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN}, .padding = TILE_PAD_NEG_INF);
    float e = tile_exp(t - tile_max(t, .axis = 1, .keepdims = true));
    tile_store(y, tile_cast(e / tile_sum(e, .axis = 1, .keepdims = true), _Float16), .index = {i, 0});
}

/* Layer norm over rows (N == BN), float16 with weight and bias. */
TILE_KERNEL void layer_norm_f16(TILE_ARRAY(const _Float16, 2) x, TILE_ARRAY(const _Float16, 1) w,
                                TILE_ARRAY(const _Float16, 1) b, TILE_ARRAY(_Float16, 2) y, float eps,
                                TILE_CONST(int, 4096) BN)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {1, BN});
    float mean = tile_sum(t, .axis = 1, .keepdims = true) * (1.0f / BN);
    float d = t - mean;
    float var = tile_sum(d * d, .axis = 1, .keepdims = true) * (1.0f / BN);
    float wt = tile_load(w, .index = {0}, .shape = {BN});
    float bt = tile_load(b, .index = {0}, .shape = {BN});
    tile_store(y, tile_cast(d * tile_rsqrt(var + eps) * wt + bt, _Float16), .index = {i, 0});
}

/* C = A @ B, bfloat16 in, float32 out, tensor cores. */
TILE_KERNEL void matmul_bf16(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(float, 2) c)
{
    int i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {64, 128});
    int64_t nk = (tile_dim(a, 1) + 31) / 32;
    for (int64_t k = 0; k < nk; k++) {
        __bf16 x = tile_load(a, .index = {i, k}, .shape = {64, 32}, .padding = TILE_PAD_ZERO);
        __bf16 y = tile_load(b, .index = {k, j}, .shape = {32, 128}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, acc, .index = {i, j});
}
