/* frontend_ctx.h: what frontend.c (libclang's cursors -> tilec AST: files,
 * functions, statements) shares with lower_expr.c (expressions) and
 * clang_diag.c (libclang's diagnostics, reworded for Tile C): the parse's
 * context and the cursor helpers.  Internal to frontend/. */
#ifndef TILEC_FRONTEND_CTX_H
#define TILEC_FRONTEND_CTX_H
#include <clang-c/Index.h>
#include <stdbool.h>

#include "frontend/ast.h"
#include "frontend/simt.h"

typedef struct Ctx {
    Arena *arena;
    CXTranslationUnit tu;
    Program *prog;
    const char *main_file;
    int errors_at_start;
    bool goto_reported; /* a label after a rejected goto is not a second error */
    struct MacroUse *macros; /* every macro invocation in the user's files */
    int nmacros;
    struct StructType **structs; /* the struct types seen, by name (fe_type_ref) */
    int nstructs;
    const char **simt_bad;   /* SIMT functions whose definitions had errors: */
    int nsimt_bad;           /* their calls are not errors of their own */
    bool in_graph;           /* lowering a TILE_GRAPH's body: array kernels may be called */
} Ctx;

/* A macro invocation in the user's text, from libclang's preprocessing
 * record.  Used to place code that comes from a macro used inside another
 * macro's arguments (tile_store(c, SQ(x)), .shape = {TILE}) at the inner
 * invocation, which libclang's expansion location (the outer one) misses. */
typedef struct MacroUse {
    const char *name;
    CXFile file;
    unsigned start, end; /* offsets of the invocation's extent */
    unsigned line, col;
    unsigned owner;      /* hash of the cursor placed here, 0 when free */
} MacroUse;

/* A libclang string copied into the arena (and disposed of). */
char *fe_str_take(Ctx *cx, CXString s);
/* A file's name as libclang spells it, in the arena; NULL for no file. */
const char *fe_file_name(Ctx *cx, CXFile f);
/* A cursor's children, in order; release with fe_kids_free. */
typedef struct Kids {
    CXCursor *c;
    int n, cap;
} Kids;
Kids *fe_kids_of(CXCursor c);
void fe_kids_free(Kids *k);
/* c without the implicit and parenthesis cursors around its expression. */
CXCursor fe_strip(CXCursor c);
/* The user's file:line:col of a cursor (see frontend.c for macro rules). */
SrcLoc fe_loc_of(Ctx *cx, CXCursor c);
/* Whether c carries an annotate attribute starting with prefix; *value gets
 * the rest of its text. */
bool fe_annotation(CXCursor c, const char *prefix, const char **value, Ctx *cx);
/* The Tile C dtype of a C type, seen through typedefs (DT_INVALID if none). */
TypeRef fe_type_ref(Ctx *cx, CXType t);

/* frontend.c, for simt.c: a parameter (PARAM_ARRAY, _SCALAR, _CONST), and
 * the offsets of a for header's two ';' and its ')' (false when a macro
 * made the header); the offset where a cursor starts. */
bool fe_lower_param(Ctx *cx, CXCursor c, Param *p);
bool fe_for_header(Ctx *cx, CXCursor c, unsigned semi[2], unsigned *rparen, bool *spelling);
unsigned fe_for_offset(CXCursor c, bool spelling);
/* A definition's comment without its markers (NULL for none). */
char *fe_clean_comment(Ctx *cx, const char *raw);

/* simt.c: a SIMT_KERNEL or SIMT_FUNC definition into Program.simt; false
 * after an error. */
bool fe_simt_lower_func(Ctx *cx, CXCursor c, bool kernel);
/* simt.c: the scalar SIMT type of a C type (SIMT_NONE for others). */
SimtType simt_scalar_ctype(CXType t);
/* simt_types.c: the SIMT type of a C type, scalar, vector or struct (*agg
 * describes the last two); SIMT_NONE for others, and after an error about
 * the type (reported at `at`; *ok becomes false). */
SimtType fe_simt_type(Ctx *cx, CXType t, CXCursor at, const SimtAgg **agg, bool *ok);
/* simt.c: an error (false) when c, a parameter, a function or a variable
 * of tile code (`what`), carries SIMT_ALIGN or SIMT_ORDER_*, which lay out
 * SIMT code's local and shared arrays only. */
bool fe_simt_no_layout(Ctx *cx, CXCursor c, const char *what);

/* lower_expr.c */
Expr *fe_new_expr(Ctx *cx, ExprKind k, SrcLoc loc);
/* The tilec expression of an expression cursor; NULL after an error. */
Expr *fe_lower_expr(Ctx *cx, CXCursor c);
/* A struct's brace list (`T r = {a, .y = b};`, or a literal's): EX_STRUCT. */
Expr *fe_lower_struct_init(Ctx *cx, TypeRef t, CXCursor init, SrcLoc loc);
/* BOP_* of a binary or compound-assignment operator; -1 for none. */
int fe_map_binop(enum CXBinaryOperatorKind k);
bool fe_is_assign_op(enum CXBinaryOperatorKind k);

/* Prints libclang's diagnostics of cx->tu, reworded where Tile C has a
 * better thing to say (clang_diag.c). */
void fe_report_clang_diags(Ctx *cx);
#endif
