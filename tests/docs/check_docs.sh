#!/bin/sh
# check_docs.sh: every ```c block of the documentation that begins with
# "#include <tilec.h>" is a complete kernel source: tilec --check must accept
# it, or reject it with exit status 1 when the line before the block is
# "<!-- expect-error -->".  Ends with "docs: N passed, N failed".
set -u
TILEC=${TILEC:-bin/tilec}
OUT=${OUT:-build/test/docs}
mkdir -p "$OUT"
p=0; f=0
for doc in README.md docs/*.md; do
    [ -f "$doc" ] || continue
    rm -f "$OUT"/block_*.tile.c "$OUT"/block_*.expect
    awk -v out="$OUT" '
        /^<!-- expect-error -->/ { expect = 1; next }
        /^```c$/ { inblock = 1; n++; file = out "/block_" n ".tile.c"; first = 1; next }
        /^```/ && inblock { inblock = 0; close(file); if (expect) print "1" > (out "/block_" n ".expect"); expect = 0; next }
        inblock { if (first && $0 != "#include <tilec.h>") { inblock = 0; expect = 0; system("rm -f " file); next }
                  first = 0; print > file; next }
        { if ($0 != "") expect = 0 }
    ' "$doc"
    for b in "$OUT"/block_*.tile.c; do
        [ -f "$b" ] || continue
        want=0
        [ -f "${b%.tile.c}.expect" ] && want=1
        "$TILEC" --check --color=never "$b" > "$OUT/err" 2>&1
        rc=$?
        if [ $rc -eq $want ]; then p=$((p + 1)); else
            f=$((f + 1)); echo "docs: $doc, code block $(basename "$b"): exit $rc, want $want"; head -5 "$OUT/err"
        fi
    done
done
echo "docs: $p passed, $f failed"
[ "$f" -eq 0 ]
