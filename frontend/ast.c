/* ast.c: small helpers over the AST: operator spellings, lookups, freeing. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
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

Option *ast_option(const Expr *e, const char *name)
{
    for (int i = 0; i < e->nopts; i++)
        if (!strcmp(e->opts[i].name, name)) return &e->opts[i];
    return NULL;
}

void ast_walk_expr(AstVisitor *v, const Expr *e)
{
    if (!e || v->stop) return;
    if (v->expr && !v->expr(v, e)) return;
    for (int i = 0; i < e->nopts && !v->stop; i++) ast_walk_expr(v, e->opts[i].value);
    ast_walk_expr(v, e->a);
    ast_walk_expr(v, e->b);
    ast_walk_expr(v, e->c);
    for (int i = 0; i < e->nargs && !v->stop; i++) ast_walk_expr(v, e->args[i]);
    if (v->inlined && e->inl) ast_walk_stmt(v, e->inl->body);
}

void ast_walk_stmt(AstVisitor *v, const Stmt *s)
{
    if (!s || v->stop) return;
    if (v->stmt && !v->stmt(v, s)) return;
    ast_walk_expr(v, s->init);
    ast_walk_expr(v, s->target);
    ast_walk_expr(v, s->value);
    ast_walk_expr(v, s->cond);
    ast_walk_stmt(v, s->then_s);
    ast_walk_stmt(v, s->else_s);
    ast_walk_stmt(v, s->init_s);
    ast_walk_stmt(v, s->step_s);
    ast_walk_stmt(v, s->body);
    for (int i = 0; i < s->nitems && !v->stop; i++) ast_walk_stmt(v, s->items[i]);
}

typedef struct Reads {
    const Symbol *sym;
    const Expr *skip;
} Reads;

static bool reads_expr(AstVisitor *v, const Expr *e)
{
    const Reads *r = v->ctx;
    if (e == r->skip) return false;
    if (e->kind == EX_NAME && e->sym == r->sym) v->stop = true;
    return true;
}

bool ast_reads(const Expr *e, const Symbol *sym, const Expr *skip)
{
    Reads r = {sym, skip};
    AstVisitor v = {.expr = reads_expr, .ctx = &r};
    ast_walk_expr(&v, e);
    return v.stop;
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

void ast_write_escaped(FILE *o, const char *s, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n') fputs("\\n", o);
        else if (c == '\t') fputs("\\t", o);
        else if (c == '"' || c == '\\' || c == '?') fprintf(o, "\\%c", c); /* '?': no trigraph can form */
        else if (c < 32 || c >= 127) fprintf(o, "\\%03o", c);
        else fputc(c, o);
    }
}

char *ast_escape(Arena *a, const char *s, int64_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) abort();
    ast_write_escaped(m, s, n);
    fclose(m);
    char *r = arena_strdup(a, buf);
    free(buf);
    return r;
}

void program_free(Program *p)
{
    if (!p) return;
    Arena *a = p->arena;
    arena_free(a); /* the Program itself lives in its arena */
}
