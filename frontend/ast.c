/* ast.c: small helpers over the AST: operator spellings, lookups, freeing. */
#include <string.h>

#include "frontend/ast.h"

static const char *const binop_names[BOP_COUNT] = {
    "+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==", "!=",
    "&", "^", "|", "&&", "||",
};

const char *ast_binary_op_spelling(BinaryOp op)
{
    return (unsigned)op < BOP_COUNT ? binop_names[op] : "?";
}

const char *ast_unary_op_spelling(UnaryOp op)
{
    switch (op) {
    case UOP_NEG: return "-";
    case UOP_PLUS: return "+";
    case UOP_NOT: return "!";
    case UOP_BITNOT: return "~";
    case UOP_PREINC: case UOP_POSTINC: return "++";
    case UOP_PREDEC: case UOP_POSTDEC: return "--";
    }
    return "?";
}

Func *ast_find_func(const Program *p, const char *name)
{
    for (int i = 0; i < p->nfuncs; i++)
        if (strcmp(p->funcs[i]->name, name) == 0) return p->funcs[i];
    return NULL;
}

void program_free(Program *p)
{
    if (!p) return;
    Arena *a = p->arena;
    arena_free(a); /* the Program itself lives in its arena */
}
