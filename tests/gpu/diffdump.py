"""diffdump.py HOST_DIR GPU_DIR: the differential mode of tests/gpu/run.sh.

Each application writes every checked result to DIR/<app>/<check>.bin (atol,
rtol, values as float64; see examples/common/example.h).  This compares the
GPU's values with the host backend's element by element: within twice the
check's own tolerance (atol + rtol*|x|), exactly where the check is exact,
NaN only against NaN.  Prints one line per compared result and
"diff: N passed, N failed"."""
import math
import os
import struct
import sys


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    n = len(data) // 8
    vals = struct.unpack("<%dd" % n, data[: n * 8])
    return vals[0], vals[1], vals[2:]


def main():
    host, gpu = sys.argv[1], sys.argv[2]
    passed = failed = 0
    for app in sorted(os.listdir(host)):
        for name in sorted(os.listdir(os.path.join(host, app))):
            hp = os.path.join(host, app, name)
            gp = os.path.join(gpu, app, name)
            if not os.path.exists(gp):
                print("FAIL diff %s/%s: no GPU result" % (app, name))
                failed += 1
                continue
            atol, rtol, hv = load(hp)
            _, _, gv = load(gp)
            if len(hv) != len(gv):
                print("FAIL diff %s/%s: %d vs %d values" % (app, name, len(hv), len(gv)))
                failed += 1
                continue
            bad, worst = 0, None
            for i, (a, b) in enumerate(zip(hv, gv)):
                if math.isnan(a) or math.isnan(b):
                    ok = math.isnan(a) and math.isnan(b)
                elif math.isinf(a) or math.isinf(b):
                    ok = a == b
                else:
                    ok = abs(a - b) <= 2 * (atol + rtol * abs(a))
                if not ok:
                    bad += 1
                    if worst is None:
                        worst = (i, a, b)
            if bad:
                print("FAIL diff %s/%s: %d of %d differ, first at %d: host %r gpu %r"
                      % (app, name, bad, len(hv), worst[0], worst[1], worst[2]))
                failed += 1
            else:
                passed += 1
    print("diff: %d passed, %d failed" % (passed, failed))


if __name__ == "__main__":
    main()
