"""One timed run: python queens.py PROGRAM count|iterate N; prints the count and seconds."""
import sys, time, statistics, json
which, work, n = sys.argv[1], sys.argv[2], int(sys.argv[3])

def queens(n):
    options = [[f"r{r}", f"c{c}", f"d{r + c}", f"a{r + n - 1 - c}"] for r in range(n) for c in range(n)]
    secondary = [f"d{i}" for i in range(2 * n - 1)] + [f"a{i}" for i in range(2 * n - 1)]
    primary = [f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]
    return options, primary, secondary

options, primary, secondary = queens(n)
if which == "xcover_dlx":
    import xcover_dlx
    t = time.perf_counter()
    if work == "count":
        k = xcover_dlx.Problem(options, primary, secondary).count()
    else:
        k = sum(1 for s in xcover_dlx.covers(options, primary, secondary))
elif which == "xcover_dlx2":
    import xcover_dlx
    t = time.perf_counter()
    if work == "count":
        k = xcover_dlx.Problem(options, primary, secondary).count(threads=2)
    else:
        k = sum(1 for s in xcover_dlx.covers(options, primary, secondary, threads=2))
elif which == "xcover":
    import xcover
    o4, p4, s4 = queens(4)
    list(xcover.covers(o4, primary=p4, secondary=s4))  # numba warm-up (JIT) outside the timing
    t = time.perf_counter()
    k = sum(1 for s in xcover.covers(options, primary=primary, secondary=secondary))
elif which == "pyxcc":
    import pyxcc
    sec = set(secondary)
    opts = [pyxcc.Option(str(j), [x for x in o if x not in sec], [(x, "") for x in o if x in sec]) for j, o in enumerate(options)]
    t = time.perf_counter()
    prob = pyxcc.Problem(primary, secondary, opts)
    sols = pyxcc.solve(prob, True)
    if work == "iterate":
        k = sum(1 for s in sols.all())
    else:
        k = sols.count()
print(json.dumps({"which": which, "work": work, "count": k, "seconds": time.perf_counter() - t}))
