/* layout.h: CuTe's layout algebra for tilec (see docs/layout.md).
 *
 * A layout is a pair of congruent hierarchical integer tuples, shape:stride,
 * printed exactly as CuTe prints it: `8:1`, `(2,4):(1,2)`,
 * `(2,(2,2)):(4,(1,2))`.  As a function it maps a linear index (decomposed
 * colexicographically over the shape, leftmost mode fastest) or a natural
 * coordinate to an offset.  Codegen uses layouts for three things: how an
 * array's elements sit in memory, how a tile is spread over threads and
 * registers (a thread-value layout), and views (transpose, reshape,
 * broadcast, slice) that are layouts instead of copies.
 *
 * Conventions of every function here:
 *  - Plain data, no allocation, no global state: safe from any thread.
 *  - Functions that can fail return bool and, on failure, write a one-line
 *    reason (no "error:" prefix, no newline) into err[errlen]; err may be NULL.
 *  - An output may alias an input (results are built in a temporary).
 *  - Every function that returns bool validates its inputs and checks its
 *    result against the limits below, so none overflows or reads out of
 *    bounds on bad input.  The plain queries (layout_size, layout_eval, ...)
 *    assume a valid layout: one from a parser or constructor here, or one
 *    that passed layout_validate.
 *  - Semantics are CuTe's with all integers static (compile-time) ones: where
 *    CuTe would static_assert, we fail with a reason instead.
 */
#ifndef TILEC_SEMA_LAYOUT_H
#define TILEC_SEMA_LAYOUT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Capacity limits.  Layouts are small in practice (a tile's rank is <= 8);
 * the bounds keep every layout on the stack and every product in int64. */
enum {
    LAYOUT_MAX_LEAVES = 64,  /* integer modes in a whole layout, tiler, tuple */
    LAYOUT_MAX_NODES = 128,  /* leaves plus tuple nodes */
    LAYOUT_MAX_DEPTH = 16,   /* nesting of tuples (and tiler brackets) */
    LAYOUT_STR_MAX = 4096    /* enough for any printed layout, tiler, tuple */
};
/* Bound on |shape|, |stride|, size and cosize (2^48). */
#define LAYOUT_MAX_VALUE ((int64_t)1 << 48)

typedef enum LayoutNodeKind {
    LAYOUT_NODE_LEAF = 0,  /* an integer mode: shape, stride */
    LAYOUT_NODE_TUPLE = 1, /* ( ... ): its children follow in preorder */
    LAYOUT_NODE_TILE = 2,  /* < ... >: only in a LayoutTiler, above layouts */
    LAYOUT_NODE_UNDERSCORE = 3 /* `_`, CuTe's Underscore: only in a LayoutTiler,
                                * as the whole tiler or an element of < ... >;
                                * keeps that mode of the layout whole */
} LayoutNodeKind;

/* One node of a tree stored in preorder.  A node's subtree is the index
 * range [i, end); its children start at i+1 and each child's `end` is the
 * next sibling.  Tuple nodes leave shape and stride 0. */
typedef struct LayoutNode {
    int64_t shape;  /* leaf: extent >= 1 (LayoutTuple: the value) */
    int64_t stride; /* leaf: stride (may be 0 or negative) */
    int16_t kind;   /* LayoutNodeKind */
    int16_t nchild; /* tuple/tile: number of direct children (>= 1) */
    int16_t end;    /* one past the last node of this subtree */
} LayoutNode;

/* A layout.  node[0] is the root: a leaf (rank 1, like CuTe's integral
 * layout `8:1`) or a tuple (`(8):(1)` is a rank-1 tuple, printed as such). */
typedef struct Layout {
    int n;
    LayoutNode node[LAYOUT_MAX_NODES];
} Layout;

/* A tiler: a layout, `_` (CuTe's Underscore, a LAYOUT_NODE_UNDERSCORE node),
 * or a bracketed tuple of tilers `<A,B,...>` (CuTe's make_tile), which makes
 * composition, divide and product act by mode.  A `_` keeps its mode of the
 * layout whole (those operations are the identity on it); a whole tiler `_`
 * returns the layout unchanged.  `_` is invalid anywhere in a Layout. */
typedef struct LayoutTiler {
    int n;
    LayoutNode node[LAYOUT_MAX_NODES];
} LayoutTiler;

/* An integer tuple (CuTe's IntTuple): a coordinate or a profile.  Values are
 * in node[].shape; strides are unused. */
typedef struct LayoutTuple {
    int n;
    LayoutNode node[LAYOUT_MAX_NODES];
} LayoutTuple;

/* ---- Text ------------------------------------------------------------ */

/* Parses `SHAPE:STRIDE` or a bare `SHAPE` (compact column-major strides,
 * CuTe's LayoutLeft; size-1 modes get stride 0 as in CuTe).  Strides may be
 * negative or 0.  Integers may be written `_8` as CuTe prints static
 * integers; a lone `_` is an error here (and in tuples): it belongs in a
 * tiler.  Errors name the 1-based column: "column 5: expected ',' or ')' but
 * found ':'". */
bool layout_parse(const char *text, Layout *out, char *err, size_t errlen);
/* Parses a layout, `_`, or `<T0,T1,...>` where each Ti is a layout, `_` or
 * a tiler: `<2,_>`, `<_,4:1>`, `<_,<2:3,_>>`.  `_8` is the integer 8. */
bool layout_tiler_parse(const char *text, LayoutTiler *out, char *err,
                        size_t errlen);
/* Parses an integer or a nested tuple of integers: `3`, `(1,(0,2))`. */
bool layout_tuple_parse(const char *text, LayoutTuple *out, char *err,
                        size_t errlen);

/* Print in CuTe's notation (a tiler's `_` as `_`).  Like snprintf: return
 * the length of the whole text and write at most size-1 characters plus a
 * NUL. */
size_t layout_format(const Layout *l, char *buf, size_t size);
size_t layout_tiler_format(const LayoutTiler *t, char *buf, size_t size);
size_t layout_tuple_format(const LayoutTuple *t, char *buf, size_t size);

/* Checks structure and limits of a layout built by hand. */
bool layout_validate(const Layout *l, char *err, size_t errlen);

/* ---- Construction ----------------------------------------------------- */

/* The rank-1 layout `shape:stride`. */
bool layout_make(int64_t shape, int64_t stride, Layout *out, char *err,
                 size_t errlen);
/* CuTe's make_layout(L0, L1, ...): the tuple whose modes are the given
 * layouts (count >= 1; count 1 gives the rank-1 tuple `(L0)`). */
bool layout_concat(int count, const Layout *const *modes, Layout *out,
                   char *err, size_t errlen);
/* Top-level mode i (0-based) as a layout; mode 0 of a leaf is itself. */
bool layout_mode(const Layout *l, int i, Layout *out, char *err,
                 size_t errlen);
/* The tiler made of one layout, or `<M0,M1,...>` of count layouts. */
void layout_tiler_from_layout(const Layout *l, LayoutTiler *out);
bool layout_tiler_make(int count, const Layout *const *modes,
                       LayoutTiler *out, char *err, size_t errlen);

/* Array layouts.  tilec arrays use C/NumPy dimension order: shape[0] is the
 * slowest dimension of a row-major array.  The layout returned maps the
 * coordinate (i0, i1, ...) to sum(ik * strides[k]), i.e. it is
 * `(shape[0],shape[1],...):(strides[0],strides[1],...)` in the array's own
 * dimension order.  So a row-major MxN array is `(M,N):(N,1)` as a function
 * of (m,n); note that CuTe decomposes a *linear* index colexicographically
 * (m fastest), so layout_eval(l, i) walks it column by column; use
 * layout_transpose to get the layout of the row-major linear index.
 * rank 1 gives the leaf `s:d`; rank 0 gives the scalar layout `1:0`. */
bool layout_from_shape_strides(int rank, const int64_t *shape,
                               const int64_t *strides, Layout *out,
                               char *err, size_t errlen);
/* Compact row-major (last dimension stride 1): (M,N) -> `(M,N):(N,1)`. */
bool layout_row_major(int rank, const int64_t *shape, Layout *out, char *err,
                      size_t errlen);
/* Compact column-major (first dimension stride 1): `(M,N):(1,M)`. */
bool layout_col_major(int rank, const int64_t *shape, Layout *out, char *err,
                      size_t errlen);
/* The compact layout of a tile of shape `shape` loaded with cuTile's
 * `order` (a permutation): tile axis k is array axis order[k] and the array
 * block is row-major, so tile axis k's stride is the product of the extents
 * of the tile axes j with order[j] > order[k]; the axis with the largest
 * order[k] is the fastest.  Identity ('C') gives layout_row_major, the
 * reversed permutation ('F') gives layout_col_major. */
bool layout_from_order(int rank, const int64_t *shape, const int *order,
                       Layout *out, char *err, size_t errlen);

/* ---- Queries ---------------------------------------------------------- */

int64_t layout_size(const Layout *l);   /* product of the shape */
/* CuTe's cosize, 1 + sum((shape-1)*|stride|): 1 + the largest offset of
 * the layout with every stride made non-negative. */
int64_t layout_cosize(const Layout *l);
int layout_rank(const Layout *l);       /* top-level modes; a leaf has 1 */
int layout_depth(const Layout *l);      /* leaf 0, flat tuple 1, ... */
/* Leaves in order into shape[]/stride[] (LAYOUT_MAX_LEAVES each, either may
 * be NULL); returns their number. */
int layout_flatten(const Layout *l, int64_t *shape, int64_t *stride);
/* Same tree, same integers. */
bool layout_equal(const Layout *a, const Layout *b);
/* Same size and the same function on [0, size): compares the coalesced
 * forms, then (for sizes up to 2^16) pointwise.  Decides whether two
 * thread-value layouts agree. */
bool layout_equal_function(const Layout *a, const Layout *b);

/* The layout function of a linear index, as CuTe computes it: idx is split
 * colexicographically over the leaves and the last leaf takes whatever is
 * left, so idx >= size extends the layout along its last mode (composition
 * relies on this).  idx must be >= 0 (a single leaf s:d also gives d*idx for
 * a negative idx); arithmetic wraps instead of trapping.  The algebra also
 * treats a layout that coalesces to one mode s:d, its extension included, as
 * d*i on every integer i: that is where negative strides of a right-hand
 * operand (compose) or of a right inverse may lead. */
int64_t layout_eval(const Layout *l, int64_t idx);
/* The function of a coordinate: a natural (hierarchical) coordinate, or any
 * coarser one where an integer stands for a whole sub-tuple (decomposed
 * colexicographically), e.g. (1,3) for shape (2,(2,2)).  Each integer must
 * lie in [0, size of its mode). */
bool layout_eval_coord(const Layout *l, const LayoutTuple *coord,
                       int64_t *offset, char *err, size_t errlen);
/* The inverse coordinate map: the natural coordinate of idx in [0, size). */
bool layout_index_to_coord(const Layout *l, int64_t idx, LayoutTuple *coord,
                           char *err, size_t errlen);
/* Length of the longest prefix (in linear-index order) that maps to the
 * consecutive offsets 0,1,2,...: the shape of the first mode of the
 * coalesced layout if its stride is 1, else 1.  The vector width codegen can
 * use: (4,8):(1,4) -> 32, (4,8):(8,1) -> 1, (2,4):(1,2) -> 8. */
int64_t layout_contiguous_run(const Layout *l);

/* ---- Algebra ---------------------------------------------------------- */

/* Same size and function (on [0,size)), depth <= 1, adjacent modes merged
 * where s1:d1 follows s0:d0 with d1 == s0*d0, size-1 modes dropped.  A
 * single mode prints bare (`2:3`); size 1 gives `1:0`. */
bool layout_coalesce(const Layout *l, Layout *out, char *err, size_t errlen);
/* By-mode coalesce (CuTe's coalesce(layout, profile)): coalesce the
 * sub-layout at each integer of profile; modes beyond profile stay. */
bool layout_coalesce_profile(const Layout *l, const LayoutTuple *profile,
                             Layout *out, char *err, size_t errlen);
/* Drop stride-0 and size-1 modes, then coalesce (CuTe's filter). */
bool layout_filter(const Layout *l, Layout *out, char *err, size_t errlen);
/* Flatten and stably sort the modes by ascending stride.  This changes the
 * function; it is the normal form the complement is defined on. */
bool layout_sort(const Layout *l, Layout *out, char *err, size_t errlen);

/* Complement of l with respect to the cotarget size m (m <= 0: cosize of
 * filter(l), CuTe's one-argument form), coalesced as CuTe returns it:
 * complement((2,4):(1,2), 16) = 2:8.  Defined when l (flattened, without
 * stride-0 and size-1 modes, sorted by stride) is admissible: every stride
 * is a multiple of shape*stride of the mode before it; otherwise an error
 * ("layout is not injective: two modes have stride D", "layout is not
 * admissible: stride D is not a multiple of S ...").  Negative strides are
 * refused ("mode S:D has a negative stride; ...").  The last mode is
 * ceil(m / span) where span is shape*stride of the largest-stride mode, as
 * CuTe rounds up, so (l, result) is a bijection onto
 * [0, round_up(m, span)), and the result is ordered (increasing). */
bool layout_complement(const Layout *l, int64_t m, Layout *out, char *err,
                       size_t errlen);
/* The same before coalescing, one mode per sorted mode of l plus the rest:
 * complement((2,4):(1,2), 16) = (1,1,2):(1,2,8). */
bool layout_complement_uncoalesced(const Layout *l, int64_t m, Layout *out,
                                   char *err, size_t errlen);

/* Composition a o b: result(c) = a(b(c)) for every coordinate c of b, and
 * the result's shape is compatible with b's (each leaf of b becomes a
 * coalesced sub-layout).  a is coalesced (keeping its last mode's stride)
 * and extended along its last mode (see layout_eval), as in CuTe.  CuTe's
 * admissibility conditions, for each leaf s:d of b with d > 0 when the
 * coalesced a has shapes a0..a(r-2) before its unbounded last mode:
 *  - stride divisibility: d is left-divisible by (a0, ..., a(r-2)): for
 *    some i, p = a0*...*a(i-1) divides d and, unless i == r-1, c = d/p
 *    divides a(i).  Fails with "compose: stride divisibility condition
 *    violated: stride D of the right operand leaves R, which neither divides
 *    nor is a multiple of shape A of the left operand".
 *  - shape divisibility: s is left-divisible by (a(i)/c, a(i+1), ...,
 *    a(r-2)); "compose: shape divisibility condition violated: ...".
 * Stride-0 leaves always compose, and so does every leaf when a coalesces to
 * one mode.  A negative d composes only then (a is then linear on every
 * integer); otherwise "compose: mode S:D of the right operand has a
 * negative stride, ...".  Fails too when b's modes, composed one by one as
 * CuTe does, would carry from one mode of a into the next ("the modes of
 * the right operand overlap ..."), where CuTe's result is not a(b(i)). */
bool layout_compose(const Layout *a, const Layout *b, Layout *out, char *err,
                    size_t errlen);
/* By-mode composition: with a tiler <B0,B1,...>, mode i of a is composed
 * with Bi (a `_` keeps mode i); modes of a beyond the tiler stay.  A layout
 * tiler is plain composition, the tiler `_` the identity. */
bool layout_compose_tiler(const Layout *a, const LayoutTiler *t, Layout *out,
                          char *err, size_t errlen);

/* logical_divide(a, b) = a o (b, complement(b, size(a))): mode 0 the tile,
 * mode 1 the tiles.  By mode for a tiler (a `_` keeps its mode of a).
 * Admissibility: b must have a complement with respect to size(a) (no
 * negative strides, admissible as for layout_complement), and a must compose
 * with (b, complement) as for layout_compose; the reason says which:
 * "logical-divide: tiler B has no complement for size(A) = N: complement:
 * ...", "logical-divide: tiler mode S:D has a negative stride, ...",
 * "logical-divide: compose: ...".  Negative strides in a are fine. */
bool layout_logical_divide(const Layout *a, const Layout *b, Layout *out,
                           char *err, size_t errlen);
bool layout_logical_divide_tiler(const Layout *a, const LayoutTiler *t,
                                 Layout *out, char *err, size_t errlen);
/* zipped_divide: logical divide with the tile modes gathered in mode 0 and
 * the rest modes (then a's untouched modes) in mode 1:
 * ((TileM,TileN),(RestM,RestN,L...)).  A mode kept by a `_` is split as it
 * stands (CuTe's zip2_by): it must have rank 2, sub-mode 0 joining the tiles
 * and sub-mode 1 the rests; otherwise an error. */
bool layout_zipped_divide(const Layout *a, const LayoutTiler *t, Layout *out,
                          char *err, size_t errlen);
/* tiled_divide: zipped divide with mode 1 unpacked:
 * ((TileM,TileN),RestM,RestN,L...). */
bool layout_tiled_divide(const Layout *a, const LayoutTiler *t, Layout *out,
                         char *err, size_t errlen);
/* logical_product(a, b) = (a, complement(a, size(a)*cosize(b)) o b).  By
 * mode for a tiler (a `_` keeps its mode of a).  a must have a complement
 * (so no negative strides); negative strides in b compose as in
 * layout_compose with the complement on the left. */
bool layout_logical_product(const Layout *a, const Layout *b, Layout *out,
                            char *err, size_t errlen);
bool layout_logical_product_tiler(const Layout *a, const LayoutTiler *t,
                                  Layout *out, char *err, size_t errlen);
/* Rank-sensitive products: both padded to rank R = max(rank a, rank b) with
 * 1:0 modes, logical product taken, and mode i of the result is
 * coalesce((a_i, c_i)) (blocked: a's block repeated as whole blocks) or
 * coalesce((c_i, a_i)) (raked: interleaved), c = the product's mode 1.  The
 * result is always a tuple of R modes. */
bool layout_blocked_product(const Layout *a, const Layout *b, Layout *out,
                            char *err, size_t errlen);
bool layout_raked_product(const Layout *a, const Layout *b, Layout *out,
                          char *err, size_t errlen);

/* Right inverse r: l(r(i)) == i for i < size(r); r covers the longest run
 * of offsets 0,1,2,... that l reaches (CuTe's right_inverse; `1:0` when l
 * never reaches offset 1).  As in CuTe the path follows |stride| and r keeps
 * the sign: 4:-1 gives 4:-1, right only because a layout that coalesces to
 * one mode is linear on every integer; a path through a negative stride of
 * any other layout fails with the reason. */
bool layout_right_inverse(const Layout *l, Layout *out, char *err,
                          size_t errlen);
/* Left inverse r of an injective l: r(l(i)) == i for i < size(l), computed
 * as right_inverse((l, complement(l))).  Fails when l is not injective, has
 * a negative stride, or its complement is not admissible. */
bool layout_left_inverse(const Layout *l, Layout *out, char *err,
                         size_t errlen);

/* ---- Views (layouts instead of copies) -------------------------------- */

/* NumPy-style transpose of the top-level modes: mode i of the result is
 * mode perm[i] of l; n must equal rank(l). */
bool layout_permute(const Layout *l, int n, const int *perm, Layout *out,
                    char *err, size_t errlen);
/* Reverse the top-level modes: the 2-D transpose; for an array layout from
 * layout_from_shape_strides it gives the layout of the row-major linear
 * index (its colexicographic order is the array's row-major order). */
bool layout_transpose(const Layout *l, Layout *out, char *err, size_t errlen);
/* View l (whose top-level modes are the dimensions of an array, row-major
 * as in tilec/NumPy) with a new shape of the same size: the result is
 * compose(transpose(l), R) where R is the row-major layout of the new shape
 * as a rank-`rank` tuple, so it has exactly `rank` modes and mode k has size
 * shape[k].  A mode may come back hierarchical (depth > 1) when the view is
 * not a plain strided array; reshapes that no layout can express fail with
 * the composition's divisibility reason.  rank 0 gives `1:0`. */
bool layout_reshape(const Layout *l, int rank, const int64_t *shape,
                    Layout *out, char *err, size_t errlen);
/* NumPy broadcasting of l's top-level modes to `shape` (aligned at the
 * right): a size-1 or missing mode becomes shape[k]:0; other modes must
 * already have size shape[k].  rank 1 returns the mode itself. */
bool layout_broadcast(const Layout *l, int rank, const int64_t *shape,
                      Layout *out, char *err, size_t errlen);
/* Fix top-level mode `mode` at coordinate `coord` (in [0, size of the
 * mode)): *offset is that mode's offset and *rest the remaining modes (a
 * single remaining mode is returned by itself, none gives `1:0`). */
bool layout_slice(const Layout *l, int mode, int64_t coord, Layout *rest,
                  int64_t *offset, char *err, size_t errlen);

/* ---- Swizzles ------------------------------------------------------------ */

/* CuTe's Swizzle<B, M, S>: a bijection on offsets that XORs the B bits at
 * M + S into the B bits at M (S > 0; for S < 0 the other way round):
 *     S > 0: y = x ^ ((x >> S) & (((1 << B) - 1) << M))
 *     S < 0: y = x ^ ((x << -S) & (((1 << B) - 1) << (M - S)))
 * Shared-memory buffers are a swizzle composed with a layout (`Sw<B,M,S> o
 * L`: element i at swizzle(L(i))), so that the threads of a warp that read
 * one column, or one broadcast pattern, hit different banks.  Valid: B in
 * 0..16, M >= 0, |S| >= B (the two bit fields do not overlap, which makes it
 * its own inverse), every bit below 2^62. */
typedef struct LayoutSwizzle {
    int bits;  /* B */
    int base;  /* M */
    int shift; /* S */
} LayoutSwizzle;

bool layout_swizzle_make(int bits, int base, int shift, LayoutSwizzle *out, char *err, size_t errlen);
/* Swizzle<B,M,S>(offset), offset >= 0. */
int64_t layout_swizzle_apply(const LayoutSwizzle *sw, int64_t offset);
/* "Sw<B,M,S>", as CuTe prints it; like snprintf. */
size_t layout_swizzle_format(const LayoutSwizzle *sw, char *buf, size_t size);
/* Parses "Sw<B,M,S>" (blanks allowed between the tokens). */
bool layout_swizzle_parse(const char *text, LayoutSwizzle *out, char *err, size_t errlen);

/* Thread-value layout for a row-major tile of `rank` <= 8 power-of-two
 * dimensions with N elements, `threads` threads and vectors of `vec`
 * elements (both powers of two, N divisible by threads*vec):
 *     (T,(V,N/(T*V))):(V,(1,T*V))
 * maps (thread t, value (v, r)) to the row-major element index
 * t*V + v + r*T*V: each thread owns runs of V consecutive elements and
 * consecutive threads own consecutive runs (coalesced accesses), run r of all
 * threads before run r+1.  Mode 0 is always the thread, mode 1 the value.
 * To get memory offsets compose the array's row-major-index layout with it:
 * compose(transpose(array_layout), tv); layout_contiguous_run of the value
 * mode of that composition is the vector width a thread can use. */
bool layout_tv_row_major(int rank, const int64_t *shape, int64_t threads,
                         int64_t vec, Layout *out, char *err, size_t errlen);

#endif
