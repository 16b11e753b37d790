#!/usr/bin/env python3
"""CK's GEMM data path on an NVIDIA GPU: checks, runs and
times the proof kernels' PTX (perf/kernels/src/entry.rs), typed and twin.

Subcommands (DIR is the folder gpu/gemm.sh writes, default target/gpu-gemm):

  shapes             the `CONFIG M N K STRIDE` lines examples/gemm_args.rs
                     reads (every check shape, the refused one and the timing
                     shape, for every configuration)
  check DIR          without a GPU: the PTX (sm_90, PTX ISA <= 9.0, all 21
                     proof kernels and their 21 probes as .visible .entry, no
                     .extern, no local memory, no call in any of them), the
                     policy numbers gemm_args printed equal this reference's,
                     and every shape's descriptor arguments present (the
                     refused one refused, naming K and the vector length)
  probe              exit 0 when CuPy sees a CUDA device
  run DIR            on the GPU (--module ptx: the driver compiles the PTX;
                     cubin: ptxas's): every form of every configuration on
                     every check shape, twice: the probe kernel's registers
                     (every operand register of every K step, per thread)
                     and the proof kernel's accumulators, each against this
                     file's reference (CK's MFMA lane map over the operands,
                     in numpy) and against each other; outputs poisoned and
                     guarded; the refused shape leaves the output untouched;
                     writes DIR/results-MODULE.md, exits 1 on any difference
  time DIR           times every proof kernel on the timing shape with CUDA
                     events (median of --repeat launches after --warmup),
                     after --warm-seconds of untimed launches (the clocks
                     ramp up from idle); checks every typed kernel's
                     accumulators equal its twin's there, writes DIR/events.txt (--events: another
                     file; under ncu, the launches ncu profiles)
  report DIR         joins DIR/events.txt, DIR/ncu.csv (Nsight Compute),
                     DIR/gemm.sass and DIR/ptxas.log into DIR/timing.md:
                     per kernel and its twin, time, SASS instructions,
                     registers, executed instructions, bank conflicts

Standard library only, except `run`, `time` and `probe`, which import CuPy
and numpy when called.
"""

import argparse
import csv
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel as gpu_kernel  # noqa: E402  (gpu/kernel.py: the PTX and SASS readers)

# The three proof configurations, as CK's universal GEMM policy defines them
# (the reference's own numbers; `check` holds the library's equal to them):
# threads, the block tile (M, N, K), the warps along M and N, the MFMA's
# M (= N) and K. 32x32 MFMAs: a lane holds WK * WM / 64 values of a row.
CONFIGS = {
    "k16": dict(block=256, m=128, n=128, k=32, mw=2, nw=2, wm=32, wk=16),
    "k8": dict(block=256, m=128, n=128, k=32, mw=2, nw=2, wm=32, wk=8),
    "64": dict(block=128, m=64, n=64, k=32, mw=2, nw=1, wm=32, wk=16),
}
for _c in CONFIGS.values():
    _c["kl"] = _c["wk"] * _c["wm"] // 64
    _c["mi"] = _c["m"] // (_c["mw"] * _c["wm"])
    _c["ni"] = _c["n"] // (_c["nw"] * _c["wm"])
    _c["k_iters"] = _c["k"] // _c["wk"]

# Each configuration's forms: (form, typed or twin, argument kind). The
# kernel is `typed_kernel_CONFIG_FORM` / `hand_kernel_CONFIG_FORM`, its probe
# `probe_typed_CONFIG_FORM` / `probe_hand_CONFIG_FORM`.
FORMS = [
    ("host", "typed", "host"),
    ("host", "hand", "u64"),
    ("u32", "typed", "u32"),
    ("u32", "hand", "u32"),
    ("unwrap", "typed", "u32"),
    ("u64", "typed", "u64"),
    ("u64", "hand", "u64"),
]
# The twin each typed form is timed against (icount.py's TWINS).
TWIN_FORM = {"host": "host", "u32": "u32", "unwrap": "u32", "u64": "u64"}
# The K steps a probe records (entry.rs's PROBE_STEPS).
PROBE_STEPS = 16
# (M, N, K, stride, extra N tiles): an exact tile, shapes padding M, N and K,
# more blocks than SMs' worth of one, and an N tile wholly past N.
CHECK_SHAPES = [
    (128, 128, 32, 32, 0),
    (200, 130, 72, 80, 1),
    (257, 256, 40, 48, 0),
    (64, 190, 128, 136, 0),
    (1000, 700, 96, 104, 0),
]
# K = 36 is not a multiple of the 8-element loads: refused by the host
# builder, by the in-kernel builders and by the checked twin.
REFUSED = (10, 10, 36, 40)
TIMING = (4096, 4096, 4096, 4096)
POISON = 0xBEEF
GUARD = 1024


def fail(message):
    print("gpu/gemm.py: " + message, file=sys.stderr)
    sys.exit(1)


def kernel_name(config, form, side, probe=False):
    return f"probe_{side}_{config}_{form}" if probe else f"{side}_kernel_{config}_{form}"


def all_kernels():
    return [kernel_name(c, f, s, p) for c in CONFIGS for f, s, _ in FORMS for p in (False, True)]


def grid(config, m, n, extra=0):
    c = CONFIGS[config]
    n_blocks = -(-n // c["n"]) + extra
    return -(-m // c["m"]) * n_blocks, n_blocks


def steps(config, k):
    c = CONFIGS[config]
    return -(-k // c["k"]) * c["k_iters"]


# ---------------------------------------------------------------- shapes ---


def shapes(_args):
    for config in CONFIGS:
        for m, n, k, stride, _ in CHECK_SHAPES:
            print(config, m, n, k, stride)
        print(config, *REFUSED)
        print(config, *TIMING)


def load_args(folder):
    """gemm_args's output: (policies, {(config, m, n, k, stride): slots or refusal})."""
    path = os.path.join(folder, "args.txt")
    policies, args = {}, {}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        fail(f"{path}: {e}")
    for number, line in enumerate(lines, 1):
        fields = line.split()
        try:
            if fields[0] == "policy":
                policies[fields[1]] = [int(x) for x in fields[2:]]
            elif fields[0] == "args":
                key = (fields[1], *map(int, fields[2:6]))
                slots = [int(x) for x in fields[7:23]], [int(x) for x in fields[24:40]]
                if fields[6] != "A" or fields[23] != "B" or len(fields) != 40:
                    raise ValueError
                args[key] = slots
            elif fields[0] == "refused":
                head, message = line.split(":", 1)
                f = head.split()
                args[(f[1], *map(int, f[2:6]))] = message.strip()
            else:
                raise ValueError
        except (ValueError, IndexError):
            fail(f"{path}:{number}: not a line of examples/gemm_args.rs: {line!r}")
    return policies, args


# ----------------------------------------------------------------- check ---


def check(args):
    folder = args.dir
    ptx_path = os.path.join(folder, "gemm.ptx")
    try:
        with open(ptx_path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        fail(f"{ptx_path}: {e}")
    isa, problems = gpu_kernel.module_problems(text, dynamic_shared=True)
    functions = gpu_kernel.ptx_functions(text)
    for name in all_kernels():
        f = functions.get(name)
        if f is None or f["kind"] != "entry":
            problems.append(f"{name}: not a .entry of the module")
        elif f["local"] or f["calls"]:
            problems.append(f"{name}: {f['local']} bytes of local memory, calls {sorted(f['calls'])}")
    policies, shape_args = load_args(folder)
    for config, c in CONFIGS.items():
        want = [c[x] for x in ("block", "m", "n", "k", "mw", "nw", "wm", "wk", "mi", "ni", "k_iters")]
        if policies.get(config) != want:
            problems.append(f"policy {config}: the library says {policies.get(config)}, the reference {want}")
        for m, n, k, stride, _ in CHECK_SHAPES + [(*TIMING, 0)]:
            if not isinstance(shape_args.get((config, m, n, k, stride)), tuple):
                problems.append(f"{config} {m}x{n}x{k} stride {stride}: no descriptor arguments")
        refusal = shape_args.get((config, *REFUSED))
        if not isinstance(refusal, str) or "36" not in refusal or " 8" not in refusal:
            problems.append(f"{config} {REFUSED}: the host builder should refuse K = 36, naming 36 and 8: {refusal!r}")
    for p in problems:
        print("check: " + p, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check: gemm.ptx: PTX ISA {isa[0]}.{isa[1]}, sm_90, {len(all_kernels())} entries, no local memory, "
          f"no call; {len(shape_args)} shapes' arguments, the policies equal the reference's")


# ------------------------------------------------------------- reference ---


def reference(np, config, shape, a, b):
    """(registers, accumulators) every thread of the grid should write, from
    CK's 32x32 MFMA lane map: lane l of a warp tile holds rows l % 32 of its
    warp tile and, of each K step of WK columns, the KL columns from
    KL * (l // 32); a row or column outside the matrix reads 0. The warp is
    the thread's 64-lane wave (entry.rs partitions nvptx threads so too).
    registers: [threads, PROBE_STEPS, MI + NI, 8], POISON past the K loop;
    accumulators: [threads, MI * NI, 8], sum over the steps of A x B."""
    c = CONFIGS[config]
    m, n, k, stride, extra = shape
    blocks, n_blocks = grid(config, m, n, extra)
    g = np.arange(blocks * c["block"])
    block, t = g // c["block"], g % c["block"]
    m0, n0 = (block // n_blocks) * c["m"], (block % n_blocks) * c["n"]
    warp, lane = t // 64, t % 64
    s = np.arange(PROBE_STEPS)
    col = ((s // c["k_iters"]) * c["k"] + (s % c["k_iters"]) * c["wk"])[None, :, None] \
        + (c["kl"] * (lane // c["wm"]))[:, None, None] + np.arange(8)[None, None, :]
    in_lane = (np.arange(8) < c["kl"])[None, None, :]

    def operand(data, rows, first_row, tiles, spacing):
        padded = np.concatenate([data, np.zeros(1, dtype=np.uint16)])
        out = []
        for i in range(tiles):
            row = (first_row + i * spacing + lane % c["wm"])[:, None, None]
            ok = (row < rows) & (col < k) & in_lane
            out.append(np.where(ok, padded[np.where(ok, row * stride + col, len(data))], 0).astype(np.uint16))
        return out

    a_rows = m0 + (warp // c["nw"]) * c["wm"]
    b_rows = n0 + (warp % c["nw"]) * c["wm"]
    slots = operand(a, m, a_rows, c["mi"], c["mw"] * c["wm"]) + operand(b, n, b_rows, c["ni"], c["nw"] * c["wm"])
    regs = np.stack(slots, axis=2)  # [threads, steps, slots, 8]
    ran = steps(config, k)
    acc = np.zeros((len(g), c["mi"] * c["ni"], 8), dtype=np.uint64)
    for i in range(c["mi"]):
        for j in range(c["ni"]):
            prod = regs[:, :ran, i, :].astype(np.uint64) * regs[:, :ran, c["mi"] + j, :].astype(np.uint64)
            acc[:, i * c["ni"] + j, :] = prod.sum(axis=1) % 65536
    regs[:, ran:, :, :] = POISON
    return regs.reshape(-1), acc.astype(np.uint16).reshape(-1)


# ------------------------------------------------------------------- run ---


class Launcher:
    """Loads the module and launches a kernel of it on one shape."""

    def __init__(self, cp, np, folder, module, shape_args):
        self.cp, self.np, self.args = cp, np, shape_args
        path = os.path.join(folder, "gemm.ptx" if module == "ptx" else "gemm.cubin")
        self.module = cp.RawModule(path=path)

    def launch(self, config, form, side, kind, shape, a, b, out, probe=False):
        cp, np = self.cp, self.np
        c = CONFIGS[config]
        m, n, k, stride, extra = shape
        blocks, n_blocks = grid(config, m, n, extra)
        if kind == "host":
            slots = self.args[(config, m, n, k, stride)]
            a_arg, b_arg = (cp.asarray(np.array(s, dtype=np.uint64)) for s in slots)
            params = (a_arg, b_arg, a, np.uint64(a.size), b, np.uint64(b.size), np.uint32(n_blocks), out)
        else:
            t = np.uint32 if kind == "u32" else np.uint64
            params = (a, b, t(m), t(n), t(k), t(stride), np.uint32(n_blocks), out)
        f = self.module.get_function(kernel_name(config, form, side, probe))
        f((blocks,), (c["block"],), params, shared_mem=(c["m"] + c["n"]) * c["k"] * 2)


def compare(np, got, want):
    """(unwritten, wrong, written past the end, first difference) of an output against its expectation."""
    body, guard = got[: len(want)], got[len(want):]
    diff = np.nonzero(body != want)[0]
    unwritten = int(np.count_nonzero(body[diff] == POISON))
    first = None if len(diff) == 0 else (int(diff[0]), int(body[diff[0]]), int(want[diff[0]]))
    return unwritten, len(diff) - unwritten, int(np.count_nonzero(guard != POISON)), first


def run(args):
    import cupy as cp
    import numpy as np

    folder, module = args.dir, args.module
    _, shape_args = load_args(folder)
    launcher = Launcher(cp, np, folder, module, shape_args)
    rng = np.random.default_rng(args.seed)
    lines, bad, values = [], 0, 0
    for config, c in CONFIGS.items():
        for shape in CHECK_SHAPES:
            m, n, k, stride, extra = shape
            a = rng.integers(1, 65536, m * stride, dtype=np.uint16)
            b = rng.integers(1, 65536, n * stride, dtype=np.uint16)
            want_regs, want_acc = reference(np, config, shape, a, b)
            da, db = cp.asarray(a), cp.asarray(b)
            outputs = {}
            for form, side, kind in FORMS:
                for probe_kernel, want in ((True, want_regs), (False, want_acc)):
                    out = cp.full(len(want) + GUARD, POISON, dtype=cp.uint16)
                    launcher.launch(config, form, side, kind, shape, da, db, out, probe_kernel)
                    cp.cuda.runtime.deviceSynchronize()
                    got = cp.asnumpy(out)
                    outputs[(side, form, probe_kernel)] = got
                    unwritten, wrong, past, first = compare(np, got, want)
                    what = "registers" if probe_kernel else "accumulators"
                    name = kernel_name(config, form, side, probe_kernel)
                    ok = not (unwritten or wrong or past)
                    bad += not ok
                    values += len(want)
                    verdict = f"{len(want)}/{len(want)} {what} match" if ok else \
                        f"{wrong} wrong, {unwritten} unwritten, {past} written past the end, first {first}"
                    lines.append(f"{module:5} {config:3} {m}x{n}x{k}/{stride} {name:24} {verdict}")
                    print(lines[-1], flush=True)
            for (side, form, probe_kernel), got in outputs.items():
                if got.tobytes() != outputs[("hand", "host", probe_kernel)].tobytes():
                    bad += 1
                    lines.append(f"{module:5} {config:3} {m}x{n}x{k}/{stride} {side} {form}: differs from hand host")
                    print(lines[-1], flush=True)
        # The refused shape: the validating forms write nothing.
        m, n, k, stride = REFUSED
        shape = (*REFUSED, 0)
        a = cp.asarray(rng.integers(1, 65536, m * stride, dtype=np.uint16))
        for form, side, kind in [("u32", "typed", "u32"), ("u64", "typed", "u64"), ("u64", "hand", "u64")]:
            for probe_kernel in (False, True):
                out = cp.full(4096, POISON, dtype=cp.uint16)
                launcher.launch(config, form, side, kind, shape, a, a, out, probe_kernel)
                cp.cuda.runtime.deviceSynchronize()
                written = int(cp.count_nonzero(out != POISON))
                bad += written != 0
                name = kernel_name(config, form, side, probe_kernel)
                lines.append(f"{module:5} {config:3} {m}x{n}x{k}/{stride} {name:24} refused: "
                             + ("nothing written" if written == 0 else f"{written} values written"))
                print(lines[-1], flush=True)
    summary = (f"run: {module}: {values} values checked against the reference in "
               f"{len(CONFIGS) * len(CHECK_SHAPES) * len(FORMS) * 2} launches, the refused shape in "
               f"{len(CONFIGS) * 6}; " + ("every one matched" if bad == 0 else f"{bad} launches differ"))
    print(summary)
    with open(os.path.join(folder, f"results-{module}.md"), "w", encoding="utf-8") as f:
        f.write(f"seed {args.seed}\n\n```text\n" + "\n".join(lines) + "\n" + summary + "\n```\n")
    sys.exit(1 if bad else 0)


# ------------------------------------------------------------------ time ---


def time_kernels(args):
    import cupy as cp
    import numpy as np

    folder = args.dir
    _, shape_args = load_args(folder)
    launcher = Launcher(cp, np, folder, "ptx", shape_args)
    rng = np.random.default_rng(args.seed)
    m, n, k, stride = TIMING
    shape = (*TIMING, 0)
    a = cp.asarray(rng.integers(1, 65536, m * stride, dtype=np.uint16))
    b = cp.asarray(rng.integers(1, 65536, n * stride, dtype=np.uint16))
    lines, bad = [], 0
    # The clocks ramp up from idle: run the first kernel for a while before
    # timing anything (run 2 on the H200 timed its first kernel 14 % slower
    # by events than Nsight Compute did, with 3 warm-up launches alone).
    c = CONFIGS["k16"]
    out = cp.empty(grid("k16", m, n)[0] * c["block"] * c["mi"] * c["ni"] * 8, dtype=cp.uint16)
    until = time.monotonic() + args.warm_seconds
    while time.monotonic() < until:
        launcher.launch("k16", "host", "typed", "host", shape, a, b, out)
        cp.cuda.runtime.deviceSynchronize()
    for config, c in CONFIGS.items():
        blocks, _ = grid(config, m, n)
        results = {}
        for form, side, kind in FORMS:
            out = cp.full(blocks * c["block"] * c["mi"] * c["ni"] * 8, POISON, dtype=cp.uint16)
            times = []
            for i in range(args.warmup + args.repeat):
                start, stop = cp.cuda.Event(), cp.cuda.Event()
                start.record()
                launcher.launch(config, form, side, kind, shape, a, b, out)
                stop.record()
                stop.synchronize()
                if i >= args.warmup:
                    times.append(cp.cuda.get_elapsed_time(start, stop) * 1000)
            results[(side, form)] = cp.asnumpy(out)
            median = sorted(times)[len(times) // 2]
            lines.append(f"{kernel_name(config, form, side)} {median:.2f} {min(times):.2f} {max(times):.2f}")
            print(lines[-1], flush=True)
        for form, twin in TWIN_FORM.items():
            same = results[("typed", form)].tobytes() == results[("hand", twin)].tobytes()
            bad += not same
            print(f"time: {config} {form}: {len(results[('typed', form)])} accumulators "
                  f"{'equal' if same else 'DIFFER from'} the twin's", flush=True)
    with open(os.path.join(folder, args.events), "w", encoding="utf-8") as f:
        f.write(f"# kernel median_us min_us max_us ({args.repeat} launches after {args.warmup}; "
                f"shape {m}x{n}x{k}, stride {stride})\n" + "\n".join(lines) + "\n")
    sys.exit(1 if bad else 0)


# ---------------------------------------------------------------- report ---


def read_ncu(path):
    """{kernel: {metric: [values, one per profiled launch]}} of `ncu --csv` output."""
    found = {}
    if not os.path.exists(path):
        return found
    with open(path, encoding="utf-8", errors="replace") as f:
        rows = [line for line in f if line.startswith('"')]
    for row in csv.DictReader(rows):
        name, metric, value = row.get("Kernel Name"), row.get("Metric Name"), row.get("Metric Value")
        if not name or not metric or value is None:
            continue
        try:
            number = float(value.replace(",", ""))
        except ValueError:
            continue
        found.setdefault(name.split("(")[0], {}).setdefault(metric, []).append(number)
    return found


def report(args):
    folder = args.dir
    events = {}
    path = os.path.join(folder, "events.txt")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.startswith("#") and line.strip():
                    name, median, *_ = line.split()
                    events[name] = float(median)
    ncu = read_ncu(os.path.join(folder, "ncu.csv"))
    sass = {}
    if os.path.exists(os.path.join(folder, "gemm.sass")):
        with open(os.path.join(folder, "gemm.sass"), encoding="utf-8", errors="replace") as f:
            sass = gpu_kernel.read_sass(f.read())
    usage = gpu_kernel.read_ptxas_log(os.path.join(folder, "ptxas.log"))

    def median(values):
        return sorted(values)[len(values) // 2] if values else None

    def cells(name):
        metrics = ncu.get(name, {})
        t = median(metrics.get("gpu__time_duration.sum", []))
        count = gpu_kernel.sass_counts(sass[name])[0] if name in sass else None
        executed = median(metrics.get("smsp__inst_executed.sum", []))
        conflicts = [median(metrics.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum", []))
                     for op in ("ld", "st")]
        return {"ncu": None if t is None else t / 1000, "events": events.get(name), "sass": count,
                "regs": usage.get(name, {}).get("registers"), "executed": executed, "conflicts": conflicts}

    def fmt(x, digits=1):
        return "-" if x is None else (f"{x:.{digits}f}" if isinstance(x, float) and not x.is_integer()
                                      else f"{int(x)}")

    def ratio(x, y, digits=3):
        return "-" if x is None or y is None or y == 0 else f"{x / y:.{digits}f}"

    out = ["| kernel | twin | ncu time µs (typed / twin) | ratio | events µs (typed / twin) | ratio "
           "| SASS (typed / twin) | registers | executed instructions (typed / twin) | ratio "
           "| LDS conflicts ld, st (typed / twin) |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for config in CONFIGS:
        for form, twin in TWIN_FORM.items():
            t, h = kernel_name(config, form, "typed"), kernel_name(config, twin, "hand")
            ct, ch = cells(t), cells(h)
            out.append("| " + " | ".join([
                f"`{t}`", f"`{h}`",
                f"{fmt(ct['ncu'], 2)} / {fmt(ch['ncu'], 2)}", ratio(ct["ncu"], ch["ncu"]),
                f"{fmt(ct['events'], 2)} / {fmt(ch['events'], 2)}", ratio(ct["events"], ch["events"]),
                f"{fmt(ct['sass'])} / {fmt(ch['sass'])}",
                f"{fmt(ct['regs'])} / {fmt(ch['regs'])}",
                f"{fmt(ct['executed'])} / {fmt(ch['executed'])}", ratio(ct["executed"], ch["executed"]),
                f"{fmt(ct['conflicts'][0])}, {fmt(ct['conflicts'][1])} / "
                f"{fmt(ch['conflicts'][0])}, {fmt(ch['conflicts'][1])}",
            ]) + " |")
    m, n, k, stride = TIMING
    head = (f"Shape {m} x {n} x {k} (stride {stride}), fp16 (u16) operands, every block's full K loop. "
            "ncu: `gpu__time_duration.sum` (median of the profiled launches, `--clock-control none`); "
            "events: CUDA events around each launch (median); SASS: `ptxas -arch=sm_90 -O3` instructions "
            "without NOP padding; executed: `smsp__inst_executed.sum` (warp instructions).\n\n")
    table = head + "\n".join(out) + "\n"
    with open(os.path.join(folder, "timing.md"), "w", encoding="utf-8") as f:
        f.write(table)
    print(table, end="")



def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("shapes")
    p = sub.add_parser("check")
    p.add_argument("dir", nargs="?", default="target/gpu-gemm")
    sub.add_parser("probe")
    p = sub.add_parser("run")
    p.add_argument("dir", nargs="?", default="target/gpu-gemm")
    p.add_argument("--module", choices=["ptx", "cubin"], default="ptx")
    p.add_argument("--seed", type=int, default=int.from_bytes(os.urandom(4), "little"))
    p = sub.add_parser("time")
    p.add_argument("dir", nargs="?", default="target/gpu-gemm")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--events", default="events.txt", help="where the times go, under DIR")
    p.add_argument("--warm-seconds", type=float, default=2.0,
                   help="how long the first kernel runs, untimed, before the timing (0 under ncu)")
    p.add_argument("--seed", type=int, default=int.from_bytes(os.urandom(4), "little"))
    p = sub.add_parser("report")
    p.add_argument("dir", nargs="?", default="target/gpu-gemm")
    args = parser.parse_args()
    {"shapes": shapes, "check": check, "probe": gpu_kernel.probe, "run": run, "time": time_kernels,
     "report": report}[args.command](args)


if __name__ == "__main__":
    main()
