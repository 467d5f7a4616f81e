/* types_cli.h: the `tilec promote` and `tilec broadcast` subcommands, which
 * answer "what type / shape does this combination give?" from the command
 * line (docs/types.md).  argv[0] is the subcommand name.  Both return 0 on
 * success, 1 when the combination is an error (printed as "error: ..." on
 * err), and 2 on a usage error. */
#ifndef TILEC_TYPES_CLI_H
#define TILEC_TYPES_CLI_H
#include <stdio.h>

/* tilec promote TYPE TYPE [OP]: TYPE is a dtype name (bool, int8 ...,
 * int_const, float_const) or a literal constant (300, -1, 1.5); OP is an
 * operator (+ - * / % < == & << && ?: ...) or a class name (arith, div,
 * truediv, mod, compare, bitwise, shift, logical, select).  Prints the
 * result dtype. */
int types_cli_promote(int argc, char **argv, FILE *out, FILE *err);
/* tilec broadcast SHAPE SHAPE...: prints the broadcast shape. */
int types_cli_broadcast(int argc, char **argv, FILE *out, FILE *err);
#endif
