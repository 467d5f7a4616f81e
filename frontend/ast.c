/* ast.c: small helpers over the AST: operator spellings, lookups, freeing. */
#include <inttypes.h>
#include <stdio.h>
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

int ast_nconst(const Func *f)
{
    int n = 0;
    for (int i = 0; i < f->nparams; i++) n += f->params[i].kind == PARAM_CONST;
    return n;
}

void ast_spec_label(const Func *f, const int64_t *vals, char *buf, size_t len)
{
    if (len) buf[0] = 0;
    for (int j = 0, c = 0; j < f->nparams; j++)
        if (f->params[j].kind == PARAM_CONST) {
            size_t used = strlen(buf);
            snprintf(buf + used, len - used, "%s%s=%" PRId64, c ? ", " : "", f->params[j].name, vals[c]);
            c++;
        }
}

void program_free(Program *p)
{
    if (!p) return;
    Arena *a = p->arena;
    arena_free(a); /* the Program itself lives in its arena */
}
