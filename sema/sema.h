/* sema.h: the semantic pass, once per kernel specialization.  It resolves
 * names, gives every expression its dtype (cuTile's promotion rules) and its
 * static tile shape (NumPy broadcasting), folds compile-time constants, inlines
 * tile functions (each call gets its own typed copy of the body), and rejects
 * what Tile C does not allow, at the user's file:line:col. */
#ifndef TILEC_SEMA_H
#define TILEC_SEMA_H
#include "frontend/ast.h"

/* Types every kernel of p in every specialization of its TILE_CONST
 * parameters, each in its own copy (f->specs), and checks every tile
 * function signature.  Reports each error once, at the user's file:line:col,
 * and returns false if there was one.  Nothing after sema types again. */
bool sema_program(Program *p);
#endif
