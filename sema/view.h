/* view.h: views, an array seen through a layout (docs/language.md, "Views").
 *
 * A view of rank R maps each view coordinate (w_0 .. w_{R-1}) to a
 * coordinate of its array.  Each view axis (a mode, in CuTe's words) splits
 * its coordinate over one or more sub-modes, the *terms*, colexicographically
 * (the fastest term first), exactly as a nested CuTe mode does; term t's
 * coordinate u_t then moves array axis j by a[j][t]:
 *
 *     array coordinate j = off[j] + sum over t of a[j][t] * u_t
 *
 * That is a CuTe layout whose strides are basis elements of the array's
 * coordinate space (CuTe's ArithmeticTuple strides, written c@j: c steps
 * along array axis j), plus an offset.  A transpose permutes modes, padding
 * shifts the offset, a window gives an axis two terms on one array axis (so
 * windows overlap), im2col groups modes into nested ones.
 *
 * An element is read from the array when it lies inside the view (0 <= w_k
 * < ext[k]), inside every constraint (bounds of intermediate views that the
 * array's own bounds do not imply: padding a window, for instance) and
 * inside the array; elements outside the array or a constraint read the
 * view's padding value.  Extents are affine expressions of the array's
 * extents (ViewExt); strides and offsets are compile-time constants. */
#ifndef TILEC_VIEW_H
#define TILEC_VIEW_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "frontend/ast.h"

/* An extent: max(0, floor((base * mul + add) / div)) * times, base the
 * extent of array axis `axis`, the value of inner, or 0 (axis < 0 and no
 * inner: a constant, add); times another extent, or NULL (1). */
typedef struct ViewExt ViewExt;
struct ViewExt {
    int axis;
    const ViewExt *inner;
    int64_t mul, add, div;
    const ViewExt *times;
};

enum { VIEW_MAX_TERMS = 24, VIEW_MAX_CONS = 8 };

typedef struct ViewTerm {
    int mode;            /* the view axis it belongs to */
    int pos;             /* its place in that axis, 0 the fastest */
    const ViewExt *ext;  /* its extent (the last term of a mode takes the rest) */
} ViewTerm;

/* 0 <= c0 + sum coef[t] * u_t < ext */
typedef struct ViewCons {
    int64_t c0;
    int64_t coef[VIEW_MAX_TERMS];
    const ViewExt *ext;
} ViewCons;

typedef struct View {
    const Param *base;   /* the array */
    Param *as_param;     /* the view as sema's array checks see it: name, rank, dtype, read-only */
    int rank;
    const ViewExt *ext[TILE_MAX_RANK];
    bool exact[TILE_MAX_RANK]; /* axis k is array axis exact_axis[k] unchanged (its bounds are the array's) */
    int exact_axis[TILE_MAX_RANK];
    int nterms;
    ViewTerm term[VIEW_MAX_TERMS];
    int64_t a[TILE_MAX_RANK][VIEW_MAX_TERMS];
    int64_t off[TILE_MAX_RANK];
    int ncons;
    ViewCons cons[VIEW_MAX_CONS];
    int padding;         /* TILE_PAD_* read outside the array or a constraint */
} View;

/* The identity view of array parameter p. */
View *view_of_array(Arena *ar, const Param *p);
/* Each operation returns a new view, or NULL with a reason in err. */
/* axes[k]: the axis of v that view axis k is (a permutation of 0..rank-1). */
View *view_permute(Arena *ar, const View *v, const int *axes, char *err, size_t n);
/* low/high elements added before/after each axis (flat axes only). */
View *view_pad(Arena *ar, const View *v, const int64_t *low, const int64_t *high, char *err, size_t n);
/* A sliding window over each of the naxes axes listed: axis axes[i] becomes
 * the output positions, and a new axis of size[i] taps is appended after
 * the others, in the order listed. */
View *view_window(Arena *ar, const View *v, int naxes, const int *axes, const int64_t *size, const int64_t *stride,
                  const int64_t *dilation, const int64_t *low, const int64_t *high, char *err, size_t n);
/* im2col of an (N, C, S_1..S_d) array (channels_last: (N, S_1..S_d, C)):
 * (N, C*K_1*..*K_d, O_1..O_d), the second axis nested (K_d fastest, C
 * slowest) as the row-major (C, K_1..K_d) weights flatten; channels_last:
 * (N, O_1..O_d, K_1*..*K_d*C), C fastest. */
View *view_im2col(Arena *ar, const View *v, int nsp, const int64_t *size, const int64_t *stride,
                  const int64_t *dilation, const int64_t *low, const int64_t *high, bool channels_last, char *err,
                  size_t n);
/* A view of array p from CuTe notation with basis strides, e.g.
 * "(_,(4,_),_):(1@0,(1@2,1@1),1@2)": a shape entry `_` is the extent of the
 * array axis its stride moves along (divided by the stride), and offset
 * (p->rank entries) is added to the array coordinates. */
View *view_parse(Arena *ar, const Param *p, const char *text, const int64_t *offset, char *err, size_t n);
/* The same, with the offset in text of the character an error is about in
 * *pos (-1 when the error is about the whole layout). */
View *view_parse_at(Arena *ar, const Param *p, const char *text, const int64_t *offset, char *err, size_t n, int *pos);

/* Whether writes through v reach each array element at most once (no two
 * terms on one array axis, no broadcast term); if not, why. */
bool view_storable(const View *v, char *err, size_t n);
/* Whether v is its array with the axes permuted and nothing else: then
 * perm[k] is the array axis of view axis k. */
bool view_is_permutation(const View *v, int *perm);
/* The terms of axis k, fastest first; returns their number. */
int view_mode_terms(const View *v, int k, int *terms);
/* v in CuTe notation: "(d0,(4,d1),d2):(1@0,(1@2,1@1),1@2)", then
 * " + (0,0,-3)" when the offset is not zero and the constraints; d<j> is
 * the extent of array axis j. */
void view_print(FILE *o, const View *v);
/* An extent as C text, with each array extent printed as fmt with j (e.g.
 * "p_x.shape[%d]"). */
char *view_ext_c(Arena *ar, const ViewExt *e, const char *fmt);
#endif
