/* tuning.h: --tuning FILE, read into the tables of codegen (codegen.h). */
#ifndef TILEC_TUNING_H
#define TILEC_TUNING_H
#include "codegen/codegen.h"

/* Appends the entries of tuning file `file` for the kernels of p (typed)
 * to *entries (realloc'd; *n of them); malformed lines are errors at
 * FILE:LINE:COL, lines for other kernels and a file from another device
 * (cc none of --arch's sm_XX, or not 0 for the host target) or tilec version are warnings
 * (-Wtuning-device).  False after errors. */
bool tuning_load(const char *file, const Program *p, const int *archs, int narchs, TuneEntry **entries, int *n);
#endif
