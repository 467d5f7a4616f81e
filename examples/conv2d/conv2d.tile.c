/* conv2d.tile.c: a 3x3 two-dimensional convolution over NHWC images, float16
 * in, float32 accumulation, float16 out, with padding 1 and stride S (1 or
 * 2), written as the matrix product it is: for each image n and output row
 * oh, y[n, oh] = im2col(x)[n, oh] @ w^T.
 *
 *   x (N, H, W, C), w (CO, 3, 3, C), y (N, OH, OW, CO),
 *   OH = (H - 1) / S + 1, OW = (W - 1) / S + 1;
 *   y[n, oh, ow, o] = sum over kh, kw < 3, c < C of
 *                     w[o, kh, kw, c] * x[n, S*oh + kh - 1, S*ow + kw - 1, c]
 *   (x reads zero outside the image: the padding of 1 on each side).
 *
 * Both operands are views (docs/language.md, "Views"); nothing is unfolded
 * in memory:
 *   xv = tile_view_im2col(x, .size = {3, 3}, .stride = {S, S}, .low = {1, 1},
 *        .high = {1, 1}, .channels_last = true) is x seen as (N, OH, OW, 9*C),
 *        xv[n, oh, ow, (kh*3 + kw)*C + c] = x[n, S*oh + kh - 1, S*ow + kw - 1, c]
 *        (C fastest, then kw, then kh);
 *   wv = tile_view_layout(w, "(_,(_,3,3)):(1@0,(1@3,1@2,1@1))") is w seen as
 *        the matrix (CO, 9*C), wv[o, (kh*3 + kw)*C + c] = w[o, kh, kw, c]: one
 *        nested mode over w's last three axes, C fastest, the same nesting
 *        as xv's last axis (as w flattened row-major to (CO, 9*C)).
 * A block computes a (BH * BW, BCO) tile of y[n]: BH output rows of BW
 * columns each, by BCO output channels.  It walks the 9*C axis in BK-wide
 * chunks, loading a (1, BH, BW, BK) tile of xv[n] (seen as the (BH * BW,
 * BK) matrix it is) and a (BK, BCO) tile of wv transposed (.order =
 * {1, 0}), and the tensor cores add their product into a float32
 * accumulator.  Elements past the ends of the views (and the padding) read
 * zero, and the store masks what lies outside y, so no size needs to be a
 * multiple of a tile.
 *
 * How it runs (docs/language.md, "How views are compiled"): where C is a
 * multiple of BK, each chunk of xv is one tap's run of channels over a
 * BH x BW block of pixels, a box of x, and one of wv a box of w.  In
 * sm_90a builds, tiles of 64 to 256 pixels then run on the Hopper
 * variant: TMA loads the two boxes of each step (the padding is
 * TMA's zero fill, stride 2 its element stride) into a ring that wgmma
 * reads, as in a matmul.  Elsewhere the K loop copies each chunk's
 * footprint into shared memory and gathers the operands from it.
 *
 * Grid: (ceil(OW / BW), ceil(CO / BCO), N * ceil(OH / BH)); block z is
 * n * ceil(OH / BH) + the block of rows. */
#include <tilec.h>

/* The tiles compiled (main.c picks among them; the benchmark's
 * tests/bench/kernels/conv2d_view*.tile.c compile larger ones, whose
 * mma.sync kernels, the sm_80 build's, spill) */
#ifndef CONV2D_BH
#define CONV2D_BH 1, 2
#endif
#ifndef CONV2D_BW
#define CONV2D_BW 32, 64
#endif
#ifndef CONV2D_BCO
#define CONV2D_BCO 64
#endif

TILE_KERNEL void conv2d_nhwc(TILE_ARRAY(const _Float16, 4) x, TILE_ARRAY(const _Float16, 4) w,
                             TILE_ARRAY(_Float16, 4) y, TILE_CONST(int, 1, 2) S, TILE_CONST(int, CONV2D_BH) BH,
                             TILE_CONST(int, CONV2D_BW) BW, TILE_CONST(int, CONV2D_BCO) BCO, TILE_CONST(int, 64) BK)
{
    /* (N, OH, OW, 9*C): the 3x3 windows of x, padding 1, stride S */
    TILE_VIEW(const _Float16, 4) xv = tile_view_im2col(x, .size = {3, 3}, .stride = {S, S}, .low = {1, 1},
                                                       .high = {1, 1}, .channels_last = true);
    /* (CO, 9*C): w's (kh, kw, c) axes as one nested mode, c fastest */
    TILE_VIEW(const _Float16, 2) wv = tile_view_layout(w, "(_,(_,3,3)):(1@0,(1@3,1@2,1@1))");
    int64_t row_blocks = (tile_dim(xv, 1) + BH - 1) / BH;
    int64_t wb = tile_bid(0), ob = tile_bid(1);
    int64_t n = tile_bid(2) / row_blocks, hb = tile_bid(2) % row_blocks;
    float acc = tile_zeros(float, .shape = {BH * BW, BCO});
    int64_t nk = (tile_dim(xv, 3) + BK - 1) / BK;
    for (int64_t kb = 0; kb < nk; kb++) {
        _Float16 a = tile_reshape(tile_load(xv, .index = {n, hb, wb, kb}, .shape = {1, BH, BW, BK},
                                            .padding = TILE_PAD_ZERO),
                                  .shape = {BH * BW, BK});
        /* b[r, s] = wv[ob*BCO + s, kb*BK + r] */
        _Float16 b = tile_load(wv, .index = {kb, ob}, .shape = {BK, BCO}, .order = {1, 0}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(a, b, acc);
    }
    tile_store(y, tile_reshape(tile_cast(acc, _Float16), .shape = {1, BH, BW, BCO}), .index = {n, hb, wb, ob});
}
