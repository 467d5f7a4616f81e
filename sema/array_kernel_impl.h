/* array_kernel_impl.h: what sema/array_kernel.c (checks, analysis) and
 * sema/array_lower.c (the rewritten tile kernel) share: the state of one
 * array kernel's lowering, and the functions the two halves call across. */
#ifndef TILEC_ARRAY_KERNEL_IMPL_H
#define TILEC_ARRAY_KERNEL_IMPL_H
#include <stdbool.h>
#include <stdint.h>

#include "frontend/ast.h"

enum { AK_MAX_TMPS = 64, AK_MAX_REDS = 16, AK_ELEMS = 2048, AK_MULTI_CHUNK = 1024 };

/* What a value of a row kernel (one with reductions) varies along: a
 * scalar; the operand space (rank R), or an input of lower rank that may
 * align with either space; a reduction kept as rank R with extent 1 along
 * the axis (.keepdims); a reduction without it (rank R - 1).  The first
 * two broadcast against everything, keepdims ones against full ones. */
typedef enum VKind { VK_S, VK_FLO, VK_F, VK_K, VK_O, VK_ERR } VKind;

typedef struct AkTmp {
    const char *name;
    Expr *init; /* reduction kernels: substituted into every use */
    int rank;
} AkTmp;

/* Where a row kernel's temporaries are computed once: the statements of
 * one chunk's context (the one-chunk branch, a phase's first chunk, one
 * loop body) get `auto __ak_tK_M = value;` the first time a temporary is
 * needed there. */
typedef struct Memo {
    struct StmtBuf *buf;
    bool all;               /* every temporary (the one-chunk branch: its tiles stay live anyway) */
    const Expr *key[64];
    bool red[64];
    const char *name[64];
    int n, id;
} Memo;

/* What the analysis knows of one node of a substituted value.  Temporaries
 * are shared, not copied, so a chain of them is a DAG whose tree is
 * exponential: every walk goes through this cache (UNKNOWN until computed;
 * the stamps mark the nodes one walk has seen). */
enum { AK_UNKNOWN = -1000 };
typedef struct AkNode {
    const Expr *e;
    int vrank, kind, fclass, hasred, phase;
    unsigned mark[2], scanned;
} AkNode;

typedef struct Ak {
    Arena *ar;
    const Program *prog;    /* for the tile functions called (NULL in graphs' parts: checked in their kernels) */
    Memo *memo;             /* row kernels' emission: the current context, or NULL */
    int nmemo;
    Func *f;
    bool ok;
    bool quiet;             /* graph fusion's trial: errors only set why */
    char why[320];          /* quiet: the first error's text */
    AkTmp tmp[AK_MAX_TMPS];
    int ntmp;
    Expr *red[AK_MAX_REDS]; /* row kernels: the reductions, each once */
    int phase[AK_MAX_REDS]; /* 1 + the deepest phase of a reduction in its operand */
    int nred;
    int R, K;               /* row kernels: the operand space's rank and the reduced axis */
    SrcLoc axis_loc;
    bool used_in_red[64], used_out[64]; /* per param: read inside a reduction's operand (or a
                                           full-space value), or in the reduced space */
    int assigned_order[64]; /* outputs in order of first assignment */
    int nassigned;
    bool read_first[64];    /* an output read before it is first assigned */
    bool assigned[64];
    Expr *final_value[64];  /* row kernels: each output's (last) value, substituted */
    SrcLoc final_loc[64];
    int out_kind[64];       /* row kernels: AK_KEEP_* of each output */
    const char *alias[64];  /* row kernels' emission: the local an input is loaded as, when not its own name */
    int pad;                /* row kernels' loads: the .padding (TILE_PAD_*) that makes every reduction see
                               its identity past the row's end, so none is masked; 0: none (masks) */
    AkNode *nodes;          /* the node cache: open addressing on the node's address */
    int ncap, nused;
    unsigned stamp;         /* the current walk's (ak_mark_reads) */
} Ak;

static const TypeRef ak_int64 = {.spelling = "int64_t", .dtype = DT_INT64};
static const TypeRef ak_auto = {.spelling = "auto", .dtype = DT_INVALID, .is_auto = true};

typedef struct StmtBuf {
    Stmt **items;
    int n, cap;
} StmtBuf;

/* The tile: extents of the space's axes as expressions of TILEC_BLOCK. */
typedef struct Tile {
    int rank;
    Expr *ext[4];
} Tile;

/* nodes and statements (array_lower.c) */
Expr *ak_mk(Ak *a, ExprKind k, SrcLoc loc);
Expr *ak_int(Ak *a, int64_t v, SrcLoc loc);
Expr *ak_name(Ak *a, const char *name, SrcLoc loc);
Expr *ak_bin(Ak *a, BinaryOp op, Expr *l, Expr *r);
Expr *ak_call(Ak *a, Builtin bi, SrcLoc loc, int nargs, Expr *a0, Expr *a1, Expr *a2);
void ak_opt(Ak *a, Expr *call, const char *name, Expr *value);
Expr *ak_list(Ak *a, Expr *const *items, int n, SrcLoc loc);
Stmt *ak_stmt(Ak *a, StmtKind k, SrcLoc loc);
Stmt *ak_decl(Ak *a, const char *name, TypeRef t, Expr *init, SrcLoc loc);
Stmt *ak_assign(Ak *a, const char *name, Expr *value, SrcLoc loc);
void ak_push(Ak *a, StmtBuf *b, Stmt *s);
Stmt *ak_block(Ak *a, StmtBuf *b, SrcLoc loc);
/* the rewrites (array_lower.c): an element-wise kernel of output rank R, a
 * row kernel (a->R, a->K, the reductions and outputs analysed) */
void ak_lower_elementwise(Ak *a, Stmt *body, int R);
void ak_lower_rows(Ak *a, SrcLoc bloc);
/* Array p (rank <= t->rank, aligned at the last axes) loaded (BI_LOAD) or
 * stored (BI_STORE, value) at the tile's coordinates idx. */
Expr *ak_access(Ak *a, Builtin bi, const Param *p, Expr *value, Expr *const *idx, const Tile *t, SrcLoc loc);
/* Adds the tunable tile extent TILEC_BLOCK (listed values vals; its default
 * picked from array ref's extent along dim, or the first value for -1). */
void ak_add_tunable(Ak *a, const int64_t *vals, int n, int ref, int dim);
/* `tile_store(y, y, ...)` of every output y (its value declared under its name) at idx. */
void ak_store_outputs(Ak *a, StmtBuf *b, Expr *const *idx, const Tile *t);
/* tile_bid(axis) */
Expr *ak_bid(Ak *a, int axis);
/* `T X = tile_load(X, ...)` for each array marked in use[], at idx. */
void ak_load_all(Ak *a, StmtBuf *b, const bool *use, Expr *const *idx, const Tile *t);
/* array_matmul.c: a kernel with a matrix product (checked and rewritten);
 * false after an error (quiet: a->why says it). */
bool ak_lower_matmul(Ak *a, Stmt *body);
/* The tile_matmul calls of tree e (as written), outer before inner:
 * counted in *n, the first two kept in found[]. */
void ak_find_matmuls(const Expr *e, const Expr **found, int *n);
/* The nodes of e as a tree (temporaries expanded), counted up to cap. */
int ak_tree_size(const Expr *e, int cap);

/* analysis (array_kernel.c) */
int ak_param_index(const Func *f, const char *name);
AkTmp *ak_find_tmp(Ak *a, const char *name);
bool ak_has_reduction(Ak *a, const Expr *e);
int ak_rank_of(Ak *a, Expr *e);
int ak_red_index(const Ak *a, const Expr *e);
int ak_vrank(Ak *a, const Expr *e);
VKind ak_kind_of(Ak *a, const Expr *e);
/* Marks in in_full[] the arrays e reads at the operands' coordinates (inside
 * reductions' operands, and in full-space values when full), in
 * in_reduced[] those read at the reduced space's. */
void ak_mark_reads(Ak *a, const Expr *e, bool full, bool *in_full, bool *in_reduced);
/* Marks in seen[] the arrays e (substituted) reads outside tile_matmul calls. */
void ak_reads_outside_matmul(Ak *a, const Expr *e, bool *seen);
/* e with every temporary replaced by its value (shared, not copied). */
Expr *ak_substitute(Ak *a, Expr *e);
/* An error of the analysis (reported, or in a quiet trial kept in why). */
void ak_error(Ak *a, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int ak_float_class(Ak *a, const Expr *e);
#endif
