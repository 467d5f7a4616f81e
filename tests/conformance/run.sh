#!/bin/sh
# tests/conformance/run.sh: seed 001 (the CUDA Python device spec) walked
# section by section, one file per section (NN_section.txt).  Each file holds
# programs separated by marker lines:
#   //== accept NAME      the program compiles for the CUDA and the host
#                         targets, with nothing on standard error;
#   //== reject NAME      tilec exits 1, and its error lines are exactly the
#                         program's "// expect: LINE:COL: error: MESSAGE"
#                         lines (LINE counted from the program's first line);
#   //== todo NAME: WHY   an entity the seed specifies that tilec does not
#                         have yet: counted and listed, not run.
# Lines before the first marker describe the section.  Run from the repo
# root with TILEC and OUT set (tests/run.sh does); prints one line per
# failure and ends with "conformance: N passed, N failed" (todo entities are
# reported on their own line).
set -u
TILEC=${TILEC:-bin/tilec}
OUT=${OUT:-build/test/conformance}
rm -rf "$OUT"
mkdir -p "$OUT"
p=0; f=0; todo=0; rejected=0
for sec in tests/conformance/[0-9]*.txt; do
    [ -f "$sec" ] || continue
    base=$(basename "$sec" .txt)
    # split into $OUT/base--NAME.tile.c (+ .kind, + .expect)
    awk -v out="$OUT" -v base="$base" '
        /^\/\/== / {
            kind = $2; name = $3; sub(/:$/, "", name)
            file = out "/" base "--" name ".tile.c"
            print kind > (out "/" base "--" name ".kind"); close(out "/" base "--" name ".kind")
            if (kind == "todo") { line = $0; sub(/^\/\/== todo /, "", line); print line >> (out "/todo.txt") }
            n = 0; next
        }
        file == "" { next }
        /^\/\/ expect: / {
            e = $0; sub(/^\/\/ expect: /, "", e)
            print file ":" e >> (substr(file, 1, length(file) - 7) ".expect")
            next
        }
        { print > file }
    ' "$sec"
done
for kindf in "$OUT"/*.kind; do
    [ -f "$kindf" ] || continue
    stem=${kindf%.kind}
    kind=$(cat "$kindf")
    src=$stem.tile.c
    name=$(basename "$stem")
    case "$kind" in
    todo) todo=$((todo + 1)); continue ;;
    accept)
        if "$TILEC" -o "$stem.cu" "$src" 2> "$stem.err" && [ ! -s "$stem.err" ] &&
           "$TILEC" --target=host -o "$stem.c" "$src" 2> "$stem.herr" && [ ! -s "$stem.herr" ]; then
            p=$((p + 1))
        else
            f=$((f + 1)); echo "conformance FAIL: $name should compile:"; head -5 "$stem.err" "$stem.herr"
        fi ;;
    reject)
        rejected=$((rejected + 1))
        "$TILEC" -o "$stem.cu" "$src" > /dev/null 2> "$stem.err"
        rc=$?
        grep ': error: ' "$stem.err" > "$stem.got"
        if grep -q 'runtime error\|Sanitizer' "$stem.err"; then
            f=$((f + 1)); echo "conformance FAIL: $name: a sanitizer report:"; grep 'runtime error\|Sanitizer' "$stem.err" | head -3
        elif [ "$rc" -ne 1 ]; then
            f=$((f + 1)); echo "conformance FAIL: $name: exit $rc, want 1"; head -5 "$stem.err"
        elif [ ! -f "$stem.expect" ]; then
            f=$((f + 1)); echo "conformance FAIL: $name: no '// expect:' line"; head -3 "$stem.got"
        elif ! diff "$stem.expect" "$stem.got" > "$stem.diff"; then
            f=$((f + 1)); echo "conformance FAIL: $name: errors differ:"; sed 's/^/    /' "$stem.diff" | head -8
        elif [ -f "$stem.cu" ]; then
            f=$((f + 1)); echo "conformance FAIL: $name: an output was written after an error"
        else
            p=$((p + 1))
        fi ;;
    *) f=$((f + 1)); echo "conformance FAIL: $name: unknown kind '$kind'" ;;
    esac
done
echo "conformance: $rejected rejected programs checked; $todo entities not implemented yet:"
[ -f "$OUT/todo.txt" ] && sed 's/^/    /' "$OUT/todo.txt"
echo "conformance: $p passed, $f failed"
[ "$f" -eq 0 ]
