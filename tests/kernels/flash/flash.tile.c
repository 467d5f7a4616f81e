/* flash.tile.c: attention loops written in other forms than
 * examples/attention's, for flash.c's matcher and tilec_flash_fwd:
 * one head in rank-2 arrays, bfloat16, natural-base softmax without a
 * scale, the key tile loaded inside tile_matmul, the operands of `*` and
 * tile_maximum the other way round, 128 x 32 blocks (two m-tiles a warp);
 * and the same loop with one statement more, which keeps the ordinary
 * lowering (tilec --emit=tir says which has the flash variant).
 * q (SQ, D), k and v (SK, D), o (SQ, D) float32.  Grid ceil(SQ / 128).
 * attn_long's 64 x 128 tiling is wgmma's (sm_90a); its mma.sync loop,
 * which sm_80 builds run, needs about 7 registers more than a thread has:
 * nvcc-spills: allowed in _Z25tilec_k_attn_long_0_flashILb1EEv11tilec_arrayS0_S0_S0_f */
#include <tilec.h>
#include <math.h>

TILE_KERNEL void attn_plain(TILE_ARRAY(const __bf16, 2) q, TILE_ARRAY(const __bf16, 2) k,
                            TILE_ARRAY(const __bf16, 2) v, TILE_ARRAY(float, 2) o, TILE_CONST(int, 64) D)
{
    int64_t m = tile_bid(0), sk = tile_dim(k, 0);
    __bf16 qt = tile_load(q, .index = {m, 0}, .shape = {128, D});
    float mi = tile_full(float, -INFINITY, .shape = {128, 1});
    float li = tile_zeros(float, .shape = {128, 1});
    float acc = tile_zeros(float, .shape = {128, D});
    for (int64_t n = 0; n < (sk + 31) / 32; n++) {
        float s = tile_matmul(qt, tile_load(k, .index = {0, n}, .shape = {D, 32}, .order = {1, 0}));
        s = tile_where(tile_arange(int64_t, .shape = {32}) + n * 32 < sk, s, -INFINITY);
        float mnew = tile_maximum(tile_max(s, .axis = 1, .keepdims = true), mi);
        float alpha = tile_exp(mi - mnew);
        float p = tile_exp(s - mnew);
        li = tile_sum(p, .axis = 1, .keepdims = true) + alpha * li;
        __bf16 vt = tile_load(v, .index = {n, 0}, .shape = {32, D});
        acc = tile_mma(tile_cast(p, __bf16), vt, alpha * acc);
        mi = mnew;
    }
    tile_store(o, acc / li, .index = {m, 0});
}

/* The same with the running maximum clamped from below as well: not the
 * recognised form, so the loop is compiled as written (same results). */
TILE_KERNEL void attn_clamped(TILE_ARRAY(const __bf16, 2) q, TILE_ARRAY(const __bf16, 2) k,
                              TILE_ARRAY(const __bf16, 2) v, TILE_ARRAY(float, 2) o, TILE_CONST(int, 64) D)
{
    int64_t m = tile_bid(0), sk = tile_dim(k, 0);
    __bf16 qt = tile_load(q, .index = {m, 0}, .shape = {128, D});
    float mi = tile_full(float, -INFINITY, .shape = {128, 1});
    float li = tile_zeros(float, .shape = {128, 1});
    float acc = tile_zeros(float, .shape = {128, D});
    for (int64_t n = 0; n < (sk + 31) / 32; n++) {
        float s = tile_matmul(qt, tile_load(k, .index = {0, n}, .shape = {D, 32}, .order = {1, 0}));
        s = tile_where(tile_arange(int64_t, .shape = {32}) + n * 32 < sk, s, -INFINITY);
        float mnew = tile_maximum(tile_max(s, .axis = 1, .keepdims = true), mi);
        mnew = tile_maximum(mnew, -1e30f);
        float alpha = tile_exp(mi - mnew);
        float p = tile_exp(s - mnew);
        li = tile_sum(p, .axis = 1, .keepdims = true) + alpha * li;
        __bf16 vt = tile_load(v, .index = {n, 0}, .shape = {32, D});
        acc = tile_mma(tile_cast(p, __bf16), vt, alpha * acc);
        mi = mnew;
    }
    tile_store(o, acc / li, .index = {m, 0});
}

/* Several heads in rank-3 arrays (H, S, D), float16, D 64, 128 x 64
 * blocks (eight warps of 16 rows, three stages of copies), scaled base-2
 * scores with the fast exp2, the key tile declared after the value tile.
 * Grid (ceil(SQ / 128), H). */
TILE_KERNEL void attn_wide(TILE_ARRAY(const _Float16, 3) q, TILE_ARRAY(const _Float16, 3) k,
                           TILE_ARRAY(const _Float16, 3) v, TILE_ARRAY(float, 3) o, float scale)
{
    int64_t m = tile_bid(0), h = tile_bid(1), sk = tile_dim(k, 1);
    _Float16 qt = tile_reshape(tile_load(q, .index = {h, m, 0}, .shape = {1, 128, 64}), .shape = {128, 64});
    float mi = tile_full(float, -INFINITY, .shape = {128, 1});
    float li = tile_zeros(float, .shape = {128, 1});
    float acc = tile_zeros(float, .shape = {128, 64});
    for (int64_t n = 0; n < (sk + 63) / 64; n++) {
        _Float16 vt = tile_reshape(tile_load(v, .index = {h, n, 0}, .shape = {1, 64, 64}), .shape = {64, 64});
        _Float16 kt = tile_reshape(tile_load(k, .index = {h, 0, n}, .shape = {1, 64, 64}, .order = {0, 2, 1}),
                                   .shape = {64, 64});
        int64_t key = tile_arange(int64_t, .shape = {64}) + n * 64;
        float s = scale * tile_matmul(qt, kt);
        s = tile_where(key < sk, s, -INFINITY);
        float mnew = tile_maximum(mi, tile_max(s, .axis = 1, .keepdims = true));
        float p = tile_exp2(s - mnew, .approx = true);
        float alpha = tile_exp2(mi - mnew, .approx = true);
        li = li * alpha + tile_sum(p, .axis = 1, .keepdims = true);
        acc = tile_mma(tile_cast(p, _Float16), vt, acc * alpha);
        mi = mnew;
    }
    tile_store(o, tile_reshape(acc / li, .shape = {1, 128, 64}), .index = {h, m, 0});
}

/* attn_wide's loop on 64 x 128 blocks: one warpgroup (four warps of 16
 * rows), 128 keys a block (on sm_90a wgmma's widest score tile, m64n128).
 * Grid (ceil(SQ / 64), H). */
TILE_KERNEL void attn_long(TILE_ARRAY(const _Float16, 3) q, TILE_ARRAY(const _Float16, 3) k,
                           TILE_ARRAY(const _Float16, 3) v, TILE_ARRAY(float, 3) o, float scale)
{
    int64_t m = tile_bid(0), h = tile_bid(1), sk = tile_dim(k, 1);
    _Float16 qt = tile_reshape(tile_load(q, .index = {h, m, 0}, .shape = {1, 64, 64}), .shape = {64, 64});
    float mi = tile_full(float, -INFINITY, .shape = {64, 1});
    float li = tile_zeros(float, .shape = {64, 1});
    float acc = tile_zeros(float, .shape = {64, 64});
    for (int64_t n = 0; n < (sk + 127) / 128; n++) {
        _Float16 kt = tile_reshape(tile_load(k, .index = {h, 0, n}, .shape = {1, 64, 128}, .order = {0, 2, 1}),
                                   .shape = {64, 128});
        _Float16 vt = tile_reshape(tile_load(v, .index = {h, n, 0}, .shape = {1, 128, 64}), .shape = {128, 64});
        int64_t key = tile_arange(int64_t, .shape = {128}) + n * 128;
        float s = scale * tile_matmul(qt, kt);
        s = tile_where(key < sk, s, -INFINITY);
        float mnew = tile_maximum(mi, tile_max(s, .axis = 1, .keepdims = true));
        float p = tile_exp2(s - mnew, .approx = true);
        float alpha = tile_exp2(mi - mnew, .approx = true);
        li = li * alpha + tile_sum(p, .axis = 1, .keepdims = true);
        acc = tile_mma(tile_cast(p, _Float16), vt, acc * alpha);
        mi = mnew;
    }
    tile_store(o, tile_reshape(acc / li, .shape = {1, 64, 64}), .index = {h, m, 0});
}

/* attn_wide's loop under two more masks.  attn_shifted: keys up to the
 * row's position plus a run-time offset (causal attention with a prefix
 * every row sees), a conjunction of affine comparisons, so the variant
 * skips the per-element test in a warp's blocks where the mask's corners
 * all hold (tilec_flash_fwd's full) and tests each element on the blocks
 * the diagonal crosses.  attn_stripe: every fourth key, from key off (1 ..
 * 3), left out, which the corners cannot decide (flash.c's
 * mask_by_corners: not affine), so every block is tested element by
 * element.  Key 0 is visible to every row in both (off >= 0 for
 * attn_shifted: no row's maximum stays -inf).  Grid (ceil(SQ / 128), H). */
#define ATTN_MASKED(NAME, COND)                                                                                    \
    TILE_KERNEL void NAME(TILE_ARRAY(const _Float16, 3) q, TILE_ARRAY(const _Float16, 3) k,                       \
                          TILE_ARRAY(const _Float16, 3) v, TILE_ARRAY(float, 3) o, float scale, int64_t off)      \
    {                                                                                                              \
        int64_t m = tile_bid(0), h = tile_bid(1), sk = tile_dim(k, 1);                                           \
        _Float16 qt = tile_reshape(tile_load(q, .index = {h, m, 0}, .shape = {1, 128, 64}), .shape = {128, 64});   \
        int64_t row = tile_reshape(tile_arange(int64_t, .shape = {128}), .shape = {128, 1}) + m * 128;           \
        float mi = tile_full(float, -INFINITY, .shape = {128, 1});                                                 \
        float li = tile_zeros(float, .shape = {128, 1});                                                           \
        float acc = tile_zeros(float, .shape = {128, 64});                                                         \
        for (int64_t n = 0; n < (sk + 63) / 64; n++) {                                                             \
            _Float16 kt = tile_reshape(tile_load(k, .index = {h, 0, n}, .shape = {1, 64, 64}, .order = {0, 2, 1}), \
                                       .shape = {64, 64});                                                         \
            _Float16 vt = tile_reshape(tile_load(v, .index = {h, n, 0}, .shape = {1, 64, 64}), .shape = {64, 64}); \
            int64_t key = tile_arange(int64_t, .shape = {64}) + n * 64;                                            \
            float s = tile_matmul(qt, kt) * scale;                                                                 \
            s = tile_where(COND, s, -INFINITY);                                                                    \
            float mnew = tile_maximum(mi, tile_max(s, .axis = 1, .keepdims = true));                              \
            float p = tile_exp2(s - mnew, .approx = true);                                                         \
            float alpha = tile_exp2(mi - mnew, .approx = true);                                                    \
            li = li * alpha + tile_sum(p, .axis = 1, .keepdims = true);                                            \
            acc = tile_mma(tile_cast(p, _Float16), vt, acc * alpha);                                               \
            mi = mnew;                                                                                             \
        }                                                                                                          \
        tile_store(o, tile_reshape(acc / li, .shape = {1, 128, 64}), .index = {h, m, 0});                         \
    }
ATTN_MASKED(attn_shifted, key < sk && key <= row + off)
ATTN_MASKED(attn_stripe, key < sk && (key & 3) != off)
