/* simt_dump.h: the stable text form of SIMT kernels and functions
 * (frontend/simt.h) that --emit=ast, --emit=typed and --emit=tir print
 * after the tile functions.  Golden tests depend on it: change it only
 * together with tests/golden/. */
#ifndef TILEC_SIMT_DUMP_H
#define TILEC_SIMT_DUMP_H
#include <stdio.h>

#include "frontend/ast.h"

typedef enum SimtDumpMode {
    SIMT_DUMP_AST,   /* the tree as written: statements, names, operators, builtins' constants */
    SIMT_DUMP_TYPED, /* ...and every expression's C type */
    SIMT_DUMP_TIR,   /* ...and what the target makes of it: names, storage, target ifs decided */
} SimtDumpMode;

/* Every SIMT function of p, in source order; cuda picks the target of
 * SIMT_DUMP_TIR (ignored otherwise).  Prints nothing when p has none. */
void simt_dump_program(FILE *out, const Program *p, SimtDumpMode mode, bool cuda);
#endif
