/* graphs.tile.c: issue #23's benchmark kernels, array kernels and kernel
 * graphs (docs/language.md, "Array kernels", "Kernel graphs").
 *
 * ag_expr: seed 002's expression as an array kernel (the launcher chooses
 * the tile and the grid), beside the hand-tiled fused_expr.
 * ag_ln_gelu_res: layer norm, then GELU, then a residual add, written as
 * three array kernels (ag_layer_norm, ag_gelu, ag_add) and one graph that
 * calls them; tilec fuses the three into one kernel.
 * ag_softmax_f32 / _f16: softmax as a graph of max, subtract-exp, sum and
 * divide, fused into one pass over each row (exact exponential and
 * division, as the hand-written softmax_*_exact).
 * ag_matmul_gelu: GELU(a @ b + bias) as a graph of a matrix product
 * (ag_mm, float32 h) and the bias and GELU (ag_bias_gelu), fused into one
 * kernel with the epilogue on the accumulator; ag_linear_gelu: the same as
 * one array kernel.  ag_scaled_mm: (a * k) @ b as a graph of a scaling and
 * a product (two kernels: tilec does not compute an operand in the K loop);
 * ag_scaled_mm_fused: the same as one array kernel, which does. */
#include <tilec.h>

TILE_ARRAY_KERNEL void ag_expr(TILE_NDARRAY(float, 1) A, TILE_NDARRAY(const float, 1) B, TILE_NDARRAY(const float, 1) C,
                               TILE_NDARRAY(const float, 1) D, TILE_NDARRAY(const float, 1) E,
                               TILE_NDARRAY(const float, 1) F)
{
    A = B + C * D + tile_sin(E) * F + 10;
}

TILE_ARRAY_KERNEL void ag_layer_norm(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) x,
                                     TILE_NDARRAY(const _Float16, 1) w, TILE_NDARRAY(const _Float16, 1) b, float eps)
{
    float xf = x;
    float n = tile_cast(tile_dim(x, 1), float);
    float mean = tile_sum(xf, .axis = 1, .keepdims = true) / n;
    float d = xf - mean;
    float var = tile_sum(d * d, .axis = 1, .keepdims = true) / n;
    y = tile_cast(d * tile_rsqrt(var + eps) * w + b, _Float16);
}

/* torch's gelu(approximate="tanh") */
TILE_ARRAY_KERNEL void ag_gelu(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) x)
{
    float v = x;
    y = tile_cast(0.5f * v * (1.0f + tile_tanh(0.7978845608f * (v + 0.044715f * v * v * v))), _Float16);
}

TILE_ARRAY_KERNEL void ag_add(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) a,
                              TILE_NDARRAY(const _Float16, 2) b)
{
    y = a + b;
}

TILE_GRAPH void ag_ln_gelu_res(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) x,
                               TILE_NDARRAY(const _Float16, 2) r, TILE_NDARRAY(const _Float16, 1) w,
                               TILE_NDARRAY(const _Float16, 1) b, float eps)
{
    TILE_TEMP(_Float16, 2) h;
    TILE_TEMP(_Float16, 2) g;
    ag_layer_norm(h, x, w, b, eps);
    ag_gelu(g, h);
    ag_add(y, g, r);
}

/* softmax from its pieces, float32 */
TILE_ARRAY_KERNEL void ag_row_max(TILE_NDARRAY(float, 2) m, TILE_NDARRAY(const float, 2) x)
{
    m = tile_max(x, .axis = 1, .keepdims = true);
}

TILE_ARRAY_KERNEL void ag_sub_exp(TILE_NDARRAY(float, 2) e, TILE_NDARRAY(const float, 2) x, TILE_NDARRAY(const float, 2) m)
{
    e = tile_exp(x - m);
}

TILE_ARRAY_KERNEL void ag_row_sum(TILE_NDARRAY(float, 2) s, TILE_NDARRAY(const float, 2) x)
{
    s = tile_sum(x, .axis = 1, .keepdims = true);
}

TILE_ARRAY_KERNEL void ag_divide(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const float, 2) a, TILE_NDARRAY(const float, 2) b)
{
    y = a / b;
}

TILE_GRAPH void ag_softmax_f32(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const float, 2) x)
{
    TILE_TEMP(float, 2) m;
    TILE_TEMP(float, 2) e;
    TILE_TEMP(float, 2) s;
    ag_row_max(m, x);
    ag_sub_exp(e, x, m);
    ag_row_sum(s, e);
    ag_divide(y, e, s);
}

/* float16 in and out, float32 statistics */
TILE_ARRAY_KERNEL void ag_row_max16(TILE_NDARRAY(float, 2) m, TILE_NDARRAY(const _Float16, 2) x)
{
    m = tile_max(tile_cast(x, float), .axis = 1, .keepdims = true);
}

TILE_ARRAY_KERNEL void ag_sub_exp16(TILE_NDARRAY(float, 2) e, TILE_NDARRAY(const _Float16, 2) x,
                                    TILE_NDARRAY(const float, 2) m)
{
    e = tile_exp(x - m);
}

TILE_ARRAY_KERNEL void ag_divide16(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const float, 2) a,
                                   TILE_NDARRAY(const float, 2) b)
{
    y = tile_cast(a / b, _Float16);
}

TILE_GRAPH void ag_softmax_f16(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) x)
{
    TILE_TEMP(float, 2) m;
    TILE_TEMP(float, 2) e;
    TILE_TEMP(float, 2) s;
    ag_row_max16(m, x);
    ag_sub_exp16(e, x, m);
    ag_row_sum(s, e);
    ag_divide16(y, e, s);
}

/* ---- matrix products ---------------------------------------------------- */

TILE_ARRAY_KERNEL void ag_mm(TILE_NDARRAY(float, 2) c, TILE_NDARRAY(const __bf16, 2) a, TILE_NDARRAY(const __bf16, 2) b)
{
    c = tile_matmul(a, b);
}

TILE_ARRAY_KERNEL void ag_bias_gelu(TILE_NDARRAY(__bf16, 2) y, TILE_NDARRAY(const float, 2) h,
                                    TILE_NDARRAY(const __bf16, 1) bias)
{
    float t = h + bias;
    y = tile_cast(0.5f * t * (1.0f + tile_tanh(0.7978845608f * (t + 0.044715f * t * t * t))), __bf16);
}

TILE_GRAPH void ag_matmul_gelu(TILE_NDARRAY(__bf16, 2) y, TILE_NDARRAY(const __bf16, 2) a,
                               TILE_NDARRAY(const __bf16, 2) b, TILE_NDARRAY(const __bf16, 1) bias)
{
    TILE_TEMP(float, 2) h;
    ag_mm(h, a, b);
    ag_bias_gelu(y, h, bias);
}

TILE_ARRAY_KERNEL void ag_linear_gelu(TILE_NDARRAY(__bf16, 2) y, TILE_NDARRAY(const __bf16, 2) a,
                                      TILE_NDARRAY(const __bf16, 2) b, TILE_NDARRAY(const __bf16, 1) bias)
{
    float t = tile_matmul(a, b) + bias;
    y = tile_cast(0.5f * t * (1.0f + tile_tanh(0.7978845608f * (t + 0.044715f * t * t * t))), __bf16);
}

TILE_ARRAY_KERNEL void ag_scale_bf16(TILE_NDARRAY(__bf16, 2) y, TILE_NDARRAY(const __bf16, 2) x, float k)
{
    y = tile_cast(x * k, __bf16);
}

TILE_ARRAY_KERNEL void ag_mm_bf16(TILE_NDARRAY(__bf16, 2) c, TILE_NDARRAY(const __bf16, 2) a,
                                  TILE_NDARRAY(const __bf16, 2) b)
{
    c = tile_cast(tile_matmul(a, b), __bf16);
}

TILE_GRAPH void ag_scaled_mm(TILE_NDARRAY(__bf16, 2) c, TILE_NDARRAY(const __bf16, 2) a,
                             TILE_NDARRAY(const __bf16, 2) b, float k)
{
    TILE_TEMP(__bf16, 2) as;
    ag_scale_bf16(as, a, k);
    ag_mm_bf16(c, as, b);
}

TILE_ARRAY_KERNEL void ag_scaled_mm_fused(TILE_NDARRAY(__bf16, 2) c, TILE_NDARRAY(const __bf16, 2) a,
                                          TILE_NDARRAY(const __bf16, 2) b, float k)
{
    c = tile_cast(tile_matmul(tile_cast(a * k, __bf16), b), __bf16);
}
