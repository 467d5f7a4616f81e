/* layout_impl.h: what the files of the layout module share (internal to
 * sema/layout*.c): the node kinds, the error sink, the tree builder, and the
 * checks every result passes.  The interface is layout.h. */
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
#endif
