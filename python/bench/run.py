"""Queens 13 through xcover_dlx, PyPI xcover, pyxcc and `xcover dlx3 m0`: each program in a
process of its own, rounds interleaved, medians. Usage: python run.py ROUNDS PATH-TO-XCOVER
(with xcover_dlx, xcover and pyxcc installed; see docs/PERFORMANCE.md)."""
import json, os, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))


def queens_dlx(n, path):
    """Knuth's format of the problem queens.py builds."""
    prim = [f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]
    sec = [f"d{i}" for i in range(2 * n - 1)] + [f"a{i}" for i in range(2 * n - 1)]
    lines = [" ".join(prim) + " | " + " ".join(sec)]
    lines += [f"r{r} c{c} d{r + c} a{r + n - 1 - c}" for r in range(n) for c in range(n)]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


REPS = int(sys.argv[1])
CLI = sys.argv[2]
py = sys.executable
cases = [("xcover_dlx", "count"), ("xcover_dlx", "iterate"), ("xcover_dlx2", "count"), ("xcover_dlx2", "iterate"),
         ("xcover", "iterate"), ("pyxcc", "count"), ("pyxcc", "iterate"), ("cli", "count")]
times = {c: [] for c in cases}
DLX = os.path.join(os.environ.get("TMPDIR", "/tmp"), "queens13.dlx")
queens_dlx(13, DLX)
for rep in range(REPS):
    for which, work in cases:
        if which == "cli":
            t = time.perf_counter()
            out = subprocess.run([CLI, "dlx3", "m0"], stdin=open(DLX), capture_output=True, text=True)
            dt = time.perf_counter() - t
            assert "73712 solutions" in out.stderr, out.stderr
        else:
            out = subprocess.run([py, os.path.join(HERE, "queens.py"), which, work, "13"], capture_output=True, text=True)
            r = json.loads(out.stdout.strip().splitlines()[-1])
            assert r["count"] == 73712, r
            dt = r["seconds"]
        times[(which, work)].append(dt)
med = {c: statistics.median(v) for c, v in times.items()}
for c, v in times.items():
    print(f"{c[0]:12} {c[1]:8} median {med[c]:.3f} s  min {min(v):.3f}  max {max(v):.3f}  runs {len(v)}")
print(json.dumps({f"{a} {b}": m for (a, b), m in med.items()}))
