#!/usr/bin/env python3
"""Joins Nsight Compute's counters with cktile's sm90 predictions.

Subcommands (python3, standard library only):

  coverage CASES.json [--min N]
      Checks the case list `cktile gpu-cases --json` wrote: at least N cases
      (40), every layout family and every NVIDIA instruction it lists, the
      mma_sync_a pattern, conflicting and conflict-free cases, unique names,
      at most max_instructions per case. Exit 1 on any failure.

  synthesize CASES.json [--layout raw|details] [--perturb ID]
      Writes an Nsight Compute CSV whose counters are cktile's predictions,
      filed as an H100 files them (ld.shared and ldmatrix under op_ld,
      st.shared and stmatrix under op_st, cp.async's conflicts under
      op_ldgsts, its wavefronts only in the total; one op_misc wavefront
      per kernel), in ncu's "raw"
      layout (one row per kernel, --page raw) or its default "details" layout
      (one row per metric). --perturb ID adds one conflict to case ID, so a
      test can check that a disagreement is reported.

  sass SASS.txt [--slots 64]
      Checks the harness binary's SASS (`cuobjdump -sass harness`): every
      cktile_* kernel has exactly 64 shared-memory instructions (one per
      unrolled slot; a case runs the first N), all of its own kind, and no
      local-memory traffic.

  table CASES.json NCU.csv [--out FILE] [--require-agreement] [--source TEXT]
      Writes the markdown table: per case, measured vs predicted wavefronts
      and conflicts (= excess wavefronts), and whether they agree. Kernel
      launches are matched to cases in launch order (the harness launches
      one kernel per case, in case order; only cktile_* kernels are
      profiled), and each row's kernel name must be the case's kernel.
      --require-agreement: exit 1 unless every case agrees.

What is compared. Nsight Compute reports per-kernel sums. The harness runs
one case per kernel, so the sums are the case's totals. Wavefronts include
one per phase even without a conflict; l1tex__data_bank_conflicts_* counts
the wavefronts beyond that (the "excess"), which is what cktile predicts as
conflicts. A case agrees when measured wavefronts equal the predicted
wavefronts and the measured conflicts equal the predicted conflicts.

Measured wavefronts are the all-op total
(l1tex__data_pipe_lsu_wavefronts_mem_shared.sum) minus its op_misc part.
op_misc holds what the harness adds around the case on an H100: one
wavefront per instruction whose lanes are all predicated off (the address
loads of unused slots, the `@!PT LDS` padding ptxas puts beside LDGSTS)
and one per kernel; op_ld and op_st hold ld.shared/ldmatrix and
st.shared/stmatrix, and cp.async (LDGSTS) has no wavefront metric of its
own, so the total is the only counter that includes it. Measured conflicts
are l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum (op_ld + op_st +
op_ldgsts).
"""

import argparse
import csv
import io
import json
import sys

WAVEFRONTS_TOTAL = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
WAVEFRONTS_MISC = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_misc.sum"
CONFLICTS_TOTAL = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"
WAVEFRONTS_PREFIX = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_"
CONFLICTS_PREFIX = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"
REQUIRED = [WAVEFRONTS_TOTAL, WAVEFRONTS_MISC, CONFLICTS_TOTAL]


def fail(message):
    print("table.py: " + message, file=sys.stderr)
    sys.exit(1)


def load_cases(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if data.get("format") != "cktile-gpu-cases/2":
        fail(f"{path}: not a `cktile gpu-cases --json` file")
    return data


# ---------------------------------------------------------------- coverage ---


def coverage(args):
    data = load_cases(args.cases)
    cases = data["cases"]
    problems = []
    if len(cases) < args.min:
        problems.append(f"{len(cases)} cases; at least {args.min} are needed")
    families = {c["family"] for c in cases}
    for f in data["families"]:
        if f not in families:
            problems.append(f"no case for the layout family `{f}`")
    ops = {c["op"] for c in cases}
    for op in data["ops"]:
        if op not in ops:
            problems.append(f"no case for the instruction `{op}`")
    patterns = {c["pattern"] for c in cases}
    for p in data["patterns"]:
        if p not in patterns:
            problems.append(f"no case for the pattern `{p}`")
    names = [c["name"] for c in cases]
    if len(set(names)) != len(names):
        problems.append("case names are not unique")
    if [c["id"] for c in cases] != list(range(len(cases))):
        problems.append("case ids do not count up from 0")
    conflicting = sum(1 for c in cases if c["predicted"]["conflicts"] > 0)
    if conflicting == 0 or conflicting == len(cases):
        problems.append("the cases must mix conflicting and conflict-free layouts")
    for c in cases:
        if c["instructions"] > data["max_instructions"] or c["instructions"] != len(c["addresses"]):
            problems.append(f"case {c['id']}: bad instruction count")
        p = c["predicted"]
        if p["wavefronts"] - p["ideal_wavefronts"] != p["conflicts"]:
            problems.append(f"case {c['id']}: conflicts are not wavefronts - ideal")
        if sum(i["wavefronts"] for i in c["per_instruction"]) != p["wavefronts"]:
            problems.append(f"case {c['id']}: per-instruction wavefronts do not add up")
    if problems:
        for p in problems:
            print("coverage: " + p, file=sys.stderr)
        sys.exit(1)
    conflicting_ops = sorted({c["op"] for c in cases if c["predicted"]["conflicts"] > 0})
    print(
        f"coverage: {len(cases)} cases, {len(families)} layout families, {len(ops)} instructions, "
        f"{len(patterns)} patterns; {conflicting} cases predicted to conflict "
        f"(on {len(conflicting_ops)} instructions)"
    )


# -------------------------------------------------------------- synthesize ---


def synthetic_metrics(case, perturb):
    p = case["predicted"]
    extra = 1 if perturb else 0
    wavefronts, conflicts = p["wavefronts"] + extra, p["conflicts"] + extra
    op = case["op"]
    cls = "ldgsts" if op.startswith("cp.async") else "ld" if case["is_load"] else "st"
    out = {}
    for c in ("ld", "st"):
        out[WAVEFRONTS_PREFIX + c + ".sum"] = wavefronts if c == cls else 0
    for c in ("ld", "st", "ldgsts"):
        out[CONFLICTS_PREFIX + c + ".sum"] = conflicts if c == cls else 0
    out[WAVEFRONTS_MISC] = 1
    out[WAVEFRONTS_TOTAL] = wavefronts + 1
    out[CONFLICTS_TOTAL] = conflicts
    return out


def synthesize(args):
    data = load_cases(args.cases)
    out = io.StringIO()
    w = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    out.write("==PROF== Connected to process 4242 (synthetic: counters = cktile's predictions)\n")
    rows = [(c, synthetic_metrics(c, c["id"] == args.perturb)) for c in data["cases"]]
    names = list(rows[0][1].keys()) if rows else []
    head = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
            "Grid Size", "Device", "CC"]
    common = lambda i, c: [str(i), "4242", "harness", "localhost", c["kernel"], "1", "7", "(32, 1, 1)",
                           "(1, 1, 1)", "0", "9.0"]
    if args.layout == "raw":
        w.writerow(head + names)
        w.writerow([""] * len(head) + [""] * len(names))  # ncu's units row
        for i, (c, m) in enumerate(rows):
            # ncu prints large counts with thousands separators; the reader must cope.
            w.writerow(common(i, c) + [f"{m[n]:,}" for n in names])
    else:
        w.writerow(head + ["Section Name", "Metric Name", "Metric Unit", "Metric Value"])
        for i, (c, m) in enumerate(rows):
            for n in names:
                w.writerow(common(i, c) + ["Command line profiler metrics", n, "", f"{m[n]:,}"])
    sys.stdout.write(out.getvalue())


# -------------------------------------------------------------------- sass ---

# The SASS each harness kernel must contain 64 of (one per unrolled slot),
# and nothing else that touches shared memory: a mnemonic, or for cp.async
# (LDGSTS, whose cache-policy suffixes vary) a pattern.
SASS_OF_KERNEL = {
    "ld_shared_b8": "LDS.U8", "ld_shared_b16": "LDS.U16", "ld_shared_b32": "LDS", "ld_shared_b64": "LDS.64",
    "ld_shared_b128": "LDS.128", "st_shared_b8": "STS.U8", "st_shared_b16": "STS.U16", "st_shared_b32": "STS",
    "st_shared_b64": "STS.64", "st_shared_b128": "STS.128",
    "ldmatrix_x1": "LDSM.16.M88", "ldmatrix_x2": "LDSM.16.M88.2", "ldmatrix_x4": "LDSM.16.M88.4",
    "ldmatrix_x1_trans": "LDSM.16.MT88", "ldmatrix_x2_trans": "LDSM.16.MT88.2", "ldmatrix_x4_trans": "LDSM.16.MT88.4",
    "stmatrix_x1": "STSM.16.M88", "stmatrix_x2": "STSM.16.M88.2", "stmatrix_x4": "STSM.16.M88.4",
    "stmatrix_x1_trans": "STSM.16.MT88", "stmatrix_x2_trans": "STSM.16.MT88.2", "stmatrix_x4_trans": "STSM.16.MT88.4",
    "cp_async_b32": r"LDGSTS\.E(\.(?!64$|128$)\w+)*", "cp_async_b64": r"LDGSTS\.E(\.\w+)*\.64",
    "cp_async_b128": r"LDGSTS\.E(\.\w+)*\.128",
}
SHARED_OPS = ("LDS", "STS", "LDSM", "STSM", "ATOMS", "LDGSTS", "LD.", "ST.", "ATOM.")
LOCAL_OPS = ("LDL", "STL")


def sass(args):
    """Checks `cuobjdump -sass` (or `nvdisasm`) output of the harness."""
    import re
    with open(args.sass, encoding="utf-8", errors="replace") as f:
        text = f.read()
    kernels, current = {}, None
    for line in text.splitlines():
        m = re.match(r"\s*Function\s*:\s*(cktile_\w+)", line) or re.match(r"\s*\.text\.(cktile_\w+):", line)
        if m:
            current = kernels.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s*/\*[0-9a-f]+\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
        # `@!PT` never executes: ptxas pads LDGSTS with `@!PT LDS RZ, [RZ]`.
        if m and current is not None and (m.group(1) or "").strip() != "@!PT":
            current.append(m.group(2))
    problems = []
    for short, expected in SASS_OF_KERNEL.items():
        name = "cktile_" + short
        ops = kernels.get(name)
        if ops is None:
            problems.append(f"{name}: not in the SASS")
            continue
        shared = [o for o in ops if o.startswith(SHARED_OPS)]
        local = [o for o in ops if o.startswith(LOCAL_OPS)]
        own = (lambda o: re.fullmatch(expected, o)) if "\\" in expected else (lambda o: o == expected)
        if len(shared) != args.slots or not all(own(o) for o in shared):
            counts = {o: shared.count(o) for o in sorted(set(shared))}
            problems.append(f"{name}: shared-memory instructions {counts}, expected {args.slots} x {expected} only")
        if local:
            problems.append(f"{name}: local-memory instructions (spills) {sorted(set(local))}")
    if problems:
        for p in problems:
            print("sass: " + p, file=sys.stderr)
        sys.exit(1)
    print(f"sass: {len(SASS_OF_KERNEL)} kernels, each with exactly {args.slots} shared-memory instructions "
          "of its own kind and no local memory")


# ------------------------------------------------------------------- table ---


def number(text):
    text = text.strip().replace(",", "")
    if text in ("", "n/a"):
        return None
    try:
        return int(text)
    except ValueError:
        return int(round(float(text)))


def read_ncu(path):
    """Launch ID -> (kernel name, {metric: value}), from either CSV layout."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        fail(f"{path}: no CSV header (a line starting with \"ID\") in the ncu output")
    rows = list(csv.reader(l for l in lines[start:] if l.startswith('"')))
    head = rows[0]
    col = {name: i for i, name in enumerate(head)}
    for need in ("ID", "Kernel Name"):
        if need not in col:
            fail(f"{path}: no `{need}` column")
    launches = {}
    if "Metric Name" in col and "Metric Value" in col:
        for r in rows[1:]:
            launch = launches.setdefault(int(r[col["ID"]]), (r[col["Kernel Name"]], {}))
            launch[1][r[col["Metric Name"]]] = number(r[col["Metric Value"]])
    else:
        metric_cols = [(i, n) for i, n in enumerate(head) if "__" in n]
        for r in rows[1:]:
            if not r[col["ID"]].strip().isdigit():
                continue  # the units row
            launches[int(r[col["ID"]])] = (r[col["Kernel Name"]], {n: number(r[i]) for i, n in metric_cols})
    return launches


def measured(metrics):
    """(wavefronts, conflicts, misc) of one launch (see the module doc)."""
    total, misc, conflicts = (metrics.get(n) for n in REQUIRED)
    wavefronts = None if total is None or misc is None else total - misc
    return wavefronts, conflicts, misc


def table(args):
    data = load_cases(args.cases)
    cases = data["cases"]
    launches = read_ncu(args.ncu)
    ids = sorted(launches)
    if len(ids) != len(cases):
        fail(f"{args.ncu}: {len(ids)} profiled kernel launches, but {len(cases)} cases (the join is by launch order)")
    missing = [m for m in REQUIRED if all(m not in launches[i][1] for i in ids)]
    if missing:
        fail(f"{args.ncu}: the required metrics {', '.join(missing)} were not collected")
    rows, disagree = [], []
    for case, launch_id in zip(cases, ids):
        kernel, metrics = launches[launch_id]
        if case["kernel"] not in kernel:
            fail(f"launch {launch_id} ran `{kernel}`, but case {case['id']} needs `{case['kernel']}`")
        wf, bc, misc = measured(metrics)
        p = case["predicted"]
        excess = None if wf is None else wf - p["ideal_wavefronts"]
        agree = wf == p["wavefronts"] and bc == p["conflicts"]
        if not agree:
            disagree.append(case)
        rows.append((case, wf, bc, excess, misc, agree))
    out = io.StringIO()
    out.write("# Shared-memory bank conflicts: Nsight Compute vs cktile's sm90 model\n\n")
    out.write(f"Source: {args.source or args.ncu}. Cases: `cktile gpu-cases` ({len(cases)} cases, one warp and "
              "one kernel each; see gpu/README.md). Generated by `gpu/table.py`.\n\n")
    out.write(f"**{len(cases) - len(disagree)} of {len(cases)} cases agree** (measured wavefronts and conflicts "
              "equal to the predicted ones).\n\n")
    out.write("Wavefronts = `l1tex__data_pipe_lsu_wavefronts_mem_shared.sum` minus its `op_misc` part "
              "(the harness's own: one per instruction with every lane predicated off, one per kernel; "
              "shown as \"misc\"); conflicts = `l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum` = "
              "wavefronts beyond one per phase. \"Excess\" is measured wavefronts minus cktile's ideal "
              "(one per phase with an active lane): a second view of the conflicts that does not rely on "
              "the conflict counter. cp.async copies from a row-major global tile of the same shape "
              "(see gpu/README.md), and its prediction is `count_copy`'s. "
              f"Counters read: {', '.join(REQUIRED)}.\n\n")
    out.write("| # | case | family | instruction | instr. | wavefronts predicted | wavefronts measured "
              "| conflicts predicted | conflicts measured | excess measured | misc | agree |\n")
    out.write("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    show = lambda v: "n/a" if v is None else str(v)
    for case, wf, bc, excess, misc, agree in rows:
        p = case["predicted"]
        out.write(f"| {case['id']} | `{case['name']}` | {case['family']} | `{case['op']}` | {case['instructions']} "
                  f"| {p['wavefronts']} | {show(wf)} | {p['conflicts']} | {show(bc)} | {show(excess)} "
                  f"| {show(misc)} | {'yes' if agree else '**no**'} |\n")
    if disagree:
        out.write("\nDisagreements: " + ", ".join(f"{c['id']} (`{c['name']}`)" for c in disagree) + ".\n")
    text = out.getvalue()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print(f"table: {len(cases) - len(disagree)} of {len(cases)} cases agree", file=sys.stderr)
    if args.require_agreement and disagree:
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("coverage")
    c.add_argument("cases")
    c.add_argument("--min", type=int, default=40)
    s = sub.add_parser("synthesize")
    s.add_argument("cases")
    s.add_argument("--layout", choices=["raw", "details"], default="raw")
    s.add_argument("--perturb", type=int, default=-1)
    t = sub.add_parser("table")
    t.add_argument("cases")
    t.add_argument("ncu")
    t.add_argument("--out")
    t.add_argument("--require-agreement", action="store_true")
    t.add_argument("--source")
    k = sub.add_parser("sass")
    k.add_argument("sass")
    k.add_argument("--slots", type=int, default=64)
    args = parser.parse_args()
    {"coverage": coverage, "synthesize": synthesize, "table": table, "sass": sass}[args.command](args)


if __name__ == "__main__":
    main()
