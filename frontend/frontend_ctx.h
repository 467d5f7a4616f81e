/* frontend_ctx.h: what frontend.c (libclang's cursors -> tilec AST) shares
 * with clang_diag.c (libclang's diagnostics, reworded for Tile C): the
 * parse's context and the two string helpers.  Internal to frontend/. */
#ifndef TILEC_FRONTEND_CTX_H
#define TILEC_FRONTEND_CTX_H
#include <clang-c/Index.h>
#include <stdbool.h>

#include "frontend/ast.h"

typedef struct Ctx {
    Arena *arena;
    CXTranslationUnit tu;
    Program *prog;
    const char *main_file;
    int errors_at_start;
    bool goto_reported; /* a label after a rejected goto is not a second error */
    struct MacroUse *macros; /* every macro invocation in the user's files */
    int nmacros;
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
/* Prints libclang's diagnostics of cx->tu, reworded where Tile C has a
 * better thing to say (clang_diag.c). */
void fe_report_clang_diags(Ctx *cx);
#endif
