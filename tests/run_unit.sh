#!/bin/sh
# run_unit.sh: runs each unit-test binary given on the command line and adds
# up their "N passed, N failed" lines.  Used by `make unit` and tests/run.sh.
pass=0; fail=0
for t in "$@"; do
    out=$("$t" 2>&1); rc=$?
    line=$(printf '%s\n' "$out" | grep -E ': [0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    p=$(printf '%s' "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
    f=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
    [ -n "$p" ] || p=0
    [ -n "$f" ] || f=0
    if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    if [ "$f" -ne 0 ]; then printf '%s\n' "$out" | tail -n 40; fi
    printf '  %-28s %s passed, %s failed\n' "$(basename "$t")" "$p" "$f"
    pass=$((pass + p)); fail=$((fail + f))
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
