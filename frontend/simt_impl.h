/* simt_impl.h: what the files of the SIMT frontend share (internal to
 * frontend/): the lowering's state and its helpers.  simt.c lowers
 * definitions, statements and scalar expressions; simt_aggs.c the
 * expressions of vectors and structs and initializers; simt_layout.c the
 * layouts of local and shared arrays (SIMT_ALIGN, SIMT_ORDER_F) and their
 * initializers in storage order; simt_types.c reads the types. */
#ifndef TILEC_SIMT_IMPL_H
#define TILEC_SIMT_IMPL_H
#include "frontend/frontend_ctx.h"
#include "frontend/simt.h"

typedef struct Var {
    CXCursor c;
    SimtNode *decl;
} Var;

typedef struct SCtx {
    Ctx *cx;
    SimtFunc *sf;
    CXCursor fn;
    Var *vars;
    int nvars, capvars;
    bool ok;
} SCtx;

/* What an expression may be besides a scalar: an atomic's &element, an
 * array parameter (a SIMT function's argument), a row of a local array (the
 * base of the next subscript), a SIMT_ATOMIC object (an atomic's operand). */
/* ARG_VALUE: a builtin's value argument, which tilec.h declares double (or
 * unsigned long long): its implicit conversion there is not the program's
 * (the builtin takes the operand's type). */
enum { ALLOW_ADDR = 1, ALLOW_ARRAY = 2, ALLOW_ROW = 4, ALLOW_ATOMIC = 8, ARG_VALUE = 16 };

/* simt.c */
SimtNode *sx_node(SCtx *s, SimtKind k, CXCursor c);
SimtNode *sx_fail_at(SCtx *s, SrcLoc at, const char *fix, const char *msg);
/* an error at c (with a fix-it when fix is not NULL): s->ok becomes false; NULL */
SimtNode *sx_fail(SCtx *s, CXCursor c, const char *fix, const char *msg);
void sx_push(SCtx *s, SimtNode *parent, SimtNode *kid, int *cap);
bool sx_eval_int(CXCursor c, int64_t *v, bool *is_unsigned);
SimtNode *sx_int_node(SCtx *s, CXCursor c, int64_t v, SimtType t);
char *sx_spelling(SCtx *s, CXCursor c);
bool sx_is_vector(CXType t);
/* fe_strip, stopping at a vector's lane access and at splats */
CXCursor sx_strip(CXCursor c);
/* the SIMT tree of an expression (flags: ALLOW_*); NULL after an error */
SimtNode *sx_expr(SCtx *s, CXCursor c, int flags);

/* simt_aggs.c */
SimtNode *sx_lane_at(SCtx *s, CXCursor c, SimtNode *b, CXCursor idx);
SimtNode *sx_vector_access(SCtx *s, CXCursor c);
SimtNode *sx_member(SCtx *s, CXCursor c);
SimtNode *sx_compound_literal(SCtx *s, CXCursor c);
SimtNode *sx_init_list(SCtx *s, CXCursor c, SimtType elem, const SimtAgg *agg, int ndims);

/* simt_layout.c */
bool sx_layout(SCtx *s, CXCursor c, SimtNode *d, CXType elem);
bool sx_layout_init(SCtx *s, SimtNode *d);
#endif
