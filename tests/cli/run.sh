#!/bin/sh
# tests/cli/run.sh: the command line as users and build systems meet it:
# options, exit statuses, outputs, atomic writes, dependency files, response
# files, determinism, colour, diagnostics, the inspection subcommands.  Run
# from the repo root with TILEC and OUT set (tests/run.sh does):
#     TILEC=bin/tilec-san OUT=build/test/cli sh tests/cli/run.sh
# Prints one line per failed check and ends with "cli: N passed, N failed"
# (exit 1 on failures).  Everything it writes is under $OUT.
set -u
TILEC=${TILEC:-bin/tilec}
OUT=${OUT:-build/test/cli}
case "$TILEC" in /*) ;; */*) TILEC=$(pwd)/$TILEC ;; esac
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
TOP=$(pwd)
p=0; f=0
pass() { p=$((p + 1)); }
fail() { echo "cli FAIL: $1"; f=$((f + 1)); }
# expect_rc WHAT RC CMD...: runs CMD, output in $OUT/out and $OUT/err.
expect_rc() {
    what=$1 want=$2; shift 2
    "$@" > "$OUT/out" 2> "$OUT/err"
    rc=$?
    if [ "$rc" -eq "$want" ]; then pass; else fail "$what: exit $rc, want $want"; sed 's/^/    /' "$OUT/err" | head -5; fi
}
has() { # has WHAT FILE STRING: FILE contains STRING (fixed string)
    if [ -f "$2" ] && grep -qF -- "$3" "$2"; then pass; else
        fail "$1: '$3' not in $2"; [ -f "$2" ] && sed 's/^/    /' "$2" | head -5; fi
}
lacks() { # lacks WHAT FILE STRING: FILE does not contain STRING
    if [ -f "$2" ] && grep -qF -- "$3" "$2"; then fail "$1: '$3' in $2"; grep -F -- "$3" "$2" | head -3; else pass; fi
}
is() { # is WHAT FILE TEXT: FILE holds exactly TEXT (plus a newline)
    if [ "$(cat "$2" 2>/dev/null)" = "$3" ]; then pass; else fail "$1: $2 is '$(head -c 200 "$2" 2>/dev/null)', want '$3'"; fi
}
exists() { if [ -f "$2" ]; then pass; else fail "$1: $2 missing"; fi; }
absent() { if [ -e "$2" ]; then fail "$1: $2 exists"; else pass; fi; }
esc=$(printf '\033')

# --- inputs -------------------------------------------------------------------
K=$OUT/k.tile.c
cat > "$K" <<'SRC'
#include <tilec.h>
#include "sizes.h"
/* Adds one. */
TILE_KERNEL void inc(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {tile_bid(0)}, .shape = {BLOCK});
    tile_store(c, t + 1, .index = {tile_bid(0)});
}
SRC
mkdir -p "$OUT/inc"
echo '#define BLOCK 256' > "$OUT/inc/sizes.h"
BAD=$OUT/bad.tile.c
printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(float, 1) c)\n{\n    float t = tile_zeros(float, .shape = {12});\n    tile_store(c, t, .index = {0});\n}\n' > "$BAD"
WARN=$OUT/warn.tile.c
printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(float, 1) c)\n{\n    int unused = 1 + 2;\n    unused + 1;\n    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});\n}\n' > "$WARN"
# A kernel whose tile size comes from an -I header and a -D macro.
DI=$OUT/di.tile.c
printf '#include <tilec.h>\n#include "sizes.h"\nTILE_KERNEL void k(TILE_ARRAY(float, 1) c)\n{\n    tile_store(c, tile_zeros(float, .shape = {BLOCK / SCALE}), .index = {0});\n}\n' > "$DI"

# --- basics -------------------------------------------------------------------
expect_rc "--help" 0 "$TILEC" --help; has "--help" "$OUT/out" "usage: tilec"
has "--help lists -MD" "$OUT/out" "-MD"
[ -s "$OUT/err" ] && fail "--help writes to stderr" || pass
expect_rc "-h" 0 "$TILEC" -h; has "-h" "$OUT/out" "usage: tilec"
expect_rc "--version" 0 "$TILEC" --version; has "--version" "$OUT/out" "tilec 0.1.0"
expect_rc "no input" 2 "$TILEC"; has "no input names the problem" "$OUT/err" "no input file"
expect_rc "unknown option" 2 "$TILEC" --frobnicate "$K"; has "unknown option" "$OUT/err" "unknown option '--frobnicate'"
lacks "no suggestion when nothing is close" "$OUT/err" "did you mean"
expect_rc "--taget=host" 2 "$TILEC" --taget=host "$K"
has "did you mean, value kept" "$OUT/err" "tilec: error: unknown option '--taget=host'; did you mean '--target=host'?"
expect_rc "--min-block=4" 2 "$TILEC" --min-block=4 "$K"; has "did you mean --min-blocks" "$OUT/err" "did you mean '--min-blocks=4'?"
expect_rc "--chek" 2 "$TILEC" --chek "$K"; has "did you mean --check" "$OUT/err" "did you mean '--check'?"
expect_rc "-MDD" 2 "$TILEC" -MDD "$K"; has "did you mean -MMD" "$OUT/err" "unknown option '-MDD'; did you mean"
expect_rc "-x: too short to guess" 2 "$TILEC" -x "$K"; lacks "-x: no guess" "$OUT/err" "did you mean"
# -v: the version, libclang's arguments and its search list, on stderr; then
# the compile goes on.
expect_rc "-v" 0 "$TILEC" -v --check -I "$OUT/inc" "$K"
has "-v version" "$OUT/err" "tilec version 0.1.0"
has "-v libclang arguments" "$OUT/err" " -I$OUT/inc "
has "-v search list" "$OUT/err" "#include <...> search starts here:"
has "-v search list ends" "$OUT/err" "End of search list."
[ -s "$OUT/out" ] && fail "-v wrote to standard output" || pass
expect_rc "missing file" 2 "$TILEC" "$OUT/nope.tile.c"; has "missing file" "$OUT/err" "tilec: error: cannot open"
expect_rc "directory input" 2 "$TILEC" "$OUT"; has "directory input" "$OUT/err" "not a regular file"
expect_rc "bad target" 2 "$TILEC" --target=bogus "$K"; has "bad target names it" "$OUT/err" "bogus"
expect_rc "bad arch" 2 "$TILEC" --arch=foo "$K"
expect_rc "bad arch number" 2 "$TILEC" --arch=sm_9 "$K"
expect_rc "good arch" 0 "$TILEC" --arch=sm_90 -I "$OUT/inc" -o "$OUT/arch.cu" "$K"
expect_rc "sm_90a" 0 "$TILEC" --arch=sm_90a -I "$OUT/inc" -o "$OUT/arch.cu" "$K"
expect_rc "bad max-threads" 2 "$TILEC" --max-threads=100 "$K"
expect_rc "pipelined at -O2" 0 "$TILEC" -O2 -o "$OUT/mm2.cu" examples/matmul/matmul.tile.c
has "pipelined at -O2" "$OUT/mm2.cu" "tilec_pipe_commit();"
expect_rc "as written at -O0" 0 "$TILEC" -O0 -o "$OUT/mm0.cu" examples/matmul/matmul.tile.c
lacks "as written at -O0" "$OUT/mm0.cu" "tilec_pipe_commit();"
# The pipeline's depth follows the target's shared memory: a 64x128x64 block
# on 256 threads (two blocks per SM by registers) gets four stages on sm_90
# (227 KB per block at most), two on sm_86 (99 KB).
MM=$OUT/mm.tile.c
printf '#include <tilec.h>\nTILE_KERNEL void mm(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(float, 2) c)\n{\n    float acc = tile_zeros(float, .shape = {64, 128});\n    for (int64_t k = 0; k < tile_dim(a, 1) / 64; k++)\n        acc = tile_mma(tile_load(a, .index = {tile_bid(0), k}, .shape = {64, 64}), tile_load(b, .index = {k, tile_bid(1)}, .shape = {64, 128}), acc);\n    tile_store(c, acc, .index = {tile_bid(0), tile_bid(1)});\n}\n' > "$MM"
expect_rc "pipeline on sm_90" 0 "$TILEC" -O2 --arch=sm_90 -o "$OUT/mm90.cu" "$MM"
has "four stages on sm_90" "$OUT/mm90.cu" "(4 stages)"
# The ring's buffers are swizzled (tilec_swz), copies and ldmatrix alike, and
# the zero start goes straight into the fragments.
# A thread's copies are whole 8-row groups apart, so one swizzle serves all
# of them; the warps' ldmatrix addresses step from one base per operand
# (tilec_swz_step) instead of recomputing the swizzle per fragment.
has "swizzled A copies" "$OUT/mm90.cu" "const int so_ = tilec_swz<64>(row_, col_);"
has "copies step from one swizzle" "$OUT/mm90.cu" "tilec_pipe_copy16(pd_ + so_ + r_ * "
has "swizzled B base" "$OUT/mm90.cu" "tilec_ldsm_off_swz<128>(0, wn_ * 16)"
has "swizzled B reads" "$OUT/mm90.cu" "tilec_ldsm_b_at<128>("
has "stage slots by counter" "$OUT/mm90.cu" "rs_ = rs_ == 3 ? 0 : rs_ + 1;"
lacks "no padded ldmatrix in the ring" "$OUT/mm90.cu" "tilec_ldsm_a(fa_"
has "uniform start into the fragments" "$OUT/mm90.cu" "tilec_acc_fill(fv"
has "padded conversion rows, read four words at a time" "$OUT/mm90.cu" "const float4 u_ = *(const float4 *)(sc_ + (((((i_) >> 0) & 127) << 0) + ((((i_) >> 7) & 63) * 136)) + q_);"
# Edge copies (and every copy of the unaligned specialization) stay a loop:
# unrolled, they took registers from the accumulators (ptxas spilled).
has "edge copies not unrolled" "$OUT/mm90.cu" "#pragma unroll 1"
n=$(grep -c "#pragma unroll 1" "$OUT/mm90.cu")
[ "$n" -eq 4 ] && pass || fail "edge copies of A and B, prologue and K loop, are 4 loops (got $n)"
# --sm90-clusters: the persistent Hopper variant launches in clusters of two
# (cudaLaunchKernelEx) whose blocks share loads by TMA multicast; not without
# the option, nor for a K loop whose length depends on the tile (the two
# rings would not move in step), nor for the host or sm_80.
lacks "no clusters by default" "$OUT/mm90.cu" "cudaLaunchKernelEx"
expect_rc "--sm90-clusters" 0 "$TILEC" -O2 --arch=sm_90 --sm90-clusters -o "$OUT/mm90c.cu" "$MM"
has "cluster launch" "$OUT/mm90c.cu" "cl_ = cudaLaunchKernelEx(&cfg_, tilec_k_mm_0_sm90<true>, *a, *b, *c, ta_, tb_, tc_, g_) == cudaSuccess;"
has "blocks alone when no cluster fits" "$OUT/mm90c.cu" "tilec_k_mm_0_sm90<true><<<pg_,"
# --remarks in a compile for sm_90: each specialization's K loop of tile_mma
# says whether it has the Hopper variant and what it is, or why not (a
# float8 block of 128 columns a warpgroup is too wide); nothing for sm_80,
# nothing without the option; an attention loop names its flash variant's
# products (wgmma for 64 x 64 blocks, mma.sync for 32-key blocks).
F8=$OUT/f8.tile.c
printf '#include <tilec.h>\nTILE_KERNEL void f8(TILE_ARRAY(const tilec_fp8_e4m3, 2) a, TILE_ARRAY(const tilec_fp8_e4m3, 2) b, TILE_ARRAY(__bf16, 2) c,\n        TILE_CONST(int, 128, 256) BN)\n{\n    float acc = tile_zeros(float, .shape = {128, BN});\n    for (int64_t k = 0; k < tile_dim(a, 1) / 128; k++)\n        acc = tile_mma(tile_load(a, .index = {tile_bid(0), k}, .shape = {128, 128}), tile_load(b, .index = {k, tile_bid(1)}, .shape = {128, BN}), acc);\n    tile_store(c, tile_cast(acc, __bf16), .index = {tile_bid(0), tile_bid(1)});\n}\n' > "$F8"
expect_rc "--remarks on sm_90" 0 "$TILEC" -O2 --arch=sm_90 --remarks -o "$OUT/f8.cu" "$F8"
has "Hopper variant remark" "$OUT/err" "f8.tile.c:6:5: remark: Hopper variant [BN=128] for sm_90a builds: wgmma m64n128k32 e4m3, 2 consumer warpgroups of 64 x 128"
has "why not remark" "$OUT/err" "remark: no Hopper variant [BN=256]: float8 with a 64 x 256 accumulator a warpgroup (at most 64 x 128"
has "remark shows the loop" "$OUT/err" "    for (int64_t k = 0; k < tile_dim(a, 1) / 128; k++)"
# Stream-K: a persistent plan whose K loop has the same length for every
# tile may share the last waves' steps (the launcher decides at run time);
# not when the loop's bound reads the tile.
has "stream-K remark" "$OUT/err" "a persistent grid, stream-K for a nearly empty last wave, the epilogue"
has "stream-K launch" "$OUT/f8.cu" "long long sk_ = tilec_streamk_tiles(nt_, (long long)pg_.x);"
has "stream-K fix-up" "$OUT/f8.cu" "tilec_sk_await(skf_);"
sed 's|k < tile_dim(a, 1) / 128|k < tile_bid(0) + 1|' "$F8" > "$OUT/f8t.tile.c"
expect_rc "--remarks, tile-dependent K loop" 0 "$TILEC" -O2 --arch=sm_90 --remarks -o "$OUT/f8t.cu" "$OUT/f8t.tile.c"
has "still a persistent grid" "$OUT/err" "remark: Hopper variant [BN=128] for sm_90a builds: wgmma m64n128k32 e4m3, 2 consumer warpgroups of 64 x 128, 4 TMA stages of 32768 bytes, a persistent grid, the epilogue"
lacks "no stream-K for a tile-dependent K loop" "$OUT/f8t.cu" "tilec_streamk_tiles"
# K loops whose operands are view loads (examples/conv1d: y = w @ im2col(x))
# run as copy pipelines of the views' boxes: asynchronous copies of each
# footprint several steps ahead, the operand gathered from the box (a
# shifted 16-byte run where the window starts anywhere); arrays read only
# through views do not count against the ALIGNED variant; no Hopper variant.
C1=examples/conv1d/conv1d.tile.c
expect_rc "conv1d on sm_90" 0 "$TILEC" -O2 --arch=sm_90 --remarks -o "$OUT/c1.cu" "$C1"
has "view box copied ahead" "$OUT/c1.cu" "/* tile_load xc: its box of x, 1152 elements, asynchronously */"
has "box chunks of 16 bytes" "$OUT/c1.cu" "tilec_box_copy<8>((pd_ + 2112) + c_ * 8, p_,"
has "w's box in 8-byte chunks" "$OUT/c1.cu" "tilec_box_copy<4>(pd_ + c_ * 4, p_,"
# a channel's taps share their box words: one thread loads them once and
# shifts by constants (box_group)
has "taps' windows gathered in groups" "$OUT/c1.cu" "const uint4 *pv_ = (const uint4 *)(vb_ + (sh_ + "
has "constant shifts" "$OUT/c1.cu" "= tilec_shift_h8(w0_, w1_, 5);"
has "an aligned tap is a word" "$OUT/c1.cu" "(row_ + 3, col_)) = w1_;"
# 64 x 128 B operands on 256 threads: groups of 4 rows (one channel's taps,
# 256 groups) rather than 8 (128 groups: half the block idle at the barrier)
has "groups sized for every thread" "$OUT/c1.cu" "const int row_ = (q_ / 16) * 4, col_ = (q_ % 16) * 8;"
lacks "no run-time shifts left" "$OUT/c1.cu" "a_ & 7"
# w's (ci, k) axes are one contiguous row in memory: 16-byte chunks
has "w's box rows merged" "$OUT/c1.cu" "const bool mg_ = lo_ == 0 && p_w.shape[2] == 4 && p_w.strides[2] == 1 && p_w.strides[1] == 4 && lo1_ >= 0 && lo1_ + 8 <= p_w.shape[1]; /* its last two axes as one row */"
# boxes inside the array, on aligned rows: one cp.async a chunk, no tests
has "merged box inside the array" "$OUT/c1.cu" "if (mg_ && ((uintptr_t)p_ & 15) == 0 && lo0_ >= 0 && lo0_ + 64 <= p_w.shape[0] && p_w.strides[0] % 8 == 0 && lo1_ * 4 % 8 == 0) {"
has "w's chunks without tests" "$OUT/c1.cu" "tilec_pipe_copy16(pd_ + c_ * 8, p_ + lo1_ * p_w.strides[1] + g0_ * p_w.strides[0] + (c_ % 4) * 8);"
has "x's chunks without tests" "$OUT/c1.cu" "tilec_pipe_copy16((pd_ + 2112) + c_ * 8, p_ + (int64_t)0 + g1_ * p_x.strides[1] + g0_ * p_x.strides[0] + lo_ - sh_ + (c_ % 17) * 8);"
has "merged rows in 16-byte chunks" "$OUT/c1.cu" "tilec_box_copy<8>(pd_ + c_ * 8, p_, lo1_ * p_w.strides[1] + g0_ * p_w.strides[0], (c_ % 4) * 8, 32, 1,"
# BT = 128 on 8 warps: the products on wgmma in sm_90a builds (two
# warpgroups of 64 x 64), the gathers into its layouts, mma.sync otherwise
has "wgmma in the view pipeline" "$OUT/c1.cu" "tilec_wgmma_frag<false, 64>::run(fv12, da_ + ds_ + (uint64_t)kk_ * 2u, db_ + ds_ + (uint64_t)kk_ * 128u);"
has "descriptors made once" "$OUT/c1.cu" "16u, 512u, 2u); /* the warpgroup's rows of A */"
# the fragments touched right before the wgmma loop's test (else ptxas
# serializes the loop's wgmma: C7515)
grep -A1 -F "/* its columns of B */" "$OUT/c1.cu" >"$OUT/c1.wgloop" 2>/dev/null
has "accumulator pinned before the wgmma loop" "$OUT/c1.wgloop" "tilec_wgmma_touch_frag(fv12);"
has "only in sm_90a builds" "$OUT/c1.cu" "#if TILEC_SM90A"
has "B gathered MN-major" "$OUT/c1.cu" "tilec_swz_mn<32>(row_, col_)"
has "gathers fenced for wgmma" "$OUT/c1.cu" "tilec_fence_proxy_async(); /* the gathers' stores, read by wgmma */"
has "gather sets in shared memory" "$OUT/c1.cu" "uint16_t *const pg_ = ps_ + "
has "warps on wgmma's strips" "$OUT/c1.cu" "const int wm_ = ((t_ >> 7) / 2) * 4 + ((t_ >> 5) & 3), wn_ = ((t_ >> 7) % 2) * 4;"
has "remark: wgmma in the mma.sync kernel" "$OUT/err" "[KW=4, CO=64, BK=32, BT=128]: operand A, read through a view, is not one TMA box a step: its boxes would start inside a 16-byte run of the array's contiguous axis (an offset or step of the view there that is not a multiple of 16 bytes); its products on wgmma in the mma.sync kernel's sm_90a build; sm_90 runs the mma.sync kernel"
has "whole tiles skip the bounds" "$OUT/c1.cu" "if (ok_ && x0_ - o0_ >= 1 && x1_ - o1_ >= 32 && x2_ - o2_ >= 64) {"
has "y's alignment tested" "$OUT/c1.cu" "&& tilec_array_vector_ok(y, 16);"
lacks "view-only x leaves ALIGNED alone" "$OUT/c1.cu" "tilec_array_vector_ok(x, 16)"
lacks "view-only w leaves ALIGNED alone" "$OUT/c1.cu" "tilec_array_vector_ok(w, 16)"
expect_rc "conv1d on sm_80" 0 "$TILEC" -O2 --arch=sm_80 -o "$OUT/c180.cu" "$C1"
lacks "no wgmma for sm_80" "$OUT/c180.cu" "wgmma"
expect_rc "conv1d --emit=tir" 0 "$TILEC" -O2 --arch=sm_90 --emit=tir "$C1"
has "tir shows the boxes" "$OUT/out" "acc = mma(load(wm) -> box of 2048 -> %sa_, load(xc) -> box of 1152 -> %sb_, acc), copied 7 steps ahead"
has "tir shows the wgmma products" "$OUT/out" "copied 7 steps ahead, wgmma m64n64k16 on sm_90a (1 x 2 warpgroups)"
expect_rc "conv1d at -O1" 0 "$TILEC" -O1 --arch=sm_90 -o "$OUT/c1o1.cu" "$C1"
lacks "-O1: no pipeline" "$OUT/c1o1.cu" "tilec_box_copy"
# conv2d's footprints are boxes only under a run-time condition (C a
# multiple of BK: a chunk is one tap's run of channels); where it fails, the
# stage holds the tile itself, read element by element
expect_rc "conv2d on sm_90" 0 "$TILEC" -O2 --arch=sm_90 -o "$OUT/c2.cu" examples/conv2d/conv2d.tile.c
has "conv2d: the guard" "$OUT/c2.cu" "if (!(p_x.shape[3] % 64 == 0)) { /* tile_load xv: the footprint is not a box */"
has "conv2d: the box otherwise" "$OUT/c2.cu" "{ /* tile_load xv: its box of x, 2048 elements, asynchronously */"
has "conv2d: the gather's fallback" "$OUT/c2.cu" "if (!(p_w.shape[3] % 64 == 0)) { /* tile_load wv: the tile as view_box_issue left it */"
has "conv2d: one block an SM, stated" "$OUT/c2.cu" "static __global__ void __launch_bounds__(256, 1) tilec_k_conv2d_nhwc_0("
has "conv2d: extents of the array split in 32 bits" "$OUT/c2.cu" "tilec_vmod(o3_, te3_)"
# conv2d's tiles of 128 pixels (BH 2 x BW 64) on the Hopper variant: each
# K step's tile of either view is one TMA box of its array (hopper_view.c)
expect_rc "conv2d remarks" 0 "$TILEC" -O2 --arch=sm_90 --remarks -o "$OUT/c2r.cu" examples/conv2d/conv2d.tile.c
has "conv2d: Hopper variant for views" "$OUT/err" "remark: Hopper variant [S=1, BH=2, BW=64, BCO=64, BK=64] for sm_90a builds: wgmma m64n64k16 f16, 2 consumer warpgroups of 64 x 64, 6 TMA stages of 24576 bytes, a persistent grid, the epilogue on wgmma's registers, its store by TMA"
has "conv2d: x's box, 4-D" "$OUT/c2.cu" "tilec_tma_load_4d(st_, &tma_a_, &hfull_[s_], va0_, va1_, va2_, va3_);"
has "conv2d: w's box after A's" "$OUT/c2.cu" "tilec_tma_load_4d(st_ + 16384u, &tma_b_, &hfull_[s_], vb0_, vb1_, vb2_, vb3_);"
has "conv2d: the taps split from K" "$OUT/c2.cu" "const int64_t u5_ = tilec_vmod(tilec_vdiv(w3_, te3_), te5_);"
has "conv2d: padding as TMA's zeros" "$OUT/c2.cu" "va2_ = (int)((int64_t)-1 + u1_ + u4_);"
has "conv2d: K-major B" "$OUT/c2.cu" "tilec_wgmma_m64n64k16_f16_kb_("
has "conv2d: steps inside the views" "$OUT/c2.cu" "const int64_t pk0_ = pko_ > 0 ? pko_ : 0, pe_ = peo_ < pkv_ ? peo_ : pkv_;"
has "conv2d: rows outside the views zeroed" "$OUT/c2.cu" "rows and columns outside the views: their sums are the padding's, zero"
has "conv2d: y's 4-D TMA store" "$OUT/c2.cu" "tilec_tma_store_4d(&tma_c_, (ring_ + 147456u) + (unsigned)c_ * 16384u, (int)(o3_ + c_ * 64), (int)o2_, (int)o1_, (int)o0_);"
has "conv2d: the launcher's conditions" "$OUT/c2.cu" "tilec_tma_view_ok(x, 4) && (((x->shape[3] * 9 + 0) > 0 ? (x->shape[3] * 9 + 0) : (int64_t)0)) % 64 == 0 && (x->shape[3]) % 64 == 0"
has "conv2d: stride 2 as TMA's element strides" "$OUT/c2.cu" "const unsigned bx_[4] = {64u, 128u, 4u, 1u}, es_[4] = {1u, 2u, 2u, 1u};"
# a view whose boxes would start inside a 16-byte run of the contiguous
# axis (a pad of 5 half-floats): TMA cannot (it faulted), so no variant
expect_rc "view_mma remarks" 0 "$TILEC" -O2 --arch=sm_90 --remarks -o "$OUT/vm.cu" tests/kernels/view_mma/view_mma.tile.c
has "padded views: Hopper variant" "$OUT/err" "view_mma.tile.c:39:1: remark: Hopper variant [BM=128, BN=128, BK=64] for sm_90a builds"
has "odd pads: none, and why" "$OUT/err" "operand A, read through a view, is not one TMA box a step: its boxes would start inside a 16-byte run of the array's contiguous axis"
has "B N-major: boxes of 64 columns" "$OUT/vm.cu" "tilec_tma_load_2d(st_ + 16384u + (unsigned)c_ * 8192u, &tma_b_, &hfull_[s_], vb0_ + c_ * 64, vb1_);"
# conv1d's view pipelines: one block an SM stated for architectures before
# sm_90 only (ptxas spilled under its own choice there)
has "conv1d: bounds per architecture" "$OUT/c1.cu" "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900"
has "conv1d: before sm_90" "$OUT/c1.cu" "static __global__ void __launch_bounds__(256, 1) tilec_k_conv1d_causal_0("
has "conv1d: sm_90 as ptxas chooses" "$OUT/c1.cu" "static __global__ void __launch_bounds__(256) tilec_k_conv1d_causal_0("
expect_rc "--remarks on sm_80" 0 "$TILEC" -O2 --arch=sm_80 --remarks -o "$OUT/f8.cu" "$F8"
lacks "no Hopper remarks for sm_80" "$OUT/err" "Hopper variant"
expect_rc "no remarks without --remarks" 0 "$TILEC" -O2 --arch=sm_90 -o "$OUT/f8.cu" "$F8"
lacks "no remarks without --remarks" "$OUT/err" "remark:"
expect_rc "--remarks, attention" 0 "$TILEC" -O2 --arch=sm_90 --remarks -o "$OUT/fl.cu" tests/kernels/flash/flash.tile.c
has "flash variant on wgmma" "$OUT/err" "remark: flash variant: the attention loop as tilec_flash_fwd, 4 warps of 16 rows, key blocks of 128 in 2 stages, the products on wgmma in sm_90a builds (mma.sync on sm_80)"
has "flash variant on mma.sync" "$OUT/err" "remark: flash variant [D=64]: the attention loop as tilec_flash_fwd, 4 warps of 32 rows, key blocks of 32 in 2 stages, the products on mma.sync"
has "multicast loads" "$OUT/mm90c.cu" "tilec_tma_load_2d_mc(st_, &tma_a_, &hfull_[s_], a1_, a0_, 3);"
# B is shared when the tiles' block columns agree: this tile's tile_bid(1)
# read before the partner's coordinates shadow it, the partner's after.
has "this tile's B column" "$OUT/mm90c.cu" "const int64_t mb1_ = (int64_t)(((int64_t)(((int32_t)vby_)))); /* this tile's .index entry */"
has "compared with the partner's" "$OUT/mm90c.cu" "shb_ = mb1_ == (int64_t)(((int64_t)(((int32_t)vby_))));"
mine=$(grep -n "const int64_t mb1_" "$OUT/mm90c.cu" | head -n 1 | cut -d: -f1)
shadow=$(grep -n "if (nc_ > 1) { /\* the partner's tile \*/" "$OUT/mm90c.cu" | head -n 1 | cut -d: -f1)
[ -n "$mine" ] && [ -n "$shadow" ] && [ "$mine" -lt "$shadow" ] && pass || fail "this tile's entries come before the partner's block ($mine, $shadow)"
has "releases reach both blocks" "$OUT/mm90c.cu" "tilec_mbar_arrive_cluster_warp(&hempty_[ps_], nc_, t_ % 32)"
has "ghost blocks keep pace" "$OUT/mm90c.cu" "if (vghost_) { /* no tile: keep pace with the partner */"
printf '#include <tilec.h>\nTILE_KERNEL void mmt(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(float, 2) c)\n{\n    float acc = tile_zeros(float, .shape = {64, 128});\n    for (int64_t k = 0; k < tile_bid(0) + 1; k++)\n        acc = tile_mma(tile_load(a, .index = {tile_bid(0), k}, .shape = {64, 64}), tile_load(b, .index = {k, tile_bid(1)}, .shape = {64, 128}), acc);\n    tile_store(c, acc, .index = {tile_bid(0), tile_bid(1)});\n}\n' > "$OUT/mmt.tile.c"
expect_rc "--sm90-clusters, tile-dependent K loop" 0 "$TILEC" -O2 --arch=sm_90 --sm90-clusters -o "$OUT/mmt.cu" "$OUT/mmt.tile.c"
has "its Hopper variant" "$OUT/mmt.cu" "tilec_k_mmt_0_sm90<true><<<"
lacks "runs its blocks alone" "$OUT/mmt.cu" "cudaLaunchKernelEx"
# A's rows read both the loop's variable and the tile: the tiles may share
# its box at some steps and not at others, so A is never multicast; B
# (block column) still is.
printf '#include <tilec.h>\nTILE_KERNEL void mms(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(float, 2) c)\n{\n    float acc = tile_zeros(float, .shape = {64, 128});\n    for (int64_t k = 0; k < tile_dim(a, 1) / 64; k++)\n        acc = tile_mma(tile_load(a, .index = {(tile_bid(0) + k) %% tile_num_blocks(0), k}, .shape = {64, 64}), tile_load(b, .index = {k, tile_bid(1)}, .shape = {64, 128}), acc);\n    tile_store(c, acc, .index = {tile_bid(0), tile_bid(1)});\n}\n' > "$OUT/mms.tile.c"
expect_rc "--sm90-clusters, A's index reads k and the tile" 0 "$TILEC" -O2 --arch=sm_90 --sm90-clusters -o "$OUT/mms.cu" "$OUT/mms.tile.c"
has "still in clusters" "$OUT/mms.cu" "cudaLaunchKernelEx"
lacks "A never shared" "$OUT/mms.cu" "sha_ = ma"
has "B shared by block column" "$OUT/mms.cu" "shb_ = mb1_ == "
expect_rc "--sm90-clusters on sm_80" 0 "$TILEC" -O2 --arch=sm_80 --sm90-clusters -o "$OUT/mm80c.cu" "$MM"
lacks "no clusters on sm_80" "$OUT/mm80c.cu" "cudaLaunchKernelEx"
# --arch lists architectures: one .cu correct for each.  The Hopper variant
# comes with sm_90 in the list, the pipeline is sized for the smallest shared
# memory (sm_86's two stages), the header names every -gencode, and -v
# prints the list.
expect_rc "--arch list" 0 "$TILEC" -O2 --arch=sm_86,sm_90 -o "$OUT/mmlist.cu" "$MM"
has "list: Hopper variant" "$OUT/mmlist.cu" "tilec_k_mm_0_sm90<true><<<"
has "list: stages for sm_86" "$OUT/mmlist.cu" "(2 stages)"
has "list: gencode flags" "$OUT/mmlist.h" " *     nvcc -gencode arch=compute_86,code=sm_86 -gencode arch=compute_90a,code=sm_90a ..."
expect_rc "-v with an --arch list" 0 "$TILEC" -v --arch=sm_80,sm_90a -o "$OUT/mmv.cu" "$MM"
has "-v prints the list" "$OUT/err" "Target: cuda, sm_80,sm_90, -O2"
expect_rc "--arch list, a bad entry" 2 "$TILEC" --arch=sm_80,sm90 -o "$OUT/x.cu" "$MM"
has "names the entry" "$OUT/err" "--arch wants sm_XX or a list, e.g. --arch=sm_80,sm_90"
expect_rc "--arch list, an empty entry" 2 "$TILEC" --arch=sm_80, -o "$OUT/x.cu" "$MM"
# An operation a listed architecture lacks is an error at it (seed 001's
# rule), unless a tile_target branch keeps it from that architecture.
expect_rc "tile_mma on sm_75" 1 "$TILEC" --arch=sm_75,sm_80 -o "$OUT/mm75.cu" "$MM"
has "tile_mma on sm_75: why" "$OUT/err" "error: tile_mma (tensor-core mma.sync) needs sm_80 or later, and this code is also compiled for sm_75 (--arch)"
has "tile_mma on sm_75: fix" "$OUT/err" "note: fix: put it under \`if (tile_target(tile_provides(TILE_SM_80)))\`"
absent "tile_mma on sm_75: nothing written" "$OUT/mm75.cu"
expect_rc "targets test on sm_75,sm_80,sm_90" 0 "$TILEC" --arch=sm_75,sm_80,sm_90 -o "$OUT/tg.cu" tests/kernels/targets/targets.tile.c
has "#if for sm_80 on" "$OUT/tg.cu" "#if (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800) /* tile_target(sm_80+) */"
has "#if for the host" "$OUT/tg.cu" "#if !defined(__CUDA_ARCH__) /* tile_target(host) */"
has "#if for exact architectures" "$OUT/tg.cu" "#if (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 900) /* tile_target(sm_80..sm_89) */"
has "#if for ~ and &" "$OUT/tg.cu" "#if (defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900) /* tile_target(sm_50..sm_89) */"
has "#if 0 for no target" "$OUT/tg.cu" "#if 0 /* tile_target(no target) */"
has "#if 1 for any target" "$OUT/tg.cu" "#if 1 /* tile_target(any target) */"
expect_rc "targets test on the host" 0 "$TILEC" --target=host -o "$OUT/tg.c" tests/kernels/targets/targets.tile.c
has "the host's branch" "$OUT/tg.c" "{ /* tile_target(host): true on the host */"
lacks "no #if on the host" "$OUT/tg.c" "__CUDA_ARCH__"
expect_rc "--emit=tir shows target ifs" 0 "$TILEC" --emit=tir tests/kernels/targets/targets.tile.c
has "tir: target if" "$OUT/out" "if target(sm_80+) {"
# Tuples: a struct variable is one variable per field, a struct-returning
# call an inlined block that declares the struct variable "return".
expect_rc "--emit=tir of tuples" 0 "$TILEC" --emit=tir tests/kernels/tuples/tuples.tile.c
has "a field's variable" "$OUT/out" "r.argmax   int32 (8,)"
has "the returned fields" "$OUT/out" "return.mean float32 (8,)"
has "the swap's temporaries" "$OUT/out" "p.lo'      float32 (8,)"
expect_rc "--emit=ast of tuples" 0 "$TILEC" --emit=ast tests/kernels/tuples/tuples.tile.c
has "ast: struct literal" "$OUT/out" "struct struct pair"
has "ast: member" "$OUT/out" "member r.argmax"
# TILE_EXTERN: prototypes for CUDA C++ (extern "C" __device__) and C, and
# the call inside the element loop with converted arguments.
expect_rc "TILE_EXTERN on CUDA" 0 "$TILEC" -o "$OUT/interop.cu" tests/kernels/interop/interop.tile.c
has "device prototype" "$OUT/interop.cu" 'extern "C" __device__ double affine(int32_t a, double x, double b);'
has "called per element" "$OUT/interop.cu" "softplus("
expect_rc "TILE_EXTERN on the host" 0 "$TILEC" --target=host -o "$OUT/interop.c" tests/kernels/interop/interop.tile.c
has "C prototype" "$OUT/interop.c" "extern int32_t collatz_steps(int64_t n);"
lacks "no extern declarations elsewhere" "$OUT/tg.c" "TILE_EXTERN"
# SIMT_INTEROP and tilec_kernel_NAME: exported for CUDA C++, declared in the header.
has "interop definition" "$OUT/interop.cu" 'extern "C" __device__ float table_at(const tilec_array p_table, int64_t p_i)'
has "kernel pointer" "$OUT/interop.cu" 'extern "C" const void *tilec_kernel_shifted(void)'
has "header: interop declaration" "$OUT/interop.h" "__device__ float table_at(tilec_array table, int64_t i);"
has "header: kernel pointer" "$OUT/interop.h" "const void *tilec_kernel_shifted(void);"
has "host: no kernel to launch" "$OUT/interop.c" "const void *tilec_kernel_shifted(void)"
# ...and for C on the host target, run as one thread (tests/kernels/interop
# calls them), declared in the same header outside __CUDACC__.
has "host: interop definition" "$OUT/interop.c" "float table_at(const tilec_array p_table, int64_t p_i)"
has "host: one thread's context" "$OUT/interop.c" "tilec_simt_ctx *const ctx_ = tilec_simt_solo_begin(&solo_);"
has "host: void interop" "$OUT/interop.c" "void solo_barrier(void)"
if grep -qxF 'float table_at(tilec_array table, int64_t i);' "$OUT/interop.h" &&
   sed -n '/^#else/,/^#endif/p' "$OUT/interop.h" | grep -qxF 'void solo_barrier(void);'; then pass; else
    fail "header: C declarations of SIMT_INTEROP functions"; fi
# SIMT_ALIGN and SIMT_ORDER_F (tests/kernels/simt checks the values): a
# column-major array is declared with its extents reversed and indexed with
# its index chains reversed; the alignment in each target's spelling, and
# the host's struct of shared variables allocated at its alignment.
expect_rc "SIMT layouts on CUDA" 0 "$TILEC" -o "$OUT/simtk.cu" tests/kernels/simt/simt.tile.c
has "column-major shared tile, aligned" "$OUT/simtk.cu" "__shared__ __align__(128) int v_tile[40][4];"
has "index chain reversed" "$OUT/simtk.cu" "v_tile[v_c][v_r] = "
has "atomic on a column-major element" "$OUT/simtk.cu" "(&v_counts[(v_t % 5)][(v_t % 3)]"
expect_rc "SIMT layouts on the host" 0 "$TILEC" --target=host -o "$OUT/simtk.c" tests/kernels/simt/simt.tile.c
has "host: aligned shared member" "$OUT/simtk.c" "_Alignas(256) unsigned int s1_counts[5][3];"
has "host: aligned local" "$OUT/simtk.c" "_Alignas(32) short v_small[3][2] = {{((short)(1))}, {((short)(2)), ((short)(3))}};"
has "host: shared struct at its alignment" "$OUT/simtk.c" "_Alignof(struct tilec_sk_layouts_shared_), tilec_sk_layouts, &args_);"
# SIMT code in --emit=ast/typed/tir (tests/golden/simt_tree.* hold the CUDA
# target's dumps): the host's names, storage and target ifs.
expect_rc "SIMT tree for the host" 0 "$TILEC" --emit=tir --target=host -o "$OUT/simt_tree.tir" tests/golden/simt_tree.tile.c
has "host tir: target" "$OUT/simt_tree.tir" "file tests/golden/simt_tree.tile.c, target host"
has "host tir: kernel" "$OUT/simt_tree.tir" "emitted as tilec_sk_tree, run by each thread of a block (POSIX threads)"
has "host tir: shared struct" "$OUT/simt_tree.tir" "storage sh_->s0_tile[8][4], in the block's struct of shared variables, _Alignas(64)"
has "host tir: target if decided" "$OUT/simt_tree.tir" "if target host | sm_80+ (true on the host) @47:5"
has "host tir: interop for C" "$OUT/simt_tree.tir" "exported as scaled_at for C, run as one thread"
expect_rc "SIMT tree, typed" 0 "$TILEC" --emit=typed -o "$OUT/simt_tree.typed" tests/golden/simt_tree.tile.c
has "typed: atomic's order and scope" "$OUT/simt_tree.typed" "builtin atomic_add order acq_rel scope block : int @52:15"
lacks "typed: no storage" "$OUT/simt_tree.typed" "storage "
expect_rc "pipeline on sm_86" 0 "$TILEC" -O2 --arch=sm_86 -o "$OUT/mm86.cu" "$MM"
has "two stages on sm_86" "$OUT/mm86.cu" "(2 stages)"
# --min-blocks=N: the ring leaves shared memory for N blocks (4 of them on
# sm_90: 56 KB each, room for two 24 KB stages of 64x64 + 64x128 bf16).
expect_rc "pipeline with --min-blocks" 0 "$TILEC" -O2 --arch=sm_90 --min-blocks=4 -o "$OUT/mm90b4.cu" "$MM"
has "stages for four blocks" "$OUT/mm90b4.cu" "(2 stages)"
# A row vector broadcast over several rows is read from registers when each
# thread holds the same columns of the rows as of the vector, element e from
# register e % E; otherwise through a shared-memory mirror
# (tests/kernels/bcast_rows checks the values on both paths).
expect_rc "rows broadcast" 0 "$TILEC" --arch=sm_90 -o "$OUT/bcr.cu" tests/kernels/bcast_rows/bcast_rows.tile.c
has "row vector from registers" "$OUT/bcr.cu" "(v6[e_]) * (v7[(e_) % 4])"
has "row expression from registers" "$OUT/bcr.cu" "(v7[(e_) % 4]) * (2.0f)"
has "16-bit row vector from registers" "$OUT/bcr.cu" "tilec_ld_f16(v5[(e_) % 8])"
lacks "no mirror of the rows' vectors" "$OUT/bcr.cu" "[1024];"
lacks "no mirror of the 16-bit vector" "$OUT/bcr.cu" "[2048];"
has "other layouts use the mirror" "$OUT/bcr.cu" "__shared__ float s_v5[256];"
# Mirrors are swizzled (the bank bits of the index XOR up to two higher
# fields of it) so that neither the writes in the threads' order nor the
# reads, transposed or broadcast, meet bank conflicts (tests/kernels/transposes
# and bcast_rows check the values): 4-, 2- and 1-byte elements, fields at the
# word's bits.  The (256,) row read across (4, 256) lanes 4 apart takes one
# field; tiny replicated tiles keep their order.
has "broadcast mirror swizzled" "$OUT/bcr.cu" "s_v5[((i_) ^ ((((i_) >> 5) & 31) << 0))] = v5[e_];"
has "replicated mirror keeps its order" "$OUT/bcr.cu" "if (t_ < 4) s_v10[i_] = v10[e_];"
expect_rc "transposes" 0 "$TILEC" --arch=sm_90 -o "$OUT/tps.cu" tests/kernels/transposes/transposes.tile.c
has "float mirror swizzled" "$OUT/tps.cu" "s_v6[((i_) ^ ((((i_) >> 5) & 31) << 0) ^ ((((i_) >> 7) & 31) << 0))] = v6[e_];"
has "float16 mirror swizzled" "$OUT/tps.cu" "s_v3[((i_) ^ ((((i_) >> 6) & 31) << 1) ^ ((((i_) >> 8) & 31) << 1))] = v3[e_];"
# Runs of 16 int8 a thread: a swizzle of whole 16-byte chunks serves the
# transpose's reads, so each run is one vector store (tv_mirror_swizzle).
has "int8 mirror written by vectors" "$OUT/tps.cu" "tilec_vstore<16>(&s_v4[((i_) ^ ((((i_) >> 10) & 7) << 4))], v4, r_ * 16);"
has "vector-written mirror aligned" "$OUT/tps.cu" "__shared__ __align__(16) int8_t s_v4[8192];"
# seed 004's transpose through a view: (64, 64) float16 tiles, 8-element
# runs, chunks XORed with the row's high bits; the reads stay conflict-free.
expect_rc "transpose view t64" 0 "$TILEC" --arch=sm_90 --max-threads=64 -o "$OUT/tpv.cu" tests/bench/kernels/transpose_view_t64.tile.c
has "float16 mirror written by vectors" "$OUT/tpv.cu" "tilec_vstore<8>(&s_t30[((i_) ^ ((((i_) >> 9) & 7) << 3))], t30, r_ * 8);"
"$TILEC" --arch=sm_90 --max-threads=64 --emit=tir tests/bench/kernels/transpose_view_t64.tile.c >"$OUT/tpv.tir" 2>&1
has "vector mirror in the tir" "$OUT/tpv.tir" "smem Sw<3,3,6> o 4096:1, written by runs of 8"
expect_rc "bad min-blocks" 2 "$TILEC" --min-blocks=0 "$K"; has "bad min-blocks" "$OUT/err" "--min-blocks wants a number from 1 to 32"
expect_rc "bad min-blocks text" 2 "$TILEC" --min-blocks=x "$K"
expect_rc "min-blocks" 0 "$TILEC" --min-blocks=4 -I "$OUT/inc" -o "$OUT/mb.cu" "$K"; has "min-blocks" "$OUT/mb.cu" "__launch_bounds__(128, 4)"
expect_rc "bad --emit" 2 "$TILEC" --emit=bogus "$K"
expect_rc "bad --color" 2 "$TILEC" --color=sometimes "$K"
expect_rc "-o needs a value" 2 "$TILEC" "$K" -o
expect_rc "-o with several inputs" 2 "$TILEC" --check -o "$OUT/two.cu" -I "$OUT/inc" "$K" "$BAD"

# --- outputs ------------------------------------------------------------------
expect_rc "compile" 0 "$TILEC" -I "$OUT/inc" -o "$OUT/x.cu" "$K"
exists "-o x.cu writes x.cu" "$OUT/x.cu"; exists "-o x.cu writes x.h" "$OUT/x.h"
[ -s "$OUT/out" ] || [ -s "$OUT/err" ] && fail "a clean compile prints something" || pass
has "header declares launcher" "$OUT/x.h" "tilec_status inc(tilec_stream stream, tilec_grid grid, const tilec_array *a, const tilec_array *c)"
has "header carries the doc comment" "$OUT/x.h" "Adds one."
has ".cu includes its header" "$OUT/x.cu" '#include "x.h"'
has "#line maps to the source" "$OUT/x.cu" "#line 6 \"$K\""
ls "$OUT"/*.tmp.* > /dev/null 2>&1 && fail "a compile left a temporary file" || pass
mkdir -p "$OUT/def" && (cd "$OUT/def" && "$TILEC" -I ../inc ../k.tile.c)
exists "default output in the working directory" "$OUT/def/k.cu"; exists "default header" "$OUT/def/k.h"
mkdir -p "$OUT/defh" && (cd "$OUT/defh" && "$TILEC" --target=host -I ../inc ../k.tile.c)
exists "default host output is .c" "$OUT/defh/k.c"; absent "host target writes no .cu" "$OUT/defh/k.cu"
expect_rc "--header into a missing directory" 2 "$TILEC" -I "$OUT/inc" -o "$OUT/y.cu" --header "$OUT/hdr/y_api.h" "$K"
absent "a failed --header left the .cu behind" "$OUT/y.cu"
mkdir -p "$OUT/hdr"
expect_rc "--header" 0 "$TILEC" -I "$OUT/inc" -o "$OUT/y.cu" --header "$OUT/hdr/y_api.h" "$K"
exists "--header file" "$OUT/hdr/y_api.h"; has "--header include" "$OUT/y.cu" '#include "y_api.h"'
absent "--header writes no y.h" "$OUT/y.h"
expect_rc "host target" 0 "$TILEC" --target=host -I "$OUT/inc" -o "$OUT/h.c" "$K"
has "host output is C" "$OUT/h.c" "static void tilec_k_inc_0("; exists "host header" "$OUT/h.h"
expect_rc "--no-line-directives" 0 "$TILEC" --no-line-directives -I "$OUT/inc" -o "$OUT/nl.cu" "$K"
lacks "--no-line-directives" "$OUT/nl.cu" "#line"
expect_rc "-ffile-prefix-map" 0 "$TILEC" "-ffile-prefix-map=$OUT=/src" -I "$OUT/inc" -o "$OUT/pm.cu" "$K"
has "-ffile-prefix-map rewrites #line" "$OUT/pm.cu" '#line 6 "/src/k.tile.c"'
lacks "-ffile-prefix-map leaves no absolute path" "$OUT/pm.cu" "$OUT"
expect_rc "--emit=ast" 0 "$TILEC" --emit=ast -I "$OUT/inc" "$K"; has "--emit=ast" "$OUT/out" "kernel void inc @4:18"
expect_rc "--emit=typed" 0 "$TILEC" --emit=typed -I "$OUT/inc" "$K"; has "--emit=typed" "$OUT/out" "builtin load : float32 (256,)"
expect_rc "--emit=ast -o" 0 "$TILEC" --emit=ast -I "$OUT/inc" -o "$OUT/k.ast" "$K"; has "--emit=ast -o" "$OUT/k.ast" "kernel void inc"
expect_rc "--emit=typed of a bad file" 1 "$TILEC" --emit=typed "$BAD"
[ -s "$OUT/out" ] && fail "--emit=typed of a bad file printed a dump" || pass
# --emit=tir: the tile IR code is emitted from, for the target and options given
expect_rc "--emit=tir" 0 "$TILEC" --emit=tir -I "$OUT/inc" "$K"
has "--emit=tir header" "$OUT/out" "target cuda"
has "--emit=tir values" "$OUT/out" "float32 (256,) regs (128,(2,1)):(2,(1,256))"
has "--emit=tir body" "$OUT/out" "store "
expect_rc "--emit=tir host" 0 "$TILEC" --emit=tir --target=host -I "$OUT/inc" "$K"
has "--emit=tir host: whole tiles" "$OUT/out" "whole 256:1"
has "--emit=tir host header" "$OUT/out" "host, one thread a block"
expect_rc "--emit=tir -O2 matmul" 0 "$TILEC" --emit=tir "$TOP/examples/matmul/matmul.tile.c"
has "--emit=tir: pipelined K loop" "$OUT/out" "pipelined K loop (k < "
has "--emit=tir: fragments" "$OUT/out" "+ fragments m16n16k16"
has "--emit=tir: explicit conversion" "$OUT/out" "convert %v8 fragments -> regs"
expect_rc "--emit=tir -O0 matmul" 0 "$TILEC" --emit=tir -O0 "$TOP/examples/matmul/matmul.tile.c"
lacks "--emit=tir -O0: no pipeline" "$OUT/out" "pipelined K loop"
has "--emit=tir -O0: fragment update" "$OUT/out" "on fragments"
expect_rc "--emit=tir of a bad file" 1 "$TILEC" --emit=tir "$BAD"
[ -s "$OUT/out" ] && fail "--emit=tir of a bad file printed a dump" || pass
expect_rc "--emit=bogus" 2 "$TILEC" --emit=bogus "$K"; has "--emit=bogus lists tir" "$OUT/err" "ast, typed, tir or code"
# shared-memory planning (codegen/smem.c): a 64 KB mirror is over the static 48 KB
cat > "$OUT/bigsmem.tile.c" <<'SRC'
#include <tilec.h>
TILE_KERNEL void big(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) c)
{
    float t = tile_load(a, .index = {0, 0}, .shape = {128, 128});
    tile_store(c, tile_transpose(t), .index = {0, 0});
}
SRC
expect_rc "shared memory over the limit" 1 "$TILEC" "$OUT/bigsmem.tile.c" -o "$OUT/bigsmem.cu"
has "shared memory: at the kernel" "$OUT/err" "bigsmem.tile.c:2:18: error: kernel 'big' needs 65536 bytes of shared memory (at most 49152 static, 166912 in all on sm_80)"
absent "shared memory: no output" "$OUT/bigsmem.cu"
expect_rc "shared memory: --emit=tir says it too" 1 "$TILEC" --emit=tir "$OUT/bigsmem.tile.c"
has "shared memory: --emit=tir error" "$OUT/err" "needs 65536 bytes of shared memory"
expect_rc "shared memory: the host target has none" 0 "$TILEC" --target=host "$OUT/bigsmem.tile.c" -o "$OUT/bigsmem.c"
rm -f "$OUT"/*.cu "$OUT"/*.h "$OUT"/*.c.out
expect_rc "--check writes nothing" 0 "$TILEC" --check -I "$OUT/inc" "$K"
ls "$OUT"/*.cu "$OUT"/*.h "$OUT"/k.c > /dev/null 2>&1 && fail "--check wrote files" || pass
expect_rc "--check -MD writes nothing" 0 "$TILEC" --check -MD -I "$OUT/inc" "$K"
ls "$OUT"/*.d ./*.d > /dev/null 2>&1 && fail "--check -MD wrote a .d" || pass
expect_rc "--check several files, one bad" 1 "$TILEC" --check -I "$OUT/inc" "$K" "$BAD" "$DI" -DSCALE=2
has "--check reports the bad file" "$OUT/err" "bad.tile.c:4:"
lacks "--check reports only the bad file" "$OUT/err" "k.tile.c"
lacks "--check reports only the bad file (2)" "$OUT/err" "di.tile.c"
expect_rc "--check: an I/O error outranks a source error" 2 "$TILEC" --check "$BAD" "$OUT/nope.tile.c"
expect_rc "several files need --check" 2 "$TILEC" -I "$OUT/inc" "$K" "$BAD"
expect_rc "errors exit 1" 1 "$TILEC" -o "$OUT/bad.cu" "$BAD"
absent "a failed compile leaves no .cu" "$OUT/bad.cu"; absent "a failed compile leaves no .h" "$OUT/bad.h"
ls "$OUT"/*.tmp.* > /dev/null 2>&1 && fail "a failed compile left a temporary file" || pass
expect_rc "a failed -MD compile" 1 "$TILEC" -MD -o "$OUT/badd.cu" "$BAD"
absent "a failed compile leaves no .d" "$OUT/badd.d"
# An output directory that cannot be written: a read-only directory for a
# normal user, /sys (not writable even by root) otherwise.
mkdir -p "$OUT/ro" && chmod 555 "$OUT/ro"
RO=$OUT/ro
if touch "$RO/probe" 2> /dev/null; then rm -f "$RO/probe"; RO=/sys; fi
if touch "$RO/tilec-cli-probe" 2> /dev/null; then rm -f "$RO/tilec-cli-probe"; echo "cli: no unwritable directory here; skipped"; else
    expect_rc "unwritable output" 2 "$TILEC" -I "$OUT/inc" -o "$RO/tilec-cli-x.cu" "$K"
    has "unwritable output names the file" "$OUT/err" "cannot write '$RO/tilec-cli-x.cu'"
    ls "$RO"/tilec-cli-x* > /dev/null 2>&1 && fail "unwritable output left a file" || pass
fi
chmod 755 "$OUT/ro"
expect_rc "output into a missing directory" 2 "$TILEC" -I "$OUT/inc" -o "$OUT/missing/x.cu" "$K"
has "output error names the file" "$OUT/err" "cannot write"
absent "output into a missing directory" "$OUT/missing"
expect_rc "refuses to overwrite the input" 2 "$TILEC" -I "$OUT/inc" --target=host -o "$K" "$K"
has "the input is intact" "$K" "Adds one."
# A special file as the output (a FIFO, /dev/null) is written in place: a
# temporary renamed over it would replace the node with a regular file (as
# root, /dev/null itself) or fail where its directory is not writable; and
# no FILE.h (nor .py, .d) is derived from its name.  /dev/null only once
# the FIFO passed, so that a regression cannot take /dev/null from the
# tests that follow.
rm -f "$OUT/fifo" "$OUT/fifo.out" "$OUT/fifo.h" && mkfifo "$OUT/fifo"
timeout 30 cat "$OUT/fifo" > "$OUT/fifo.out" &
reader=$!
timeout 30 "$TILEC" -I "$OUT/inc" --header "$OUT/fifo_hdr.h" -o "$OUT/fifo" "$K" 2> "$OUT/err"
rc=$?
wait "$reader"
if [ "$rc" -eq 0 ] && [ -p "$OUT/fifo" ] && grep -q "generated by tilec" "$OUT/fifo.out"; then
    pass
    absent "-o FIFO: no FILE.h beside it" "$OUT/fifo.h"
    expect_rc "-o /dev/null" 0 "$TILEC" -I "$OUT/inc" -o /dev/null "$K"
    [ -c /dev/null ] && pass || fail "-o /dev/null replaced /dev/null with $(ls -l /dev/null)"
    absent "-o /dev/null: no /dev/null.h" /dev/null.h
    expect_rc "-o /dev/null -MD without -MF" 2 "$TILEC" -I "$OUT/inc" -MD -o /dev/null "$K"
    has "-o /dev/null -MD names -MF" "$OUT/err" "-o /dev/null with -MD/-MMD needs -MF"
else
    fail "-o FIFO: exit $rc, $(ls -l "$OUT/fifo"), $(wc -c < "$OUT/fifo.out") bytes through it"; head -3 "$OUT/err"
fi

# --- -D, -I, -U -----------------------------------------------------------------
printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(float, 1) c)\n{\n    tile_store(c, tile_zeros(float, .shape = {N}), .index = {0});\n}\n' > "$OUT/d.tile.c"
expect_rc "-D defines" 0 "$TILEC" --check -DN=8 "$OUT/d.tile.c"
expect_rc "-D N=12 is not a power of two" 1 "$TILEC" --check -D N=12 "$OUT/d.tile.c"
expect_rc "missing -I" 1 "$TILEC" --check "$K"
has "missing -I names the header" "$OUT/err" "'sizes.h' file not found"
expect_rc "-U undefines" 1 "$TILEC" --check -DN=8 -UN "$OUT/d.tile.c"
expect_rc "-D then -U then -D" 0 "$TILEC" --check -DN=8 -UN -DN=16 "$OUT/d.tile.c"
expect_rc "-I and -D together" 0 "$TILEC" --emit=typed -I"$OUT/inc" -DSCALE=4 "$DI"
has "tile size from -I header and -D macro" "$OUT/out" "builtin zeros : float32 (64,)"
expect_rc "-D value changes the shape" 0 "$TILEC" --emit=typed -I "$OUT/inc" -D SCALE=2 "$DI"
has "-D SCALE=2" "$OUT/out" "builtin zeros : float32 (128,)"

# --- warnings, colour and the diagnostic format ----------------------------------
expect_rc "warning exits 0" 0 "$TILEC" --check --color=never "$WARN"
has "warning printed with its name" "$OUT/err" "warn.tile.c:5:12: warning: expression result unused [-Wunused-value]"
n=$(grep -c "warning: expression result unused" "$OUT/err"); [ "$n" = 1 ] && pass || fail "one warning per line and text, got $n"
expect_rc "-Werror" 1 "$TILEC" --check -Werror --color=never "$WARN"; has "-Werror makes it an error" "$OUT/err" "error: expression result unused [-Werror=unused-value]"
# Each warning by name, as gcc: -Wno-NAME, -Werror=NAME, -Wno-error=NAME.
expect_rc "-Wno-unused-value" 0 "$TILEC" --check -Wno-unused-value "$WARN"
[ -s "$OUT/err" ] && fail "-Wno-unused-value still prints" || pass
expect_rc "-Wno-NAME then -WNAME" 0 "$TILEC" --check --color=never -Wno-unused-value -Wunused-value "$WARN"; has "-WNAME re-enables" "$OUT/err" "[-Wunused-value]"
expect_rc "-Werror=unused-value" 1 "$TILEC" --check --color=never -Werror=unused-value "$WARN"
has "-Werror=NAME" "$OUT/err" "warn.tile.c:5:12: error: expression result unused [-Werror=unused-value]"
expect_rc "-Werror -Wno-error=unused-value" 0 "$TILEC" --check --color=never -Wno-error=unused-value -Werror "$WARN"
has "-Wno-error=NAME beats -Werror in any order" "$OUT/err" "warning: expression result unused [-Wunused-value]"
expect_rc "-Werror -Wno-error" 0 "$TILEC" --check -Werror -Wno-error "$WARN"
expect_rc "-Werror=NAME -Wno-NAME" 0 "$TILEC" --check -Werror=unused-value -Wno-unused-value "$WARN"
expect_rc "-Werror=other-name" 0 "$TILEC" --check -Werror=narrow-reduction "$WARN"
expect_rc "-Wall -Wextra" 0 "$TILEC" --check --color=never -Wall -Wextra "$WARN"; has "-Wall -Wextra" "$OUT/err" "[-Wunused-value]"
expect_rc "-pedantic, -Wpedantic" 0 "$TILEC" --check -pedantic -Wpedantic -I "$OUT/inc" "$K"
# libclang's warnings carry clang's names, and -W options reach libclang.
printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(float, 1) c)\n{\n    int y = 3;\n    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});\n}\n' > "$OUT/unusedvar.tile.c"
expect_rc "clang's -Wunused-variable is off by default" 0 "$TILEC" --check "$OUT/unusedvar.tile.c"
[ -s "$OUT/err" ] && fail "an unused variable warned without -Wall" || pass
expect_rc "-Wall reaches libclang" 0 "$TILEC" --check --color=never -Wall "$OUT/unusedvar.tile.c"
has "libclang's warning with clang's name" "$OUT/err" "unusedvar.tile.c:4:9: warning: unused variable 'y' [-Wunused-variable]"
expect_rc "-Wunused-variable reaches libclang" 0 "$TILEC" --check --color=never -Wunused-variable "$OUT/unusedvar.tile.c"; has "-Wunused-variable" "$OUT/err" "[-Wunused-variable]"
expect_rc "-Wall -Wno-unused-variable" 0 "$TILEC" --check -Wall -Wno-unused-variable "$OUT/unusedvar.tile.c"
[ -s "$OUT/err" ] && fail "-Wno-unused-variable did not reach libclang" || pass
expect_rc "-Wall -Werror=unused-variable" 1 "$TILEC" --check --color=never -Wall -Werror=unused-variable "$OUT/unusedvar.tile.c"
has "-Werror=NAME of libclang's" "$OUT/err" "error: unused variable 'y' [-Werror=unused-variable]"
expect_rc "-Wall: tilec.h's option structs need no braces" 0 "$TILEC" --check -Wall examples/softmax/softmax.tile.c
[ -s "$OUT/err" ] && fail "-Wall warned about a clean example" || pass
# An unknown warning option is a warning (gcc's wording, with the nearest
# name of tilec's, clang's or the -W options), not a usage error.
expect_rc "-Wfoo is a warning" 0 "$TILEC" --check --color=never -Wfoo -I "$OUT/inc" "$K"
is "-Wfoo" "$OUT/err" "tilec: warning: unknown warning option '-Wfoo' [-Wunknown-warning-option]"
expect_rc "-Wunused-valeu" 0 "$TILEC" --check --color=never -Wunused-valeu -Wno-narow-reduction -Werror=unused-varable -Wal -I "$OUT/inc" "$K"
has "did you mean tilec's" "$OUT/err" "tilec: warning: unknown warning option '-Wunused-valeu'; did you mean '-Wunused-value'? [-Wunknown-warning-option]"
has "did you mean, -Wno-" "$OUT/err" "tilec: warning: unknown warning option '-Wno-narow-reduction'; did you mean '-Wno-narrow-reduction'? [-Wunknown-warning-option]"
has "did you mean libclang's" "$OUT/err" "tilec: warning: unknown warning option '-Werror=unused-varable'; did you mean '-Werror=unused-variable'? [-Wunknown-warning-option]"
has "did you mean -Wall" "$OUT/err" "tilec: warning: unknown warning option '-Wal'; did you mean '-Wall'? [-Wunknown-warning-option]"
n=$(grep -c "unknown warning option" "$OUT/err"); [ "$n" = 4 ] && pass || fail "unknown warning options: want 4 lines, got $n"
expect_rc "-Wfoo with --check of two files" 0 "$TILEC" --check --color=never -Wfoo -I "$OUT/inc" "$K" "$K"
n=$(grep -c "unknown warning option" "$OUT/err"); [ "$n" = 1 ] && pass || fail "-Wfoo reported $n times for two files, want once"
expect_rc "-Wno-unknown-warning-option" 0 "$TILEC" --check -Wfoo -Wno-unknown-warning-option -I "$OUT/inc" "$K"
[ -s "$OUT/err" ] && fail "-Wno-unknown-warning-option still prints" || pass
expect_rc "-Werror -Wfoo: a usage error" 2 "$TILEC" --check --color=never -Werror -Wfoo -I "$OUT/inc" "$K"
has "-Werror -Wfoo" "$OUT/err" "tilec: error: unknown warning option '-Wfoo' [-Werror=unknown-warning-option]"
expect_rc "-W alone" 2 "$TILEC" --check -W "$K"
# tile_sum of a float16 tile going into a float: warned once per statement
# (not once per TILE_CONST specialization); casts, float tiles, float16
# destinations and max/min are left alone.
NS=$OUT/narrow_sum.tile.c
printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(const _Float16, 1) x, TILE_ARRAY(float, 1) c, TILE_CONST(int, 16, 32) B)\n{\n    _Float16 h = tile_load(x, .index = {0}, .shape = {B});\n    float f = tile_load(x, .index = {0}, .shape = {B});\n    float s = -tile_sum(h) / 16.0f;\n    s += tile_prod(h);\n    float a = tile_sum(f) + tile_cast(tile_sum(h), float);\n    _Float16 b = tile_sum(h);\n    float m = tile_max(h);\n    tile_store(c, tile_reshape(s + a + b + m, .shape = {1}), .index = {0});\n}\n' > "$NS"
expect_rc "narrow sum warns" 0 "$TILEC" --check --color=never "$NS"
has "narrow sum warning text" "$OUT/err" "narrow_sum.tile.c:6:16: warning: tile_sum of a float16 tile is rounded to float16 before it becomes float32; load or tile_cast the tile to float first to keep the float32 result [-Wnarrow-reduction]"
has "narrow prod in +=" "$OUT/err" "narrow_sum.tile.c:7:10: warning: tile_prod of a float16 tile"
n=$(grep -c "warning:" "$OUT/err"); [ "$n" = 2 ] && pass || fail "narrow sum: want 2 warnings, got $n"
expect_rc "narrow sum with -Werror" 1 "$TILEC" --check -Werror --color=never "$NS"
expect_rc "-Wno-narrow-reduction" 0 "$TILEC" --check -Wno-narrow-reduction "$NS"
[ -s "$OUT/err" ] && fail "-Wno-narrow-reduction still prints" || pass
expect_rc "-Werror on a clean file" 0 "$TILEC" --check -Werror -I "$OUT/inc" "$K"
expect_rc "-w" 0 "$TILEC" --check -w "$WARN"
[ -s "$OUT/err" ] && fail "-w still prints" || pass
printf '#include <tilec.h>\n' > "$OUT/empty.tile.c"
expect_rc "no kernels: a warning" 0 "$TILEC" --check --color=never "$OUT/empty.tile.c"
is "no kernels warning" "$OUT/err" "$OUT/empty.tile.c: warning: no TILE_KERNEL or TILE_FUNC definitions in this file [-Wmissing-kernels]"
expect_rc "-Wno-missing-kernels" 0 "$TILEC" --check -Wno-missing-kernels "$OUT/empty.tile.c"
[ -s "$OUT/err" ] && fail "-Wno-missing-kernels still prints" || pass
expect_rc "--color=always" 1 "$TILEC" --check --color=always "$BAD"
has "--color=always has escapes" "$OUT/err" "$esc["
expect_rc "-fdiagnostics-color=always" 1 "$TILEC" --check -fdiagnostics-color=always "$BAD"
has "-fdiagnostics-color=always has escapes" "$OUT/err" "$esc["
expect_rc "--color=never" 1 "$TILEC" --check --color=never "$BAD"; lacks "--color=never" "$OUT/err" "$esc"
expect_rc "--color=auto to a file" 1 "$TILEC" --check --color=auto "$BAD"; lacks "--color=auto to a file" "$OUT/err" "$esc"
NO_COLOR=1 "$TILEC" --check "$BAD" 2> "$OUT/err"; lacks "NO_COLOR" "$OUT/err" "$esc"
NO_COLOR=1 "$TILEC" --check --color=always "$BAD" 2> "$OUT/err"; has "--color=always beats NO_COLOR" "$OUT/err" "$esc["
"$TILEC" --check --color=never "$BAD" 2> "$OUT/err"
is "gcc-format diagnostic" "$OUT/err" "$BAD:4:43: error: tile dimension 12 is not a power of two (tile_zeros, .shape entry 0)
    4 |     float t = tile_zeros(float, .shape = {12});
      |                                           ^~
$BAD:4:43: note: fix: round it up to a power of two and let padding or masking handle the rest"
# One root cause gives one error (docs/cli.md): each rejected program of the
# diagnostics suite prints as many errors as it expects.  And none of them
# trips a sanitizer (UBSan exits 1 too, so the diag section cannot tell).
bad=""; san=""
for src in tests/diag/*.tile.c; do
    [ -f "$src" ] || continue
    "$TILEC" --check --color=never "$src" > "$OUT/diag.err" 2>&1
    n=$(grep -c ': error: ' "$OUT/diag.err")
    e=$(grep -c '// expect: .*: error: ' "$src")
    [ "$n" -eq "$e" ] || bad="$bad $src($n errors, want $e)"
    grep -q 'runtime error\|Sanitizer' "$OUT/diag.err" && san="$san $src"
done
[ -z "$bad" ] && pass || fail "one root cause, one error:$bad"
[ -z "$san" ] && pass || fail "sanitizer reports:$san"
# clang's warnings about tilec.h's own declarations must not replace tilec's
# error under -Werror.
expect_rc "-Werror: store into a const array" 1 "$TILEC" --check -Werror --color=never tests/diag/readonly_store.tile.c
has "-Werror keeps tilec's read-only error" "$OUT/err" "tests/diag/readonly_store.tile.c:6:16: error: array 'a' is read-only (declared with a const element type)"
expect_rc "-Werror: option given twice" 1 "$TILEC" --check -Werror --color=never tests/diag/option_twice.tile.c
has "-Werror keeps tilec's option error" "$OUT/err" "tests/diag/option_twice.tile.c:5:57: error: option '.shape' given twice"

# --- dependency files ---------------------------------------------------------
expect_rc "-MD" 0 "$TILEC" -MD -I "$OUT/inc" -o "$OUT/dep.cu" "$K"
has "-MD targets" "$OUT/dep.d" "$OUT/dep.cu $OUT/dep.h:"
has "-MD source" "$OUT/dep.d" "$K"
has "-MD header" "$OUT/dep.d" "$OUT/inc/sizes.h"
has "-MD tilec.h" "$OUT/dep.d" "tilec.h"
has "-MD system headers" "$OUT/dep.d" "stdint.h"
exists "-MD still writes the .cu" "$OUT/dep.cu"
mkdir -p "$OUT/mdd" && (cd "$OUT/mdd" && "$TILEC" -MD -I ../inc ../k.tile.c)
has "-MD without -o: k.d beside k.cu" "$OUT/mdd/k.d" "k.cu k.h:"
expect_rc "-MMD" 0 "$TILEC" -MMD -I "$OUT/inc" -o "$OUT/dep2.cu" "$K"
has "-MMD keeps tilec.h" "$OUT/dep2.d" "tilec.h"
has "-MMD keeps user headers" "$OUT/dep2.d" "sizes.h"
lacks "-MMD drops system headers" "$OUT/dep2.d" "stdint.h"
lacks "-MMD drops system headers (2)" "$OUT/dep2.d" "stdbool.h"
# -isystem DIR: an include directory whose headers are system headers.
expect_rc "-isystem" 0 "$TILEC" -MMD -isystem "$OUT/inc" -o "$OUT/dep6.cu" "$K"
lacks "-MMD drops -isystem headers" "$OUT/dep6.d" "sizes.h"
has "-MMD keeps tilec.h with -isystem" "$OUT/dep6.d" "tilec.h"
expect_rc "-isystemDIR" 0 "$TILEC" -MD "-isystem$OUT/inc" -o "$OUT/dep7.cu" "$K"
has "-MD keeps -isystem headers" "$OUT/dep7.d" "$OUT/inc/sizes.h"
expect_rc "-MF -MT -MP" 0 "$TILEC" -MMD -MF "$OUT/custom.d" -MT mytarget -MP -I "$OUT/inc" -o "$OUT/dep3.cu" "$K"
absent "-MF: no default .d" "$OUT/dep3.d"
has "-MT" "$OUT/custom.d" "mytarget:"
lacks "-MT replaces the default targets" "$OUT/custom.d" "dep3.cu"
has "-MP phony header" "$OUT/custom.d" "$OUT/inc/sizes.h:"
lacks "-MP: no phony target for the source" "$OUT/custom.d" "$K:"
expect_rc "-MT twice" 0 "$TILEC" -MMD -MF "$OUT/t2.d" -MT one -MT two -I "$OUT/inc" -o "$OUT/dep5.cu" "$K"
has "-MT twice" "$OUT/t2.d" "one two:"
expect_rc "-MQ" 0 "$TILEC" -MMD -MF "$OUT/q.d" -MQ 'a$b' -I "$OUT/inc" -o "$OUT/dep4.cu" "$K"
has "-MQ quotes \$" "$OUT/q.d" 'a$$b:'
expect_rc "-MT does not quote" 0 "$TILEC" -MMD -MF "$OUT/t.d" -MT 'a$(X)' -I "$OUT/inc" -o "$OUT/dep4.cu" "$K"
has "-MT verbatim" "$OUT/t.d" 'a$(X):'
rm -f "$OUT/m.cu" "$OUT/m.h"
expect_rc "-M" 0 "$TILEC" -M -I "$OUT/inc" -o "$OUT/m.cu" "$K"
has "-M prints" "$OUT/out" "sizes.h"
has "-M prints the targets" "$OUT/out" "$OUT/m.cu $OUT/m.h:"
absent "-M writes no .cu" "$OUT/m.cu"; absent "-M writes no .h" "$OUT/m.h"
expect_rc "-MM" 0 "$TILEC" -MM -I "$OUT/inc" -o "$OUT/m.cu" "$K"
has "-MM keeps tilec.h" "$OUT/out" "tilec.h"; lacks "-MM drops system headers" "$OUT/out" "stdint.h"
mkdir -p "$OUT/with space"
cp "$K" "$OUT/with space/k.tile.c"; cp "$OUT/inc/sizes.h" "$OUT/with space/"
expect_rc "space in path" 0 "$TILEC" -MD -I "$OUT/with space" -o "$OUT/with space/s.cu" "$OUT/with space/k.tile.c"
has "space escaped" "$OUT/with space/s.d" 'with\ space/k.tile.c'
has "space escaped in the target" "$OUT/with space/s.d" 'with\ space/s.cu'
mkdir -p "$OUT/d\$ir"
cp "$K" "$OUT/d\$ir/k.tile.c"
expect_rc "dollar in path" 0 "$TILEC" -MD -I "$OUT/inc" -o "$OUT/d\$ir/s.cu" "$OUT/d\$ir/k.tile.c"
has "dollar doubled" "$OUT/d\$ir/s.d" 'd$$ir/k.tile.c'

# --- response files -------------------------------------------------------------
printf -- '-I "%s/inc"\n-o "%s/r.cu"\n' "$OUT" "$OUT" > "$OUT/args.rsp"
expect_rc "@file" 0 "$TILEC" "@$OUT/args.rsp" "$K"
exists "@file options applied" "$OUT/r.cu"
printf -- "-I '%s/with space'\n'-DSCALE=2' --emit=typed\n" "$OUT" > "$OUT/q.rsp"
printf -- "@%s/q.rsp\n" "$OUT" > "$OUT/outer.rsp"
expect_rc "nested @file with quotes" 0 "$TILEC" "@$OUT/outer.rsp" "$DI"
has "nested @file applied" "$OUT/out" "builtin zeros : float32 (128,)"
printf -- '"%s/with space/k.tile.c" -I "%s/with space" --check\n' "$OUT" "$OUT" > "$OUT/in.rsp"
expect_rc "@file naming the input" 0 "$TILEC" "@$OUT/in.rsp"
expect_rc "@missing" 2 "$TILEC" "@$OUT/none.rsp" "$K"
has "@missing names it" "$OUT/err" "none.rsp"

# --- determinism and stable timestamps ---------------------------------------
mkdir -p "$OUT/d1/deep/er" "$OUT/d2"
cp "$K" "$OUT/inc/sizes.h" "$OUT/d1/deep/er/"; cp "$K" "$OUT/inc/sizes.h" "$OUT/d2/"
for tgt in cuda host; do
    ext=cu; [ $tgt = host ] && ext=c
    (cd "$OUT/d1/deep/er" && "$TILEC" --target=$tgt --no-line-directives -I . -o out.$ext k.tile.c) &&
    "$TILEC" --target=$tgt --no-line-directives -I "$OUT/d2" -o "$OUT/d2/out.$ext" "$OUT/d2/k.tile.c"
    if cmp -s "$OUT/d1/deep/er/out.$ext" "$OUT/d2/out.$ext" && cmp -s "$OUT/d1/deep/er/out.h" "$OUT/d2/out.h"; then pass; else
        fail "$tgt outputs differ between directories (relative vs absolute path)"; diff "$OUT/d1/deep/er/out.$ext" "$OUT/d2/out.$ext" | head -5; fi
    # With #line kept, -ffile-prefix-map makes them identical too.
    (cd "$OUT/d1/deep/er" && "$TILEC" --target=$tgt "-ffile-prefix-map=$OUT/d1/deep/er=/src" -I . -o pm.$ext "$OUT/d1/deep/er/k.tile.c") &&
    "$TILEC" --target=$tgt "-ffile-prefix-map=$OUT/d2=/src" -I "$OUT/d2" -o "$OUT/d2/pm.$ext" "$OUT/d2/k.tile.c"
    if cmp -s "$OUT/d1/deep/er/pm.$ext" "$OUT/d2/pm.$ext" && cmp -s "$OUT/d1/deep/er/pm.h" "$OUT/d2/pm.h"; then pass; else
        fail "$tgt outputs differ under -ffile-prefix-map"; diff "$OUT/d1/deep/er/pm.$ext" "$OUT/d2/pm.$ext" | head -5; fi
    lacks "$tgt output names no build directory" "$OUT/d2/pm.$ext" "$OUT"
done
# Unchanged outputs: touched by default (make sees the rule done), kept with
# --write-if-changed (Ninja's restat); the bytes stay; changed ones rewritten.
"$TILEC" -I "$OUT/inc" -o "$OUT/same.cu" "$K"; t1=$(stat -c %Y "$OUT/same.cu"); h1=$(stat -c %Y "$OUT/same.h")
"$TILEC" -I "$OUT/inc" --write-if-changed -o "$OUT/wic.cu" "$K"; w1=$(stat -c %Y "$OUT/wic.cu"); wh1=$(stat -c %Y "$OUT/wic.h")
"$TILEC" -I "$OUT/inc" -DSCALE=2 -o "$OUT/chg.cu" "$DI"; c1=$(stat -c %Y "$OUT/chg.cu"); cp "$OUT/chg.cu" "$OUT/chg.old"
cp "$OUT/same.cu" "$OUT/same.old"; ino1=$(stat -c %i "$OUT/same.cu")
sleep 1
"$TILEC" -I "$OUT/inc" -o "$OUT/same.cu" "$K"; t2=$(stat -c %Y "$OUT/same.cu"); h2=$(stat -c %Y "$OUT/same.h")
"$TILEC" -I "$OUT/inc" --write-if-changed -o "$OUT/wic.cu" "$K"; w2=$(stat -c %Y "$OUT/wic.cu"); wh2=$(stat -c %Y "$OUT/wic.h")
[ "$t1" != "$t2" ] && pass || fail "an unchanged .cu was not touched"
[ "$h1" != "$h2" ] && pass || fail "an unchanged .h was not touched"
[ "$(stat -c %i "$OUT/same.cu")" = "$ino1" ] && cmp -s "$OUT/same.cu" "$OUT/same.old" && pass || fail "an unchanged .cu was rewritten instead of touched"
[ "$w1" = "$w2" ] && pass || fail "--write-if-changed: an unchanged .cu was touched"
[ "$wh1" = "$wh2" ] && pass || fail "--write-if-changed: an unchanged .h was touched"
"$TILEC" -I "$OUT/inc" -DSCALE=4 -o "$OUT/chg.cu" "$DI"; c2=$(stat -c %Y "$OUT/chg.cu")
if cmp -s "$OUT/chg.cu" "$OUT/chg.old" || [ "$c1" = "$c2" ]; then fail "a changed output was not rewritten"; else pass; fi
# -o - writes the generated source to standard output and no file named '-'.
mkdir -p "$OUT/stdout" && (cd "$OUT/stdout" && "$TILEC" -I "$OUT/inc" -o - "$K" > code.cu 2> err)
if [ $? -eq 0 ] && grep -q '__global__' "$OUT/stdout/code.cu" && [ ! -e "$OUT/stdout/-" ] && [ ! -e "$OUT/stdout/-.h" ]; then pass; else
    fail "-o - did not write the code to standard output"; ls "$OUT/stdout"; fi
(cd "$OUT/stdout" && "$TILEC" -I "$OUT/inc" -o - --header=k.h "$K" > code2.cu 2> err)
if cmp -s "$OUT/stdout/code.cu" "$OUT/stdout/code2.cu" && grep -q 'tilec_status' "$OUT/stdout/k.h"; then pass; else fail "-o - --header=FILE"; fi
expect_rc "-o - -MD without -MF" 2 "$TILEC" -I "$OUT/inc" -o - -MD "$K"
# --python: the module beside the output (or at =FILE), a target of the rule.
mkdir -p "$OUT/py" && "$TILEC" -I "$OUT/inc" --target=host --python -MMD -o "$OUT/py/k.c" "$K"
if [ -f "$OUT/py/k.py" ] && grep -q '^def ' "$OUT/py/k.py" && grep -q 'k.py:' "$OUT/py/k.d"; then pass; else
    fail "--python: no k.py beside k.c, or not a target in k.d"; cat "$OUT/py/k.d"; fi
"$TILEC" -I "$OUT/inc" --target=host --python="$OUT/py/other_name.py" -o "$OUT/py/k2.c" "$K"
has "--python=FILE names the module's library" "$OUT/py/other_name.py" "libother_name.so"
expect_rc "--python=FILE that is no Python module name" 2 "$TILEC" -I "$OUT/inc" --python="$OUT/py/bad-name.py" -o "$OUT/py/k3.cu" "$K"
expect_rc "-o - --python without =FILE" 2 "$TILEC" -I "$OUT/inc" -o - --python "$K"

# --- symbol prefixes: two files with a vec_add kernel in one program ------------
# Each file's launcher is named apart by --symbol-prefix (or --rename); the
# kernels themselves are static, so nothing else of the two files collides.
# Without a prefix the link fails: both files define vec_add (docs/cli.md).
SP=$OUT/sym
mkdir -p "$SP"
printf '#include <tilec.h>\nTILE_KERNEL void vec_add(TILE_ARRAY(const float, 1) a, TILE_ARRAY(const float, 1) b, TILE_ARRAY(float, 1) c)\n{\n    float x = tile_load(a, .index = {tile_bid(0)}, .shape = {64}, .padding = TILE_PAD_ZERO);\n    float y = tile_load(b, .index = {tile_bid(0)}, .shape = {64}, .padding = TILE_PAD_ZERO);\n    tile_store(c, x %s y, .index = {tile_bid(0)});\n}\n' + > "$SP/add.tile.c"
printf '#include <tilec.h>\nTILE_KERNEL void vec_add(TILE_ARRAY(const float, 1) a, TILE_ARRAY(const float, 1) b, TILE_ARRAY(float, 1) c)\n{\n    float x = tile_load(a, .index = {tile_bid(0)}, .shape = {64}, .padding = TILE_PAD_ZERO);\n    float y = tile_load(b, .index = {tile_bid(0)}, .shape = {64}, .padding = TILE_PAD_ZERO);\n    tile_store(c, x %s y, .index = {tile_bid(0)});\n}\n' - > "$SP/sub.tile.c"
cat > "$SP/main.c" <<'SRC'
#include <stdio.h>
#include "add.h"
#include "sub.h"
int main(void)
{
    float a[100], b[100], s[100], d[100];
    for (int i = 0; i < 100; i++) a[i] = (float)i, b[i] = 1.0f;
    tilec_array ta = tilec_array_1d(a, TILEC_FLOAT32, 100), tb = tilec_array_1d(b, TILEC_FLOAT32, 100);
    tilec_array ts = tilec_array_1d(s, TILEC_FLOAT32, 100), td = tilec_array_1d(d, TILEC_FLOAT32, 100);
    if (add_vec_add(NULL, tilec_grid_1d(100, 64), &ta, &tb, &ts) != TILEC_OK) return 1;
    if (sub_vec_add(NULL, tilec_grid_1d(100, 64), &ta, &tb, &td) != TILEC_OK) return 1;
    printf("%g %g %g %g\n", s[0], s[99], d[0], d[99]);
    return 0;
}
SRC
expect_rc "--symbol-prefix=add_" 0 "$TILEC" --target=host --symbol-prefix=add_ -o "$SP/add.c" "$SP/add.tile.c"
has "--symbol-prefix in the header" "$SP/add.h" "tilec_status add_vec_add(tilec_stream stream, tilec_grid grid,"
has "--symbol-prefix in the source" "$SP/add.c" "tilec_status add_vec_add(tilec_stream stream, tilec_grid grid,"
lacks "--symbol-prefix: no unprefixed launcher" "$SP/add.h" "tilec_status vec_add("
expect_rc "--rename=vec_add=sub_vec_add" 0 "$TILEC" --target=host --rename=vec_add=sub_vec_add -o "$SP/sub.c" "$SP/sub.tile.c"
has "--rename in the header" "$SP/sub.h" "tilec_status sub_vec_add(tilec_stream stream"
CCX=${CC:-cc}
if $CCX -std=c17 -Wall -Wextra -Werror -I"$SP" -Iruntime -c -o "$SP/add.o" "$SP/add.c" 2> "$SP/cc.err" &&
   $CCX -std=c17 -Wall -Wextra -Werror -I"$SP" -Iruntime -c -o "$SP/sub.o" "$SP/sub.c" 2>> "$SP/cc.err" &&
   $CCX -std=c17 -Wall -Wextra -Werror -I"$SP" -Iruntime -o "$SP/app" "$SP/main.c" "$SP/add.o" "$SP/sub.o" runtime/tilec_rt.c -lm 2>> "$SP/cc.err"; then
    pass
    "$SP/app" > "$SP/run.out" 2>&1 && pass || fail "the program with two vec_add kernels failed"
    is "each launcher runs its own kernel" "$SP/run.out" "1 100 -1 98"
else
    fail "two prefixed files do not build into one program"; sed 's/^/    /' "$SP/cc.err" | head -10
fi
# The kernels of both files are local symbols: only the launchers are global.
if command -v nm > /dev/null 2>&1; then
    g=$(nm -g --defined-only "$SP/add.o" | awk '{print $3}' | tr '\n' ' ')
    [ "$g" = "add_vec_add " ] && pass || fail "add.o defines global symbols other than add_vec_add: $g"
fi
# Without prefixes the same two files do not link: vec_add twice.
"$TILEC" --target=host -o "$SP/add0.c" "$SP/add.tile.c" && "$TILEC" --target=host -o "$SP/sub0.c" "$SP/sub.tile.c"
sed 's/add_vec_add/vec_add/; s/sub_vec_add/vec_add/; s/"add.h"/"add0.h"/; s/"sub.h"/"sub0.h"/' "$SP/main.c" > "$SP/main0.c"
if $CCX -std=c17 -I"$SP" -Iruntime -o "$SP/app0" "$SP/main0.c" "$SP/add0.c" "$SP/sub0.c" runtime/tilec_rt.c -lm > "$SP/link0.err" 2>&1; then
    fail "two unprefixed vec_add files linked"
else
    has "without prefixes: a duplicate symbol" "$SP/link0.err" "vec_add"
    has "without prefixes: multiple definition" "$SP/link0.err" "multiple definition"
fi
# The CUDA target: static kernels, prefixed extern "C" launcher.
expect_rc "--symbol-prefix, cuda" 0 "$TILEC" --symbol-prefix=add_ -o "$SP/add.cu" "$SP/add.tile.c"
has "cuda kernels are static" "$SP/add.cu" "static __global__ void __launch_bounds__("
has "cuda launcher prefixed" "$SP/add.cu" 'extern "C" tilec_status add_vec_add(tilec_stream stream'
expect_rc "--symbol-prefix wants an identifier" 2 "$TILEC" --symbol-prefix=9x -o "$SP/x.c" "$SP/add.tile.c"
expect_rc "--rename wants OLD=NEW" 2 "$TILEC" --rename=vec_add "$SP/add.tile.c"
expect_rc "--rename of a kernel the file lacks" 2 "$TILEC" --target=host --rename=nope=x -o "$SP/x.c" "$SP/add.tile.c"
has "--rename of a missing kernel says so" "$OUT/err" "defines no kernel 'nope'"
absent "--rename of a missing kernel writes nothing" "$SP/x.c"

# --- robustness -------------------------------------------------------------------
# A block longer than any fixed-size child list keeps every statement.
{
    printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(int32_t, 1) c)\n{\n    int32_t x = tile_zeros(int32_t, .shape = {4});\n'
    i=0; while [ $i -lt 600 ]; do echo '    x = x + 1;'; i=$((i + 1)); done
    printf '    tile_store(c, x, .index = {0});\n}\n'
} > "$OUT/long.tile.c"
expect_rc "600 statements" 0 "$TILEC" --emit=ast "$OUT/long.tile.c"
n=$(grep -c 'assign x=' "$OUT/out")
[ "$n" -eq 600 ] && pass || fail "a block of 602 statements keeps $n of the 600 assignments"
has "the last statement of a long block" "$OUT/out" "builtin store @605:5"

# Constants near the int64 limits: a clean error, no sanitizer report.
printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(float, 2) c)\n{\n    tile_store(c, tile_zeros(float, .shape = {1099511627776, 1099511627776}), .index = {0, 0});\n}\n' > "$OUT/huge.tile.c"
expect_rc "a 2^80-element tile" 1 "$TILEC" --check --color=never "$OUT/huge.tile.c"
has "a 2^80-element tile is too large" "$OUT/err" "is too large"
lacks "a 2^80-element tile: no overflow" "$OUT/err" "runtime error"
printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(float, 1) c)\n{\n    float t = tile_zeros(float, .shape = {8});\n    tile_store(c, tile_extract(t, .index = {4611686018427387904}, .shape = {4}), .index = {0});\n}\n' > "$OUT/hugeidx.tile.c"
expect_rc "tile_extract at index 2^62" 1 "$TILEC" --check --color=never "$OUT/hugeidx.tile.c"
has "tile_extract at index 2^62 lies outside" "$OUT/err" "lies outside the tile"
lacks "tile_extract at index 2^62: no overflow" "$OUT/err" "runtime error"

# --- subcommands ----------------------------------------------------------------
expect_rc "promote" 0 "$TILEC" promote int16 float32; is "promote result" "$OUT/out" "float32"
expect_rc "promote error" 1 "$TILEC" promote int8 uint8; has "promote error says why" "$OUT/err" "cannot mix signed and unsigned"
[ -s "$OUT/out" ] && fail "promote error printed a result" || pass
expect_rc "promote unknown type" 2 "$TILEC" promote int8 bogus
expect_rc "promote constant" 1 "$TILEC" promote int8 300
expect_rc "broadcast" 0 "$TILEC" broadcast "(16,8)" "(8,)"; is "broadcast result" "$OUT/out" "(16,8)"
expect_rc "broadcast error" 1 "$TILEC" broadcast "(16,8)" "(4,)"; has "broadcast error prints both shapes" "$OUT/err" "(16,8) and (4,)"
expect_rc "layout" 0 "$TILEC" layout coalesce "(2,1):(3,1)"; is "layout result" "$OUT/out" "2:3"

# --- tuning (TILE_TUNABLE, --tuning) --------------------------------------------
TK=$TOP/tests/kernels/tuned/tuned.tile.c
TF=$TOP/tests/kernels/tuned/tuning.txt
mkdir -p "$OUT/tuneA" "$OUT/tuneB"
printf 'tilec 0.0.9\ndevice NVIDIA H100\ncc 90\nkernel tuned shape x=8 y=8 o=8 -> BN=16\nkernel nosuch shape x=1 -> BN=16\n' > "$OUT/other.txt"
expect_rc "--tuning" 0 "$TILEC" --target=host --tuning "$TF" -o "$OUT/tuned1.c" "$TK"
expect_rc "--tuning A" 0 "$TILEC" --target=host --tuning "$TF" -o "$OUT/tuneA/tuned.c" "$TK"
has "--tuning: the table" "$OUT/tuned1.c" "static const long long tab_[3][5]"
has "--tuning: no grid, no BN in the launcher" "$OUT/tuned1.h" "tilec_status tuned(tilec_stream stream, const tilec_array *x, const tilec_array *y, const tilec_array *o, int32_t BM);"
expect_rc "--tuning B" 0 "$TILEC" --target=host --tuning "$TF" -o "$OUT/tuneB/tuned.c" "$TK"
if cmp -s "$OUT/tuneA/tuned.c" "$OUT/tuneB/tuned.c"; then pass; else fail "--tuning: two runs differ"; fi
expect_rc "--tuning -MD" 0 "$TILEC" --target=host --tuning "$TF" -MD -MF "$OUT/tuned.d" -o "$OUT/tuned3.c" "$TK"
has "--tuning -MD: the rule lists the tuning file" "$OUT/tuned.d" "tests/kernels/tuned/tuning.txt"
expect_rc "--tuning cuda" 0 "$TILEC" --arch=sm_90 --color=never --tuning "$TF" -o "$OUT/tuned1.cu" "$TK"
has "--tuning cuda: a host file warns" "$OUT/err" "warning: tuning file measured on the host (cc 0); compiling for sm_90 [-Wtuning-device]"
expect_rc "--tuning host, a cc 90 file" 0 "$TILEC" --target=host --color=never -Wno-tuning-kernel --tuning "$OUT/other.txt" -o "$OUT/t.c" "$TK"
has "--tuning host: a GPU file warns" "$OUT/err" "warning: tuning file measured on a device of compute capability 90; compiling for the host [-Wtuning-device]"
has "--tuning cuda: the cc query" "$OUT/tuned1.cu" "cudaDevAttrComputeCapabilityMajor"
expect_rc "--tuning missing file" 2 "$TILEC" --target=host --tuning "$OUT/nope.txt" -o "$OUT/t.c" "$TK"
has "--tuning missing file says so" "$OUT/err" "tilec: error: --tuning: cannot read"
printf 'tilec 0.1.0\ncc 0\nkernel tuned shape x=8 y=8 o=8 -> BN=48\n' > "$OUT/bad1.txt"
expect_rc "--tuning unlisted value" 1 "$TILEC" --target=host --color=never --tuning "$OUT/bad1.txt" -o "$OUT/t.c" "$TK"
has "--tuning unlisted value" "$OUT/err" "bad1.txt:3:38: error: BN=48: not one of the values BN lists"
printf 'tilec 0.1.0\ncc 0\nkernel tuned shape x=8 y=8x8 o=8 -> BN=16\n' > "$OUT/bad2.txt"
expect_rc "--tuning wrong rank" 1 "$TILEC" --target=host --color=never --tuning "$OUT/bad2.txt" -o "$OUT/t.c" "$TK"
has "--tuning wrong rank" "$OUT/err" "bad2.txt:3:28: error: y: expected 1 extents like 64x128 (array of rank 1)"
printf 'frobnicate\n' > "$OUT/bad3.txt"
expect_rc "--tuning unknown line" 1 "$TILEC" --target=host --color=never --tuning "$OUT/bad3.txt" -o "$OUT/t.c" "$TK"
has "--tuning unknown line" "$OUT/err" "bad3.txt:1:1: error: unknown line 'frobnicate' (expected tilec, device, cc, driver, kernel or default)"
printf 'tilec 0.1.0\ncc 0\nkernel tuned shape x=8 y=8 -> BN=16\n' > "$OUT/bad4.txt"
expect_rc "--tuning missing array" 1 "$TILEC" --target=host --color=never --tuning "$OUT/bad4.txt" -o "$OUT/t.c" "$TK"
has "--tuning missing array" "$OUT/err" "error: the shape names no extents for array 'o'"
expect_rc "--tuning another device" 0 "$TILEC" --arch=sm_80 --color=never --tuning "$OUT/other.txt" -o "$OUT/t.cu" "$TK"
has "--tuning another version" "$OUT/err" "other.txt:1:7: warning: tuning file written by tilec 0.0.9; this is tilec 0.1.0 [-Wtuning-device]"
has "--tuning another device" "$OUT/err" "other.txt:3:4: warning: tuning file measured on a device of compute capability 90; compiling for sm_80 [-Wtuning-device]"
has "--tuning unknown kernel" "$OUT/err" "other.txt:5:8: warning: no kernel 'nosuch' with TILE_TUNABLE constants; line ignored [-Wtuning-kernel]"
expect_rc "--tuning -Werror=tuning-device" 1 "$TILEC" --arch=sm_80 -Werror=tuning-device --tuning "$OUT/other.txt" -o "$OUT/t.cu" "$TK"
expect_rc "--tuning same device" 0 "$TILEC" --arch=sm_90 -Wno-tuning-kernel --color=never --tuning "$OUT/other.txt" -o "$OUT/t.cu" "$TK"
lacks "--tuning same device: no cc warning" "$OUT/err" "compute capability"
# Two lines in one bucket (each extent rounded up to a power of two): the
# first wins, the second is reported; the same values again say nothing.
printf 'tilec 0.1.0\ncc 0\nkernel tuned shape x=8 y=8 o=8 -> BN=16\nkernel tuned shape x=7 y=5 o=8 -> BN=64\nkernel tuned shape x=6 y=6 o=6 -> BN=16\n' > "$OUT/bucket.txt"
expect_rc "--tuning bucket clash" 0 "$TILEC" --target=host --color=never --tuning "$OUT/bucket.txt" -o "$OUT/bucket.c" "$TK"
has "--tuning bucket clash warns" "$OUT/err" "bucket.txt:4:14: warning: this shape falls into the same bucket as the one of $OUT/bucket.txt:3 (each extent rounded up to a power of two), whose values the launcher uses; line ignored [-Wtuning-bucket]"
lacks "--tuning bucket: equal values are quiet" "$OUT/err" "bucket.txt:5:"
has "--tuning bucket clash: one entry" "$OUT/bucket.c" "static const long long tab_[1][5]"
has "--tuning bucket clash: the first line's value" "$OUT/bucket.c" "{0, 3, 3, 3, 16}"
expect_rc "--tuning -Werror=tuning-bucket" 1 "$TILEC" --target=host -Werror=tuning-bucket --tuning "$OUT/bucket.txt" -o "$OUT/bucket.c" "$TK"
expect_rc "--python for a tuned kernel" 0 "$TILEC" --target=host --python --tuning "$TF" -o "$OUT/tunedpy.c" "$TK"
has "--python: no grid= for a tuned kernel" "$OUT/tunedpy.py" "def tuned(x, y, o, BM, *, stream=None):"

# --- tilec tune: the whole flow on the host -------------------------------------
# The tuning program is C for the host target: cc builds it with the runtime
# (no libclang), it times every variant on a tiny shapes file and writes a
# tuning file of the documented format, which --tuning compiles.
mkdir -p "$OUT/tune"
cat > "$OUT/tune/saxpy.tile.c" <<'SRC'
#include <tilec.h>
TILE_KERNEL void saxpy(TILE_ARRAY(const float, 2) x, TILE_ARRAY(float, 2) y, float a, TILE_TUNABLE(int, 8, 16) BN,
                       TILE_TUNABLE(int, 4, 2) BM)
{
    float t = tile_load(x, .index = {tile_bid(1), tile_bid(0)}, .shape = {BM, BN});
    tile_store(y, t * a + 1, .index = {tile_bid(1), tile_bid(0)});
}
SRC
printf '# two tiny problems\nx=64x64 y=64x64 a=2.5\nx=3x1000 y=3x1000   # a comment\n' > "$OUT/tune/shapes.txt"
expect_rc "tune: no --shapes" 2 "$TILEC" tune --target=host "$OUT/tune/saxpy.tile.c"
has "tune: no --shapes says so" "$OUT/err" "tilec tune takes one FILE.tile.c and --shapes FILE"
expect_rc "--shapes without tune" 2 "$TILEC" --target=host --shapes "$OUT/tune/shapes.txt" "$OUT/tune/saxpy.tile.c"
expect_rc "tune --target=host" 0 sh -c 'cd "$1" && "$2" tune --target=host saxpy.tile.c --shapes shapes.txt' sh "$OUT/tune" "$TILEC"
exists "tune: FILE.tune.c by default" "$OUT/tune/saxpy.tune.c"
rm -f "$OUT/tune/saxpy.tune.c"
expect_rc "tune -o" 0 "$TILEC" tune --target=host "$OUT/tune/saxpy.tile.c" --shapes "$OUT/tune/shapes.txt" -o "$OUT/tune/tune.c"
absent "tune -o: no default file" "$OUT/tune/saxpy.tune.c"
lacks "tune: no libclang in the program" "$OUT/tune/tune.c" "clang"
expect_rc "tune: cc builds the program" 0 ${CC:-cc} -std=c17 -O1 -Wall -Wextra -Werror -I"$TOP/runtime" -o "$OUT/tune/tune" \
    "$OUT/tune/tune.c" "$TOP/runtime/tilec_rt.c" -lm
expect_rc "tune: the program runs" 0 env TILEC_TUNE_REPS=3 "$OUT/tune/tune" "$OUT/tune/tuning.txt"
# TILEC_TUNE_MARGIN (percent): the default (the first values) is kept
# unless another variant beats it by more; at 1000% it always is.
expect_rc "tune: a wide margin" 0 env TILEC_TUNE_REPS=1 TILEC_TUNE_MARGIN=1000 "$OUT/tune/tune" "$OUT/tune/margin.txt"
if [ "$(grep -c '^kernel saxpy .* -> BN=8 BM=4  # ' "$OUT/tune/margin.txt")" = 2 ]; then pass; else
    fail "tune: TILEC_TUNE_MARGIN=1000 keeps the default"; sed 's/^/    /' "$OUT/tune/margin.txt"; fi
# the format: the header lines in order, then kernel lines
if awk 'NR==1 && $0!="# tilec tuning file" {exit 1}
        NR==2 && $0!="tilec 0.1.0" {exit 1}
        NR==3 && $0!="device host" {exit 1}
        NR==4 && $0!="cc 0" {exit 1}
        NR==5 && $0!="driver 0" {exit 1}
        NR>5 && !/^#/ && !/^kernel saxpy shape x=[0-9x]+ y=[0-9x]+( a=[-0-9.e]+)? -> BN=(8|16) BM=(4|2)  # [0-9.]+ us \(.*\)$/ {exit 1}
        NR>5 && /^kernel/ {n++}
        END {exit n == 2 ? 0 : 1}' "$OUT/tune/tuning.txt"; then pass; else
    fail "tune: tuning file format"; sed 's/^/    /' "$OUT/tune/tuning.txt"; fi
mkdir -p "$OUT/tune/a" "$OUT/tune/b"
expect_rc "tune: --tuning the result" 0 "$TILEC" --target=host --tuning "$OUT/tune/tuning.txt" -o "$OUT/tune/a/saxpy.c" "$OUT/tune/saxpy.tile.c"
expect_rc "tune: --tuning again" 0 "$TILEC" --target=host --tuning "$OUT/tune/tuning.txt" -o "$OUT/tune/b/saxpy.c" "$OUT/tune/saxpy.tile.c"
if cmp -s "$OUT/tune/a/saxpy.c" "$OUT/tune/b/saxpy.c" && cmp -s "$OUT/tune/a/saxpy.h" "$OUT/tune/b/saxpy.h"; then pass; else
    fail "tune: --tuning outputs differ between runs"; fi
has "tune: the table has both shapes" "$OUT/tune/a/saxpy.c" "static const long long tab_[2][7]"
expect_rc "tune: the tuned code builds" 0 ${CC:-cc} -std=c17 -O1 -Wall -Wextra -Werror -I"$TOP/runtime" -I"$OUT/tune/a" -c \
    -o "$OUT/tune/a/saxpy.o" "$OUT/tune/a/saxpy.c"
printf 'x=64 y=64x64\n' > "$OUT/tune/badshapes.txt"
expect_rc "tune: malformed shapes" 1 "$TILEC" tune --target=host --color=never "$OUT/tune/saxpy.tile.c" --shapes "$OUT/tune/badshapes.txt" -o "$OUT/tune/t.c"
has "tune: malformed shapes says where" "$OUT/err" "badshapes.txt:1:5: error: x: expected 2 extents like 64x128 (array of rank 2)"
expect_rc "tune --target=cuda" 0 "$TILEC" tune "$OUT/tune/saxpy.tile.c" --shapes "$OUT/tune/shapes.txt" -o "$OUT/tune/tune.cu"
has "tune cuda: the opt-in limit" "$OUT/tune/tune.cu" "cudaDevAttrMaxSharedMemoryPerBlockOptin"
printf 'x=64x64 y=64x64\nx=60x33 y=60x40\n' > "$OUT/tune/clash.txt"
expect_rc "tune: shapes in one bucket" 0 "$TILEC" tune --target=host --color=never "$OUT/tune/saxpy.tile.c" --shapes "$OUT/tune/clash.txt" -o "$OUT/tune/t.c"
has "tune: shapes in one bucket warn" "$OUT/err" "clash.txt:2:1: warning: for kernel 'saxpy' this shape falls into the same bucket as the one of line 1 (each extent rounded up to a power of two): the launcher can dispatch to only one of them [-Wtuning-bucket]"
printf 'x=1000 y=1000 o=1000\n' > "$OUT/tune/only_tuned.txt"
expect_rc "tune: a kernel no line is for" 0 "$TILEC" tune --target=host --color=never "$TK" --shapes "$OUT/tune/only_tuned.txt" -o "$OUT/tune/t2.c"
has "tune: a kernel no line is for warns" "$OUT/err" "warning: no line of $OUT/tune/only_tuned.txt is for kernel 'tuned_dflt' (it names the arrays and the TILE_CONST values of none); it is not tuned [-Wtuning-kernel]"
expect_rc "tune: its unused tables build under -Werror" 0 ${CC:-cc} -std=c17 -Wall -Wextra -Werror -I"$TOP/runtime" -c -o "$OUT/tune/t2.o" "$OUT/tune/t2.c"

# Two kernels with parameters of the same names: a shapes line is for the
# kernel whose constants it lists (BN=4 for k4, BN=8 for k8), and each
# kernel's variants are planned at its own constants.  TILE_THREADS is a
# tunable that sets the block size of each variant.
cat > "$OUT/tune/two.tile.c" <<'SRC'
#include <tilec.h>
TILE_KERNEL void k4(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) y, TILE_CONST(int, 4) BN, TILE_TUNABLE(int, 1, 2) R)
{
    tile_store(y, tile_load(x, .index = {tile_bid(0)}, .shape = {BN * R}) + 1, .index = {tile_bid(0)});
}
TILE_KERNEL void k8(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) y, TILE_CONST(int, 8) BN,
                    TILE_THREADS(64, 128) threads)
{
    tile_store(y, tile_load(x, .index = {tile_bid(0)}, .shape = {BN}) * 2, .index = {tile_bid(0)});
}
SRC
printf 'x=100 y=100 BN=4\nx=300 y=300 BN=8\n' > "$OUT/tune/two.shapes"
expect_rc "tune: two kernels, one shapes file" 0 "$TILEC" tune --target=host "$OUT/tune/two.tile.c" --shapes "$OUT/tune/two.shapes" -o "$OUT/tune/two.c"
expect_rc "tune: two kernels build" 0 ${CC:-cc} -std=c17 -O1 -Wall -Wextra -Werror -I"$TOP/runtime" -o "$OUT/tune/two" \
    "$OUT/tune/two.c" "$TOP/runtime/tilec_rt.c" -lm
expect_rc "tune: two kernels run" 0 env TILEC_TUNE_REPS=1 "$OUT/tune/two" "$OUT/tune/two.txt"
has "tune: the BN=4 line is k4's" "$OUT/tune/two.txt" "kernel k4 shape x=100 y=100 BN=4 -> R="
has "tune: the BN=8 line is k8's" "$OUT/tune/two.txt" "kernel k8 shape x=300 y=300 BN=8 -> threads="
lacks "tune: no line for the other kernel" "$OUT/tune/two.txt" "kernel k4 shape x=300"
lacks "tune: every variant ran" "$OUT/tune/two.txt" "no variant ran"
expect_rc "TILE_THREADS: cuda" 0 "$TILEC" --arch=sm_90 -o "$OUT/tune/two.cu" "$OUT/tune/two.tile.c"
has "TILE_THREADS: 64 threads" "$OUT/tune/two.cu" "__launch_bounds__(64) tilec_k_k8_0"
has "TILE_THREADS: 128 threads" "$OUT/tune/two.cu" "__launch_bounds__(128) tilec_k_k8_1"
has "TILE_THREADS: the launch uses it" "$OUT/tune/two.cu" "tilec_k_k8_1<true><<<g_, 128"
expect_rc "tune cuda: the register query" 0 "$TILEC" tune "$OUT/tune/two.tile.c" --shapes "$OUT/tune/two.shapes" -o "$OUT/tune/two.cu"
has "tune cuda: each variant's kernel" "$OUT/tune/two.cu" "(const void *)tilec_k_k8_1<true>"

# --- tile_printf and tile_assert ------------------------------------------------
DBG=tests/kernels/debug/debug.tile.c
expect_rc "--emit=tir: printf and assert" 0 "$TILEC" --emit=tir --target=host "$DBG"
has "--emit=tir: printf with its format" "$OUT/out" 'printf("n = %d, alpha = %.2f, 100%%\n", n, alpha)'
has "--emit=tir: assert of a tile, reduced" "$OUT/out" 'assert(%t13, "negative input")'
has "--emit=tir: assert of a scalar" "$OUT/out" 'assert((bid(0) != 2))'
expect_rc "--emit=ast: the format, escaped" 0 "$TILEC" --emit=ast "$DBG"
has "--emit=ast: string" "$OUT/out" 'string "n = %d, alpha = %.2f, 100%%\n"'
expect_rc "cuda: printf and assert" 0 "$TILEC" -o "$OUT/debug.cu" "$DBG"
has "cuda: thread 0 prints" "$OUT/debug.cu" "if (t_ == 0) { /* tile_printf: the block prints once */"
has "cuda: the record" "$OUT/debug.cu" "static __device__ tilec_assert_record tilec_assert_rec_;"
has "cuda: the launcher checks it" "$OUT/debug.cu" "return tilec_assert_check_(s_);"
has "cuda: the site's text" "$OUT/debug.cu" '"tests/kernels/debug/debug.tile.c:32:5: assertion `tile_bid(0) != 2` failed",'
# the three kernels with asserts check the record; print_values' launcher does not
if [ "$(grep -c 'return tilec_assert_check_(s_);' "$OUT/debug.cu")" = 3 ]; then pass; else fail "cuda: launchers with the check"; fi
# -DNDEBUG removes tile_assert, as C's assert: built with it, the debug
# kernels return TILEC_OK where an assert would fail (main.c -DDEBUG_NDEBUG),
# and an `if` whose statement was an assert keeps an empty statement.
ND=$OUT/ndebug
mkdir -p "$ND"
expect_rc "-DNDEBUG" 0 "$TILEC" --target=host -DNDEBUG -o "$ND/debug.c" "$DBG"
lacks "-DNDEBUG: no assertion record" "$ND/debug.c" "tilec_assert"
if ${CC:-cc} -std=c17 -Wall -Wextra -Werror -DDEBUG_NDEBUG -I"$ND" -Iruntime -o "$ND/app" "$ND/debug.c" \
        tests/kernels/debug/main.c runtime/tilec_rt.c -lm > "$ND/cc.err" 2>&1 &&
   (cd "$ND" && ./app) > "$ND/run.out" 2>&1; then
    pass
else
    fail "-DNDEBUG: the debug kernels"; cat "$ND/cc.err" "$ND/run.out" | head -10
fi

echo "cli: $p passed, $f failed"
[ "$f" -eq 0 ]
