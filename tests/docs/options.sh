#!/bin/sh
# options.sh: the option lists agree.  The options of tilec are listed in
# four places: the option table of cmd/driver.c (which parses them), the
# output of `tilec --help`, the options table of docs/cli.md and the OPTIONS
# section of docs/tilec.1.  Each list is reduced to option names (the
# spelling up to its '=' or its value: "-o FILE" -> "-o", "--target=host" ->
# "--target=", "-WNAME" -> "-W", "@FILE" -> "@"), and every name must be in
# all four.  Run from the repository root:
#     TILEC=bin/tilec sh tests/docs/options.sh
# The last line is "options: N passed, N failed" (one check per option name);
# KEEP=1 keeps the four extracted lists in the temporary directory.
set -u
TILEC=${TILEC:-bin/tilec}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilec-options.XXXXXX") || exit 2
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
p=0
f=0

# Reads candidate option spellings, one or more per line, and prints the
# sorted option names.
names() {
    tr ' ,' '\n\n' | sed -n -E '
        s/^@.*/@/p
        /^-/{
            s/^([^=]*=).*/\1/
            s/(NAME|FILE)$//
            p
        }' | sort -u
}

# cmd/driver.c: the name field of each row of opt_table.
sed -n '/^static const OptSpec opt_table\[\] = {/,/^};/p' cmd/driver.c |
    sed -n -E 's/^ *\{"([^"]*)".*/\1/p' | names > "$tmp/driver"

# tilec --help: the left column of the option lines (up to two spaces).
"$TILEC" --help > "$tmp/help.txt" 2>&1 || { echo "options: tilec --help failed"; f=$((f + 1)); }
sed -n '/^options:/,/^$/p' "$tmp/help.txt" | sed -n -E 's/^  ([-@][^ ].*)$/\1/p' |
    sed -E 's/   *.*//; s/ (FILE|DIR|NAME\[=VAL\]|NAME|TARGET)(,|$)/\2/g' | names > "$tmp/help"

# docs/cli.md: the backquoted spellings in the first column of the table
# under "## Options".
sed -n '/^## Options/,/^## /p' docs/cli.md | grep '^| `' | sed 's/\\|/\//g' |
    awk -F'|' '{ print $2 }' | grep -o '`[^`]*`' | tr -d '`' |
    sed -E 's/ (FILE|DIR|NAME\[=VALUE\]|NAME|TARGET)$//' | names > "$tmp/cli"

# docs/tilec.1: the line after each .TP of the OPTIONS section, without
# macros, fonts and quotes.
sed -n '/^\.SH OPTIONS/,/^\.SH SUBCOMMANDS/p' docs/tilec.1 | awk 'prev == ".TP" { print } { prev = $0 }' |
    sed -E 's/^\.[A-Z]+ //; s/\\f[BIRP]//g; s/\\-/-/g; s/"//g; s/\|/ /g' | names > "$tmp/man"

for src in driver help cli man; do
    if [ ! -s "$tmp/$src" ]; then
        echo "FAIL options: no options found in $src"
        f=$((f + 1))
    fi
done
cat "$tmp/driver" "$tmp/help" "$tmp/cli" "$tmp/man" | sort -u > "$tmp/all"
while read -r opt; do
    missing=""
    for src in driver help cli man; do
        grep -qxF -- "$opt" "$tmp/$src" || missing="$missing $src"
    done
    if [ -n "$missing" ]; then
        case $missing in *driver*) where="listed but not accepted (cmd/driver.c's table)";; *) where="missing from:$missing";; esac
        echo "FAIL options: '$opt' $where"
        f=$((f + 1))
    else
        p=$((p + 1))
    fi
done < "$tmp/all"
echo "options: $p passed, $f failed"
[ "$f" -eq 0 ]
