/* layout_cli.h: `tilec layout`, the command-line front end of the CuTe
 * layout algebra (sema/layout.h; docs/layout.md). */
#ifndef TILEC_LAYOUT_CLI_H
#define TILEC_LAYOUT_CLI_H
#include <stdio.h>

/* `tilec layout OP ARG...`; argv[0] is "layout".  Prints the result on out.
 * Returns 0 on success, 1 on an algebra or operand error ("error: REASON" on
 * err), 2 on a usage error (unknown op, wrong argument count). */
int layout_cli_main(int argc, char **argv, FILE *out, FILE *err);
/* `tilec layout --batch`: one `OP ARG...` per line of in, one result line
 * (or `error: REASON`) per line on out; blank lines and lines starting with
 * `#` print nothing.  Returns 0, or 1 when in could not be read. */
int layout_cli_batch(FILE *in, FILE *out);
#endif
