"""Turns the raw measurements of scripts/perf-report.sh into the markdown
tables of docs/src/performance.md (standard library only).

Usage: summarize.py RESULTS_DIR CRITERION_DIR > report.md
"""

import json
import os
import statistics
import sys

RESULTS, CRITERION = sys.argv[1], sys.argv[2]


def read(name):
    path = os.path.join(RESULTS, name)
    return open(path).read() if os.path.exists(path) else ""


def stats(xs):
    return min(xs), statistics.median(xs), max(xs)


def fmt_time(s):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s:.3g} s"


def mmm(xs, f=fmt_time):
    lo, med, hi = stats(xs)
    return f"{f(med)} ({f(lo)} – {f(hi)})"


out = []

# ------------------------------------------------------------------ machine
out.append("## Machine\n")
out.append("```\n" + read("machine.txt").strip() + "\n```\n")

# ------------------------------------------------------------------ offsets
CASES = ["gemm_k64", "gemm_k32_mlds2", "swizzle_333", "padded"]
VARIANTS = ["hand", "static", "runtime", "program", "batch", "columns", "move_k"]


def samples(case, variant):
    path = os.path.join(CRITERION, case, variant, "new", "sample.json")
    if not os.path.exists(path):
        return None
    s = json.load(open(path))
    return [t / i * 1e-9 for t, i in zip(s["times"], s["iters"])]


rows = []
for case in CASES:
    per = {v: samples(case, v) for v in VARIANTS}
    if not per["hand"]:
        continue
    h = stats(per["hand"])
    cells = [case, mmm(per["hand"])]
    for v in VARIANTS[1:]:
        if per[v]:
            lo, med, hi = stats(per[v])
            cells.append(f"{med / h[1]:.2f} ({lo / h[0]:.2f} – {hi / h[2]:.2f})")
        else:
            cells.append("–")
    rows.append(cells)
if rows:
    out.append("## Offsets: every coordinate of the tile\n")
    out.append("`hand`: time for all coordinates (each offset computed and stored), median (min – max) over "
               "criterion's samples. The other columns: ratio to `hand` of the medians (of the minima – of the maxima).\n")
    out.append("| case | hand | static | runtime | program | batch | columns | move along K |")
    out.append("|---|---|---|---|---|---|---|---|")
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out.append("")
    out.append("| case | variant | time: median (min – max) |")
    out.append("|---|---|---|")
    for case in CASES:
        for v in VARIANTS:
            xs = samples(case, v)
            if xs:
                out.append(f"| {case} | {v} | {mmm(xs)} |")
    out.append("")

# ------------------------------------------------------------------ instruction counts
ic = [l.split("\t") for l in read("icount.tsv").splitlines()[1:] if l]
if ic:
    out.append("## Instructions per offset (callgrind)\n")
    hand = {(b, c): int(n) for b, c, v, n in ic if v == "hand"}
    out.append("| build | case | variant | instructions per coordinate | ratio to hand |")
    out.append("|---|---|---|---|---|")
    out += [f"| {b} | {c} | {v} | {n} | {int(n) / hand[(b, c)]:.1f} |" if (b, c) in hand else f"| {b} | {c} | {v} | {n} | – |"
            for b, c, v, n in ic]
    out.append("")
ic = [l.split("\t") for l in read("icount-workloads.tsv").splitlines()[1:] if l]
if ic:
    out.append("| build | workload | instructions |")
    out.append("|---|---|---|")
    out += [f"| {b} | {w} | {int(n):,} |" for b, w, n in ic]
    out.append("")
    before = {w: int(n) for b, w, n in ic if b == "before"}
    after = {w: int(n) for b, w, n in ic if b == "after"}
    if before:
        out.append("| workload | instructions before / after |")
        out.append("|---|---|")
        out += [f"| {w} | {before[w] / after[w]:.2f}x |" for w in after if w in before and after[w]]
        out.append("")

# ------------------------------------------------------------------ throughput
lines = []
for name in ("timing.jsonl", "timing-baseline.jsonl", "python.jsonl"):
    for l in read(name).splitlines():
        if l.strip().startswith("{"):
            d = json.loads(l)
            d["build"] = "baseline" if "baseline" in name else ""
            lines.append(d)
if lines:
    out.append("## Analyzer throughput (one thread) and search time (every core with the parallel feature)\n")
    out.append("| tool | workload | time per call: median (min – max) | lane accesses / s (median) | result |")
    out.append("|---|---|---|---|---|")
    for d in lines:
        tool = d["tool"] if "(before)" in d["tool"] or not d["build"] else d["tool"] + " (before)"
        if "error" in d:
            out.append(f"| {tool} | – | – | – | {d['error']} |")
            continue
        runs = d["runs_s"]
        rate = f"{d['lane_accesses'] / statistics.median(runs):,.0f}" if d.get("lane_accesses") else "–"
        res = json.dumps(d.get("result", ""))
        if len(res) > 160:
            res = res[:157] + "..."
        out.append(f"| {tool} | {d['workload']} | {mmm(runs)} | {rate} | `{res}` |")
    out.append("")
    # Before/after ratios of the same workload measured in this run.
    base = {d["workload"]: d["runs_s"] for d in lines if d["build"] and "runs_s" in d}
    now = [d for d in lines if not d["build"] and d["tool"].startswith("cktile") and "runs_s" in d]
    pairs = [(d["workload"], base[d["workload"]], d["runs_s"]) for d in now if d["workload"] in base]
    if pairs:
        out.append("| workload | time before / after: min | median | max |")
        out.append("|---|---|---|---|")
        for w, b, a in pairs:
            (blo, bmed, bhi), (alo, amed, ahi) = stats(b), stats(a)
            out.append(f"| {w} | {blo / alo:.2f}x | {bmed / amed:.2f}x | {bhi / ahi:.2f}x |")
        out.append("")

# ------------------------------------------------------------------ compile cost
def fit(points):
    """Least-squares line through (n, seconds), and the exponent of the growth
    of the cost above the smallest n between the two largest n."""
    n = [float(x) for x, _ in points]
    t = [y for _, y in points]
    mn, mt = statistics.mean(n), statistics.mean(t)
    b = sum((x - mn) * (y - mt) for x, y in zip(n, t)) / sum((x - mn) ** 2 for x in n)
    return mt - b * mn, b


for names, title in ((("compile.tsv", "compile-growth.tsv"), "current"), (("compile-baseline.tsv",), "before")):
    rows = [l.split("\t") for name in names for l in read(name).splitlines()[1:] if l]
    if not rows:
        continue
    groups = {}
    for w, n, cmd, _, sec, rss in rows:
        groups.setdefault((w, int(n), cmd), []).append((float(sec), int(rss)))
    out.append(f"## Compile cost ({title})\n")
    out.append("| workload | N | command | seconds: median (min – max) | peak RSS MB: median (min – max) |")
    out.append("|---|---|---|---|---|")
    for (w, n, cmd), v in sorted(groups.items()):
        secs = [x for x, _ in v]
        rss = [r / 1024 for _, r in v]
        lo, med, hi = stats(secs)
        rlo, rmed, rhi = stats(rss)
        out.append(f"| {w} | {n} | {cmd} | {med:.2f} ({lo:.2f} – {hi:.2f}) | {rmed:.0f} ({rlo:.0f} – {rhi:.0f}) |")
    out.append("")
    for (w, cmd) in sorted({(w, cmd) for (w, _, cmd) in groups}):
        pts = sorted((n, statistics.median([x for x, _ in v])) for (ww, n, c), v in groups.items() if (ww, c) == (w, cmd))
        mem = sorted((n, statistics.median([r / 1024 for _, r in v])) for (ww, n, c), v in groups.items()
                     if (ww, c) == (w, cmd))
        if len(pts) >= 3:
            a, b = fit(pts)
            am, bm = fit(mem)
            out.append(f"- {w} / {cmd}: least-squares line {a:.2f} s + {b * 1000:.1f} ms per item, "
                       f"{am:.0f} MB + {bm:.2f} MB per item; cost per item between the two largest N: "
                       f"{(pts[-1][1] - pts[-2][1]) / (pts[-1][0] - pts[-2][0]) * 1000:.1f} ms, "
                       f"between the two smallest: {(pts[1][1] - pts[0][1]) / (pts[1][0] - pts[0][0]) * 1000:.1f} ms")
    out.append("")

print("\n".join(out))
