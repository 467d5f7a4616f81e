#!/bin/sh
# check_docs.sh: the documentation's kernels compile.
#
# Every fenced ```c block of README.md and docs/*.md whose first line is
# "#include <tilec.h>" is a complete Tile C source.  Each is written to a
# temporary file and checked with `$TILEC --check`: it must exit 0, or exit 1
# when the line before the fence (blank lines aside) is "<!-- expect-error -->".
# Then tests/docs/options.sh checks that cmd/driver.c's option table,
# `tilec --help`, docs/cli.md and docs/tilec.1 list the same options.
# Run from the repository root:
#     TILEC=bin/tilec sh tests/docs/check_docs.sh
# The last line is "docs: N passed, N failed"; the exit status is 0 when
# nothing failed.
set -u
TILEC=${TILEC:-bin/tilec}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilec-docs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
p=0
f=0
for doc in README.md docs/*.md; do
    [ -f "$doc" ] || continue
    rm -f "$tmp"/*
    # Writes block_N.tile.c and block_N.info ("LINE WANT") for each block.
    awk -v dir="$tmp" '
        function reset() { inblock = 0; keep = 0 }
        /^```c[ \t]*$/ && !inblock {
            inblock = 1; keep = 0; start = NR + 1; want = expect; expect = 0; next
        }
        /^```/ && inblock {
            if (keep) { close(file); print start, want > (dir "/block_" n ".info"); close(dir "/block_" n ".info") }
            reset(); next
        }
        inblock {
            if (NR == start) {
                if ($0 != "#include <tilec.h>") { inblock = 2; next }
                n++; keep = 1; file = dir "/block_" n ".tile.c"
            }
            if (inblock == 1) print > file
            next
        }
        /^<!-- expect-error -->[ \t]*$/ { expect = 1; next }
        /^[ \t]*$/ { next }
        { expect = 0 }
    ' "$doc"
    for info in "$tmp"/block_*.info; do
        [ -f "$info" ] || continue
        src=${info%.info}.tile.c
        read -r line want < "$info"
        [ "$want" = 1 ] || want=0
        "$TILEC" --check --color=never "$src" > "$tmp/out" 2>&1
        rc=$?
        if [ "$rc" -eq "$want" ]; then
            p=$((p + 1))
        else
            f=$((f + 1))
            echo "FAIL $doc:$line: tilec --check exited $rc, want $want"
            sed 's/^/    /' "$tmp/out" | head -n 8
        fi
    done
done
out=$(TILEC="$TILEC" sh "$(dirname "$0")/options.sh" 2>&1)
printf '%s\n' "$out" | grep -v '^options:'
line=$(printf '%s\n' "$out" | grep '^options:' | tail -n 1)
op=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
of=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
p=$((p + ${op:-0}))
f=$((f + ${of:-1}))
echo "docs: $p passed, $f failed"
[ "$f" -eq 0 ]
