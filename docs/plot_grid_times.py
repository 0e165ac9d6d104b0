#!/usr/bin/env python3
"""Draws docs/grid-times.svg: the per-grid time of a whole-grid 16-clue scan (UA
generation included, one thread) before and after, from a file of lines
`i grid before_s after_s before_nodes after_nodes | ...` (docs/data/grid_times_*.txt,
written by running the two builds' grid_median on each grid in turn). Standard library
only: python3 docs/plot_grid_times.py DATA > docs/grid-times.svg"""
import math
import sys

rows = []
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) >= 6:
        rows.append((float(p[2]), float(p[3])))
edges = [0, 1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 100, math.inf]
labels = ["<1", "1-2", "2-3", "3-5", "5-7", "7-10", "10-15", "15-20", "20-30", "30-50", "50-100", "100+"]


def counts(values):
    out = [0] * (len(edges) - 1)
    for v in values:
        for k in range(len(out)):
            if edges[k] <= v < edges[k + 1]:
                out[k] += 1
    return out


before = counts(r[0] for r in rows)
after = counts(r[1] for r in rows)
W, H, left, bottom, top = 760, 360, 60, 60, 50
plot_w, plot_h = W - left - 20, H - bottom - top
peak = max(before + after)
slot = plot_w / len(before)
bar = slot * 0.38
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>']
mean_b = sum(r[0] for r in rows) / len(rows)
mean_a = sum(r[1] for r in rows) / len(rows)
svg.append(f'<text x="{left}" y="20" font-size="14">Whole-grid 16-clue scan, {len(rows)} random grids, seconds per grid (UA generation included, one thread)</text>')
svg.append(f'<text x="{left}" y="38">grey: before (mean {mean_b:.2f} s), blue: after (mean {mean_a:.2f} s); the same grids, the two builds in turn on each</text>')
for k in range(len(before)):
    x = left + k * slot
    for j, (n, colour) in enumerate(((before[k], "#999"), (after[k], "#36c"))):
        h = plot_h * n / peak
        svg.append(f'<rect x="{x + slot * 0.1 + j * bar:.1f}" y="{top + plot_h - h:.1f}" width="{bar:.1f}" height="{h:.1f}" fill="{colour}"/>')
        if n:
            svg.append(f'<text x="{x + slot * 0.1 + j * bar + bar / 2:.1f}" y="{top + plot_h - h - 3:.1f}" text-anchor="middle" font-size="10">{n}</text>')
    svg.append(f'<text x="{x + slot / 2:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{labels[k]}</text>')
svg.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="black"/>')
svg.append(f'<text x="{left + plot_w / 2}" y="{H - 15}" text-anchor="middle">seconds per grid (bars: number of grids)</text>')
svg.append('</svg>')
print("\n".join(svg))
