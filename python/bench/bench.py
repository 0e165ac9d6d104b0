"""Benchmarks of xcover_dlx against the exact-cover and Sudoku packages on PyPI.

    python bench.py run ROUNDS PATH-TO-XCOVER-CLI [WORKLOAD ...]

runs every (workload, program) pair in a process of its own, ROUNDS rounds with the pairs
interleaved, and prints per pair the mean, p90 and max seconds, and the ratio of the means
to xcover_dlx's. A program whose package is not installed is skipped, saying so.

    python bench.py one WORKLOAD PROGRAM

is one timed run (what `run` starts); it prints a JSON line with the answer and the seconds
(for a Sudoku workload, the seconds of every puzzle). The problem is built before the clock
starts; PyPI xcover is timed after a warm-up of its JIT on a small problem of the same kind.

Every program gets the same items in the same order (primary, then secondary) and the same
options in the same order; the answers (solution counts, Sudoku grids) are checked equal.
"""
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.abspath(__file__)
SUDOKU17 = os.environ.get("SUDOKU17", os.path.join(os.path.dirname(HERE), "..", "..", "..", "shared", "data", "sudoku17.txt"))
# Puzzles per run for the slow Sudoku packages (the first ones of the file).
SAMPLE = {"py-sudoku": 8, "exact-cover": 500}


# ---- the problems, as (options, primary, secondary, colored, bounds) ----

def queens(n):
    primary = [f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]
    secondary = [f"d{i}" for i in range(2 * n - 1)] + [f"a{i}" for i in range(2 * n - 1)]
    options = [[f"r{r}", f"c{c}", f"d{r + c}", f"a{r + n - 1 - c}"] for r in range(n) for c in range(n)]
    return options, primary, secondary, False, None


def tiles(w, h, seed=1):
    """Edge matching: a w x h grid, w*h tiles (2 edge colors, no rotations) read off a random
    solved grid; an option puts a tile on a cell of the same shape (corner, side, inside) and
    colors the cell's inner edges."""
    rnd = random.Random(seed)
    right = {(x, y): rnd.choice("ab") for x in range(w - 1) for y in range(h)}
    down = {(x, y): rnd.choice("ab") for x in range(w) for y in range(h - 1)}

    def sides(x, y):  # (edge, color) of the cell's inner edges: W, E, N, S
        s = []
        if x > 0:
            s.append(("W", right[(x - 1, y)]))
        if x < w - 1:
            s.append(("E", right[(x, y)]))
        if y > 0:
            s.append(("N", down[(x, y - 1)]))
        if y < h - 1:
            s.append(("S", down[(x, y)]))
        return s

    cells = [(x, y) for x in range(w) for y in range(h)]
    tile = [sides(x, y) for x, y in cells]
    primary = [f"x{x}y{y}" for x, y in cells] + [f"t{k}" for k in range(len(cells))]
    secondary = [f"h{x}_{y}" for x in range(w - 1) for y in range(h)] + [f"v{x}_{y}" for x in range(w) for y in range(h - 1)]
    options = []
    for x, y in cells:
        shape = [e for e, _ in sides(x, y)]
        edge = {"W": f"h{x - 1}_{y}", "E": f"h{x}_{y}", "N": f"v{x}_{y - 1}", "S": f"v{x}_{y}"}
        for k, t in enumerate(tile):
            if [e for e, _ in t] == shape:
                options.append([f"x{x}y{y}", f"t{k}"] + [f"{edge[e]}:{c}" for e, c in t])
    return options, primary, secondary, True, None


def langford(n, multiplicity=None):
    """Langford pairs of n: value i at positions j and j+i+1. With multiplicity=(lo, hi), a
    primary item M in the options of odd values that start in the left half, covered lo to
    hi times."""
    primary = [f"v{i}" for i in range(1, n + 1)] + [f"s{j}" for j in range(1, 2 * n + 1)]
    options = []
    for i in range(1, n + 1):
        for j in range(1, 2 * n - i):
            o = [f"v{i}", f"s{j}", f"s{j + i + 1}"]
            if multiplicity and i % 2 == 1 and j <= n:
                o.append("M")
            options.append(o)
    bounds = None
    if multiplicity:
        primary.append("M")
        bounds = {"M": multiplicity}
    return options, primary, [], False, bounds


WORKLOADS = {
    # name: (the problem, a small one of the same kind for PyPI xcover's warm-up, work)
    "queens13-count": (lambda: queens(13), lambda: queens(4), "count"),
    "queens13-iterate": (lambda: queens(13), lambda: queens(4), "iterate"),
    "tiles6x6-count": (lambda: tiles(6, 6), lambda: tiles(2, 2), "count"),
    "tiles6x6-iterate": (lambda: tiles(6, 6), lambda: tiles(2, 2), "iterate"),
    "langford12-count": (lambda: langford(12), lambda: langford(4), "count"),
    "langford12-iterate": (lambda: langford(12), lambda: langford(4), "iterate"),
    "langford12-mult-count": (lambda: langford(12, (3, 5)), None, "count"),
    "langford12-mult-iterate": (lambda: langford(12, (3, 5)), None, "iterate"),
    "sudoku17": (None, None, "sudoku"),
}

# Which programs take which workload (exact-cover: no secondary items, no colors, no
# multiplicities; the others: no multiplicities).
PROGRAMS = {
    "queens13-count": ["xcover_dlx", "pyxcc", "cli"],
    "queens13-iterate": ["xcover_dlx", "xcover", "pyxcc"],
    "tiles6x6-count": ["xcover_dlx", "cli"],
    "tiles6x6-iterate": ["xcover_dlx", "xcover", "pyxcc"],
    "langford12-count": ["xcover_dlx", "exact-cover", "pyxcc", "cli"],
    "langford12-iterate": ["xcover_dlx", "xcover", "exact-cover", "pyxcc"],
    "langford12-mult-count": ["xcover_dlx", "cli"],
    "langford12-mult-iterate": ["xcover_dlx"],
    "sudoku17": ["xcover_dlx", "xcover_dlx-each", "exact-cover", "py-sudoku"],
}

MODULE = {"xcover_dlx": "xcover_dlx", "xcover_dlx-each": "xcover_dlx", "xcover": "xcover",
          "pyxcc": "pyxcc", "exact-cover": "exact_cover", "py-sudoku": "sudoku"}


def knuth_text(options, primary, secondary, bounds):
    def item(x):
        if bounds and x in bounds:
            lo, hi = bounds[x]
            return f"{lo}:{hi}|{x}"
        return x
    head = " ".join(map(item, primary)) + (" | " + " ".join(secondary) if secondary else "")
    return "\n".join([head] + [" ".join(o) for o in options]) + "\n"


def matrix(options, primary):
    import numpy as np
    col = {x: k for k, x in enumerate(primary)}
    m = np.zeros((len(options), len(primary)), dtype=np.int32)
    for r, o in enumerate(options):
        m[r, [col[x] for x in o]] = 1
    return m


def pyxcc_problem(options, primary, secondary):
    import pyxcc
    sec = set(secondary)
    opts = []
    for j, o in enumerate(options):
        p = [x for x in o if x.split(":")[0] not in sec]
        s = [tuple(x.split(":")) if ":" in x else (x, "") for x in o if x.split(":")[0] in sec]
        opts.append(pyxcc.Option(str(j), p, s))
    return pyxcc.Problem(primary, secondary, opts)


# ---- one timed run ----

def one_exact_cover(name, program):
    build, small, work = WORKLOADS[name]
    options, primary, secondary, colored, bounds = build()
    if program == "xcover_dlx":
        import xcover_dlx
        t, c = time.perf_counter(), time.process_time()
        if work == "count":
            k = xcover_dlx.Problem(options, primary, secondary, colored, bounds=bounds).count()
        else:
            k = sum(1 for _ in xcover_dlx.covers(options, primary, secondary, colored, bounds=bounds))
    elif program == "xcover":
        import xcover
        o, p, s, c, _ = small()
        list(xcover.covers(o, primary=p, secondary=s or None, colored=c))  # the JIT's warm-up
        t, c = time.perf_counter(), time.process_time()
        k = sum(1 for _ in xcover.covers(options, primary=primary, secondary=secondary or None, colored=colored))
    elif program == "pyxcc":
        import pyxcc
        t, c = time.perf_counter(), time.process_time()
        solved = pyxcc.solve(pyxcc_problem(options, primary, secondary), True)
        k = solved.count() if work == "count" else sum(1 for _ in solved.all())
    elif program == "exact-cover":
        import exact_cover
        m = matrix(options, primary)
        t, c = time.perf_counter(), time.process_time()
        if work == "count":
            k = int(exact_cover.get_solution_count(m))
        else:
            k = len(exact_cover.get_all_solutions(m))
    else:
        raise SystemExit(f"unknown program {program}")
    return {"answer": k, "seconds": time.perf_counter() - t, "cpu": time.process_time() - c}


def puzzles():
    with open(SUDOKU17) as f:
        return f.read().split()


def one_sudoku(program):
    ps = puzzles()
    each, each_cpu = [], []
    if program == "xcover_dlx":
        from xcover_dlx import sudoku
        t, c = time.perf_counter(), time.process_time()
        grids = sudoku.solve(ps)
        total = time.perf_counter() - t
        return {"answer": grids, "seconds": total, "cpu": time.process_time() - c, "puzzles": len(ps)}
    if program == "xcover_dlx-each":
        from xcover_dlx import sudoku
        grids = []
        for p in ps:
            t, c = time.perf_counter(), time.process_time()
            grids.append(sudoku.solve(p))
            each.append(time.perf_counter() - t)
            each_cpu.append(time.process_time() - c)
    elif program == "py-sudoku":
        from sudoku import Sudoku
        ps = ps[:SAMPLE[program]]
        grids = []
        for p in ps:
            board = [[int(p[9 * r + c]) or None for c in range(9)] for r in range(9)]
            t, c = time.perf_counter(), time.process_time()
            solved = Sudoku(3, 3, board=board).solve()
            each.append(time.perf_counter() - t)
            each_cpu.append(time.process_time() - c)
            grids.append("".join(str(d) for row in solved.board for d in row))
    elif program == "exact-cover":
        import numpy as np
        import exact_cover
        ps = ps[:SAMPLE[program]]
        # Row 81*r + 9*c + d - 1 puts digit d in cell (r, c); columns: cell, row-digit,
        # column-digit, box-digit (the same matrix as xcover_dlx's Sudoku).
        rows = np.zeros((729, 324), dtype=np.int32)
        for r in range(9):
            for c in range(9):
                for d in range(9):
                    i = 81 * r + 9 * c + d
                    rows[i, [9 * r + c, 81 + 9 * r + d, 162 + 9 * c + d, 243 + 9 * (3 * (r // 3) + c // 3) + d]] = 1
        grids = []
        for p in ps:
            t, c = time.perf_counter(), time.process_time()
            clue = np.frombuffer(p.encode(), dtype=np.uint8) - 48
            keep = np.ones(729, dtype=bool)
            for cell in np.flatnonzero(clue):
                keep[81 * (cell // 9) + 9 * (cell % 9): 81 * (cell // 9) + 9 * (cell % 9) + 9] = False
                keep[81 * (cell // 9) + 9 * (cell % 9) + clue[cell] - 1] = True
            chosen = np.flatnonzero(keep)[exact_cover.get_exact_cover(rows[keep])]
            each.append(time.perf_counter() - t)
            each_cpu.append(time.process_time() - c)
            g = [0] * 81
            for i in chosen:
                g[i // 9] = i % 9 + 1
            grids.append("".join(map(str, g)))
    else:
        raise SystemExit(f"unknown program {program}")
    return {"answer": grids, "seconds": sum(each), "cpu": sum(each_cpu), "each": each, "puzzles": len(ps)}


# ---- the rounds ----

def pct(values, p):
    """The p-th percentile, nearest rank."""
    v = sorted(values)
    return v[max(0, -(-len(v) * p // 100) - 1)]


def run(rounds, cli, names):
    py = sys.executable
    pairs = []
    for name in names:
        for program in PROGRAMS[name]:
            if program == "cli":
                if not os.access(cli, os.X_OK):
                    print(f"skipped: {name} {program}: {cli} is not an executable", file=sys.stderr)
                    continue
            else:
                mod = MODULE[program]
                if subprocess.run([py, "-c", f"import {mod}"], capture_output=True).returncode:
                    print(f"skipped: {name} {program}: the package ({mod}) is not installed", file=sys.stderr)
                    continue
            pairs.append((name, program))
    wall = {pair: [] for pair in pairs}
    cpu = {pair: [] for pair in pairs}
    each = {pair: [] for pair in pairs}
    answers = {}
    dlx = {}
    for name in names:
        if WORKLOADS[name][0]:
            options, primary, secondary, _, bounds = WORKLOADS[name][0]()
            path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"xcover-bench-{name}.dlx")
            with open(path, "w") as f:
                f.write(knuth_text(options, primary, secondary, bounds))
            dlx[name] = path
    for round_ in range(rounds):
        print(f"round {round_ + 1} of {rounds}", file=sys.stderr, flush=True)
        for name, program in pairs:
            if program == "cli":
                with open(dlx[name]) as f:
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    t = time.perf_counter()
                    out = subprocess.run([cli, "dlx3", "m0"], stdin=f, capture_output=True, text=True)
                    dt = time.perf_counter() - t
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                dc = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                answer = int(out.stderr.split(" solutions")[0].split()[-1])
            else:
                out = subprocess.run([py, HERE, "one", name, program], capture_output=True, text=True)
                if out.returncode:
                    raise SystemExit(f"{name} {program} failed:\n{out.stderr}")
                r = json.loads(out.stdout.strip().splitlines()[-1])
                dt, dc, answer = r["seconds"], r["cpu"], r["answer"]
                each[(name, program)] += r.get("each", [])
                if WORKLOADS[name][2] == "sudoku":
                    dt, dc = dt / r["puzzles"], dc / r["puzzles"]
                    answer = answer[:r["puzzles"]]
            # Every program's answer agrees with the others' (a Sudoku sample with the
            # start of the others').
            seen = answers.setdefault(name, answer)
            if isinstance(answer, list):
                n = min(len(seen), len(answer))
                assert seen[:n] == answer[:n], (name, program)
                if len(answer) > len(seen):
                    answers[name] = answer
            else:
                assert seen == answer, (name, program, seen, answer)
            wall[(name, program)].append(dt)
            cpu[(name, program)].append(dc)
    table = []
    for name in names:
        base = [(statistics.mean(wall[(n, p)]), statistics.mean(cpu[(n, p)]))
                for n, p in pairs if n == name and p == "xcover_dlx"]
        for n, program in pairs:
            if n != name:
                continue
            v, c = wall[(n, program)], cpu[(n, program)]
            row = {"workload": n, "program": program, "runs": len(v), "answer": answers[n] if isinstance(answers[n], int) else None,
                   "mean": statistics.mean(v), "p90": pct(v, 90), "max": max(v),
                   "cpu_mean": statistics.mean(c), "cpu_p90": pct(c, 90), "cpu_max": max(c)}
            if each[(n, program)]:
                e = each[(n, program)]
                row.update({"puzzle_mean": statistics.mean(e), "puzzle_p90": pct(e, 90), "puzzle_max": max(e)})
            if base:
                row["ratio"] = row["mean"] / base[0][0]
                row["cpu_ratio"] = row["cpu_mean"] / base[0][1]
            table.append(row)
            unit = "s/puzzle" if WORKLOADS[n][2] == "sudoku" else "s"
            extra = ""
            if "puzzle_mean" in row:
                extra = (f"  each puzzle: mean {row['puzzle_mean'] * 1e6:.1f} us p90 {row['puzzle_p90'] * 1e6:.1f}"
                         f" max {row['puzzle_max'] * 1e6:.1f}")
            ratio = f"  x{row['ratio']:.2f} (cpu x{row['cpu_ratio']:.2f})" if "ratio" in row else ""
            print(f"{n:24} {program:16} wall mean {row['mean']:.6f} {unit} p90 {row['p90']:.6f} max {row['max']:.6f}"
                  f" | cpu mean {row['cpu_mean']:.6f} p90 {row['cpu_p90']:.6f} max {row['cpu_max']:.6f}"
                  f" | runs {len(v)}{ratio}{extra}", flush=True)
    print(json.dumps(table))


def main(argv):
    if len(argv) >= 3 and argv[0] == "one":
        name, program = argv[1], argv[2]
        if WORKLOADS[name][2] == "sudoku":
            print(json.dumps(one_sudoku(program)))
        else:
            print(json.dumps(one_exact_cover(name, program)))
    elif len(argv) >= 2 and argv[0] == "run":
        names = argv[3:] or list(WORKLOADS)
        for n in names:
            if n not in WORKLOADS:
                raise SystemExit(f"unknown workload {n}; the workloads: {', '.join(WORKLOADS)}")
        run(int(argv[1]), argv[2], names)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
