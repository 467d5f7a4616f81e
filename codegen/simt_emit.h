/* simt_emit.h: what codegen/simt.c (SIMT code on both targets) and
 * codegen/simt_narrow.c (its float16 and bfloat16 operations) share. */
#ifndef TILEC_SIMT_EMIT_H_
#define TILEC_SIMT_EMIT_H_
#include <stdio.h>

#include "frontend/simt.h"

typedef struct SimtEmit {
    FILE *o;
    bool cuda;          /* the CUDA target, else the host's C */
    const SimtFunc *sf; /* the function being printed (NULL for simt_narrow.c's helpers) */
} SimtEmit;

/* simt.c: prints expression n. */
void simt_emit_expr(SimtEmit *e, const SimtNode *n);

/* ---- simt_narrow.c ---- */
/* t's spelling on a target: __half and __nv_bfloat16 on the GPU,
 * tilec_simt_f16 and tilec_simt_bf16 on the host (tilec_simt.h), C's
 * otherwise. */
const char *simt_ctype(bool cuda, SimtType t);
/* A scalar parameter's type inside SIMT code. */
const char *simt_param_ctype(bool cuda, Dtype d);
/* Whether n is an operation on (or conversion of) a narrow float, which
 * simt_narrow_expr prints instead of C's operator. */
bool simt_narrow_handles(const SimtNode *n);
void simt_narrow_expr(SimtEmit *e, const SimtNode *n);
/* n converted to type `to` (C's conversion; rounding to nearest even into a
 * narrow float). */
void simt_narrow_convert(SimtEmit *e, const SimtNode *n, SimtType to);
/* The same for C text of type `from` (a launcher's argument). */
void simt_narrow_convert_text(SimtEmit *e, const char *text, SimtType from, SimtType to);
/* Defines the helpers that p's SIMT functions' compound assignments and
 * ++/-- on narrow floats call (each lvalue evaluated once, through its
 * address); before the first SIMT function. */
void simt_narrow_helpers(FILE *o, bool cuda, const Program *p);
#endif
