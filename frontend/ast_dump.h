/* ast_dump.h: the stable text form of the AST printed by --emit=ast (and,
 * with each expression's dtype and shape, by --emit=typed). */
#ifndef TILEC_AST_DUMP_H
#define TILEC_AST_DUMP_H
#include <stdio.h>

#include "frontend/ast.h"

void ast_dump_program(FILE *out, const Program *p, bool typed);
/* One function; label (may be NULL) names the specialization shown. */
void ast_dump_func(FILE *out, const Func *f, bool typed, const char *label);
#endif
