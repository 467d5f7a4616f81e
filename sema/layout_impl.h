/* layout_impl.h: what the files of the layout module share (internal to
 * sema/layout*.c): the node kinds, the error sink, the tree builder, flat
 * mode lists, the checks every input and result passes, composition (for
 * the views) and text output.  The interface is layout.h. */
#ifndef TILEC_SEMA_LAYOUT_IMPL_H
#define TILEC_SEMA_LAYOUT_IMPL_H
#include "sema/layout.h"

typedef LayoutNode Node;

enum {
    LEAF = LAYOUT_NODE_LEAF,
    TUPLE = LAYOUT_NODE_TUPLE,
    TILE = LAYOUT_NODE_TILE,
    UNDER = LAYOUT_NODE_UNDERSCORE
};

/* Where a failing operation writes its one-line reason (buf may be NULL). */
typedef struct Err {
    char *buf;
    size_t len;
} Err;

/* Writes the reason into e and returns false. */
bool lay_fail(Err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prefixes the reason already in e with the outer operation's name. */
bool lay_wrap(Err *e, const char *prefix);
/* true when a*b overflows int64 (*r is then unusable). */
bool lay_mul_ovf(int64_t a, int64_t b, int64_t *r);

/* Builds a preorder tree node by node: open a tuple, add leaves (or `_`),
 * close it; overflowing the capacity or the depth marks it bad. */
typedef struct Builder {
    Node *nd;
    int n, leaves, sp;
    int stack[LAYOUT_MAX_DEPTH + 1];
    bool full, deep;
} Builder;
void lay_b_init(Builder *b, Node *nd);
bool lay_b_bad(const Builder *b);
void lay_b_leaf(Builder *b, int64_t s, int64_t d);
void lay_b_under(Builder *b);
void lay_b_open(Builder *b, int kind);
void lay_b_close(Builder *b);
/* Copies n nodes into dst (*dn = n); dst may overlap src. */
void lay_copy_nodes(int *dn, Node *dst, int n, const Node *src);
/* The limits of layout.h on the subtree at i: positive shapes, |values|,
 * size and cosize below 2^48. */
bool lay_check_values(const Node *nd, int i, Err *e);

/* A flat list of modes, shape:stride, in order.  One spare slot: a
 * complement has one mode more than its input. */
enum { FLAT_CAP = LAYOUT_MAX_LEAVES + 1 };
typedef struct Flat {
    int n;
    int64_t s[FLAT_CAP];
    int64_t d[FLAT_CAP];
} Flat;

static inline int64_t lay_abs64(int64_t v) { return v < 0 ? -v : v; }
/* Modes of the subtree at i (1 for a leaf). */
static inline int lay_rank_of(const Node *nd, int i) { return nd[i].kind == LEAF ? 1 : nd[i].nchild; }
/* The leaves of the subtree at i, in order (the last node of a subtree in
 * preorder is a leaf). */
void lay_flatten_sub(const Node *nd, int i, Flat *f);
/* Size and cosize of the subtree at i. */
int64_t lay_sub_size(const Node *nd, int i);
int64_t lay_sub_cosize(const Node *nd, int i);
/* Index of mode k of the subtree at i. */
int lay_mode_of(const Node *nd, int i, int k);
/* The subtree at i of src, and a flat list, appended to b. */
void lay_b_copy(Builder *b, const Node *src, int i);
void lay_b_flat(Builder *b, const Flat *f);
/* false, with the reason in e, when b overflowed. */
bool lay_b_done(const Builder *b, Err *e, const char *op);
/* The input checks of operation op, and the result's: a built tree is
 * validated into tmp, then copied to out. */
bool lay_check_in(const Layout *l, Err *e, const char *op);
bool lay_check_tiler_in(const LayoutTiler *t, Err *e, const char *op);
bool lay_finish(Builder *b, Layout *tmp, Layout *out, Err *e, const char *op);
/* Coalesces n modes s:d (keep_last: keep a trailing size-1 mode). */
void lay_coalesce_core(const int64_t *s, const int64_t *d, int n, bool keep_last, Flat *out);
/* Sorts f's modes by stride, stably. */
void lay_sort_flat(Flat *f);
/* The leaves of the subtree at i without its size-1 and stride-0 modes. */
void lay_filtered_flat(const Node *nd, int i, Flat *f);
/* Composition a o b of the subtrees at ai and bi, appended to out
 * (layout_algebra.c; the views use it too). */
bool lay_emit_compose(const Node *an, int ai, const Node *bn, int bi, Builder *out, Err *e);

/* Text output into a fixed buffer (truncating, always terminated). */
typedef struct Out {
    char *buf;
    size_t size, len;
} Out;
void lay_fmt_layout(Out *o, const Node *nd, int i);
size_t lay_out_end(Out *o);
#endif
