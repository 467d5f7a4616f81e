/* tir.h: the tile IR of one kernel specialization (internal to codegen/).
 *
 * Between the typed AST and the emitted C sits a small IR of plain structs
 * in the compile's arena:
 *   - values (TirValue): every tile or scalar that lives somewhere, a
 *     variable or a materialised expression, with its dtype, shape, home
 *     (scalar, registers, replicated registers, tensor-core fragments, the
 *     host's whole-tile array), its thread-value layout in CuTe notation and,
 *     when it is read out of its threads' order, its shared-memory mirror
 *     with the swizzle chosen for it; and the shared-memory buffers of
 *     pipelined K loops, with theirs.  The placement pass (scan.c, then
 *     tir_place) decides all of it; the declarations are written from it.
 *   - operations (TirOp): the body in execution order, with structured
 *     control flow.  Every value that materialises has its own operation
 *     before the operation that reads it (loads, reductions, scans, gathers
 *     and atomics, tile_mma, inlined calls: innermost first), element-wise
 *     expressions stay fused in the definition that reads them, and changes
 *     of home are explicit conversions (TIR_TO_FRAG, TIR_TO_REGS for
 *     fragment accumulators, TIR_TO_SMEM after each definition of a value
 *     with a mirror).  tir_lower builds the list; body.c emits
 *     code by walking it; tir_print dumps it (`tilec --emit=tir`).
 *
 * Element-wise expressions are kept as the typed AST nodes they are (their
 * operand types recorded by sema), with materialised nodes read from their
 * values. */
#ifndef TILEC_TIR_H
#define TILEC_TIR_H
#include <stdio.h>

#include "frontend/ast.h"
#include "sema/layout.h"

typedef enum TirHome {
    TIR_SCALAR,    /* one copy in every thread */
    TIR_REGS,      /* per-thread registers, by the thread-value layout */
    TIR_REPL,      /* fewer elements than threads: thread t holds element t % n */
    TIR_FRAGMENT,  /* tensor-core accumulator fragments (registers when read) */
    TIR_WHOLE,     /* host target: the one "thread" holds the whole tile */
    TIR_SMEM,      /* a shared-memory buffer: swz o row-major, `stages` copies */
} TirHome;

typedef struct TirValue {
    const char *name;    /* its C name: v<symbol id> or t<expression id> */
    const Symbol *sym;   /* a variable or parameter of an inlined call, or NULL */
    const Expr *expr;    /* a materialised expression, or NULL */
    Dtype dtype;
    Shape shape;
    TirHome home;
    int64_t n;           /* elements */
    int per_thread;      /* registers per thread (E); vector runs of vec */
    int vec;
    bool mirror;         /* also in shared memory, written after each definition */
    LayoutSwizzle swz[2]; /* the mirror's swizzles: element i at swz[1](swz[0](i)) */
    int nswz;
    int mirror_vec;      /* > 1: the mirror is written by runs of this many elements, one vector each */
    int stages;          /* TIR_SMEM: copies in flight (a pipeline's stages) */
    int frag_k;          /* TIR_FRAGMENT: the WMMA k of its updates */
    int64_t frag_blocks; /* TIR_FRAGMENT: 16x16 blocks per warp */
} TirValue;

typedef enum TirOpKind {
    TIR_MATERIALIZE, /* dst = expr, computed once: load, reduction, scan, gather, atomic, tile_mma */
    TIR_CALL,        /* an inlined tile function: kids define its parameters, run its body, define dst */
    TIR_DEF,         /* dst = expr, element-wise (fused), then its mirror */
    TIR_STORE,       /* expr is a tile_store: its value (dst) defined, then written */
    TIR_TO_FRAG,     /* dst's registers (defined by expr) become its fragments */
    TIR_TO_REGS,     /* dst's fragments copied to its registers before a read */
    TIR_TO_SMEM,     /* dst's registers copied to its shared-memory mirror */
    TIR_MMA_UPDATE,  /* dst = tile_mma(a, b, dst) on dst's fragments (expr) */
    TIR_IF,          /* pre (the condition's values), then kids / else_kids */
    TIR_FOR,         /* init; loop { pre; if !cond break; kids; step } */
    TIR_PIPELINED_FOR, /* a K loop as a copy pipeline (pipeline.c); init */
    TIR_WHILE,       /* loop { pre; if !cond break; kids } */
    TIR_BLOCK,       /* { kids } */
    TIR_BREAK,
    TIR_CONTINUE,
    TIR_RETURN,
    TIR_PRINTF,      /* expr is a tile_printf: its arguments' values defined (mirrors), then printed */
    TIR_ASSERT,      /* expr is a tile_assert: a failing block records it and returns */
    TIR_NOP,         /* a statement without effect (it keeps its #line) */
} TirOpKind;

typedef struct TirOp TirOp;
struct TirOp {
    TirOpKind kind;
    SrcLoc loc;
    bool stmt_start;     /* the first operation of a source statement (#line) */
    TirValue *dst;
    Expr *expr;          /* defined or materialised expression; the condition */
    const Stmt *stmt;    /* the source statement (loops) */
    const struct PipeLoop *pipe; /* TIR_PIPELINED_FOR, with its operand buffers: */
    TirValue *bufs[2];
    int stages;          /* TIR_PIPELINED_FOR: its ring's */
    TirOp *pre, *kids, *else_kids, *init, *step; /* lists, linked by next */
    TirOp *next;
};

typedef struct TirKernel {
    const Func *f;       /* the typed specialization */
    bool cuda;
    int threads, vec;
    TirValue *values;    /* variables by symbol id, then materialised expressions by id */
    int nvalues;
    TirValue **by_sym;   /* symbol id -> value, or NULL */
    TirValue **by_expr;  /* expression id -> value, or NULL */
    TirOp *body;
    int smem_static, smem_dynamic; /* bytes */
} TirKernel;

/* Dumps k (`tilec --emit=tir`): a header, the values with their homes and
 * layouts, then the operations.  label names the specialization or is NULL. */
void tir_print(FILE *o, const TirKernel *k, const char *label);
/* The value that materialises expression e (computed once by an operation
 * of its own), or NULL where e is computed where it is read. */
TirValue *tir_materialized(const TirKernel *k, const Expr *e);
#endif
