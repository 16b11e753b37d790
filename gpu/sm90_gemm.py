#!/usr/bin/env python3
"""The whole universal GEMM on an NVIDIA GPU: runs, checks and times the
sm_90 GEMM kernels of perf/kernels/src/gemm.rs (`typed_gemm_mma_*`: CK's
universal GEMM policy over `MmaSync`, the library's data path, block GEMM
and epilogue; `hand_gemm_mma_*`, their hand-written twins) and of
examples/gemm_kernels.rs (`gemm_sm90_*`: fp16, bf16, E4M3 and int8), and
times cuBLAS on the same shapes.

Subcommands (DIR is the folder gpu/sm90_gemm.sh writes, default
target/gpu-sm90-gemm):

  check DIR   without a GPU: the PTX holds every kernel below as a
              .visible .entry, with mma.sync and no local memory or call,
              and no other GEMM entry point (gemm_sm90_*, *_gemm_mma_*)
  probe       exit 0 when CuPy sees a CUDA device
  run DIR     on the GPU: every kernel on every check shape, C against an
              exact host GEMM (small integers: every sum exact in f32; C
              poisoned with NaN, or i32's least value, first, and 64 guard
              elements past it must keep it), then random normal values
              against float64 (error relative to sum |a||b|, within
              1e-5 sqrt(k); int8: every value of the type, exact); writes
              DIR/results.md, exits 1 on any difference (--max-mnk: only
              the shapes up to that size; PYTHONPATH=gpu/sm90_gemm_fake
              runs it without a GPU, as gpu/ci.sh does)
  time DIR    every kernel and cuBLAS on the timing shapes with CUDA events
              (median of --repeat after --warmup and --warm-seconds of
              untimed launches): fp16/bf16 through torch.mm (f32 C where
              this torch offers out_dtype, and 16-bit C, the `_c16`
              kernels' peer), E4M3 through torch._scaled_mm (f32 C) and
              int8 through torch._int_mm (i32 C); writes DIR/events.txt
              (--events: another file)
  report DIR  joins DIR/events.txt and DIR/ncu.csv (Nsight Compute's
              gpu__time_duration of the same launches) into DIR/timing.md

Standard library only, except `run`, `time` and `probe`, which import CuPy,
numpy and (time) torch when called.
"""

import argparse
import csv
import os
import re
import statistics
import sys
import time

# Each kernel: its element type, K tile and policy, as perf/kernels/src/gemm.rs
# defines them (256 threads; 128 x 128 block tiles; 2 x 2 pairs of warps of
# MmaSync<32, 16, 16>), each typed kernel (the library's calls) next to its
# hand-written twin (`hand_gemm_mma_*`, every address and register by hand).
KERNELS = {
    f"{form}_gemm_mma_128_{name}": dict(dtype=dtype, k_tile=k_tile)
    for name, dtype, k_tile in (("k32", "fp16", 32), ("k64", "fp16", 64), ("k32_bf16", "bf16", 32))
    for form in ("typed", "hand")
}
# ... and over a column-major A and a row-major B (`_crr`): A stored K x M and B K x N, both with
# leading dimension `stride`, which the checks make max(m, n) plus the shape's gap past K.
KERNELS.update({f"{form}_gemm_mma_128_k32_crr": dict(dtype="fp16", k_tile=32, transposed=True) for form in ("typed", "hand")})
# examples/gemm_kernels.rs's sm_90 entry points (the same policy, K tiles of 32): packed A, B and C, so they
# take (a, b, c, m, n, k) and run on the shapes whose stride is K.
KERNELS.update({f"gemm_sm90_{dtype}": dict(dtype=dtype, k_tile=32, packed=True) for dtype in ("fp16", "bf16")})
# ... and its entry point for a column-major A and a row-major B (both stored K x rows, rows contiguous):
# given A and B transposed, it computes the same C.
KERNELS["gemm_sm90_fp16_crr"] = dict(dtype="fp16", k_tile=32, packed=True, transposed=True)
# ... CK's CShuffle epilogue (its LDS tile, 128 x 32 floats or 128 x 64 halves, 16 KiB, shares the
# launch-sized memory) and CompV3 pipeline, and C in the inputs' 16-bit type (`c`: C's type, else f32).
KERNELS["gemm_sm90_fp16_cshuffle"] = dict(dtype="fp16", k_tile=32, packed=True, c_lds=128 * 32 * 4)
KERNELS["gemm_sm90_fp16_v3"] = dict(dtype="fp16", k_tile=32, packed=True)
KERNELS.update({f"gemm_sm90_{dtype}_c16": dict(dtype=dtype, k_tile=32, packed=True, c=dtype) for dtype in ("fp16", "bf16")})
KERNELS["gemm_sm90_fp16_c16_cshuffle"] = dict(dtype="fp16", k_tile=32, packed=True, c="fp16", c_lds=128 * 64 * 2)
# ... and its 8-bit entry points (`mma.sync` m16n8k32, K tiles of 64): OCP's E4M3 summed in f32, and
# int8 summed in i32 (C: 32-bit integers).
KERNELS["gemm_sm90_fp8"] = dict(dtype="fp8", k_tile=64, packed=True)
KERNELS["gemm_sm90_int8"] = dict(dtype="int8", k_tile=64, packed=True, c="i32")
# ... and fp16's and E4M3's over `Vectors`: each 16-byte vector of A and B whose address allows it in one
# `ld.global.v4.b32` (timed beside their `Plain` twins above: the loads are all that differs).
KERNELS["gemm_sm90_fp16_vectors"] = dict(dtype="fp16", k_tile=32, packed=True)
KERNELS["gemm_sm90_fp8_vectors"] = dict(dtype="fp8", k_tile=64, packed=True)
# Bytes per element of each operand type.
ELEMENT_BYTES = {"fp16": 2, "bf16": 2, "fp8": 1, "int8": 1}


def vector(dtype):
    """The elements of a kernel's 16-byte vector: K must be a multiple of it."""
    return 16 // ELEMENT_BYTES[dtype]

BLOCK, TILE_M, TILE_N = 256, 128, 128
# (m, n, k, stride): full tiles, padding along each of M, N, K, one element,
# a stride past K that is no multiple of the vector, and a large square. The
# packed kernels run each with stride K; each kernel runs the shapes whose K
# is a multiple of its 16-byte vector (8 elements of 16 bits, 16 of 8 bits).
CHECK_SHAPES = [
    (128, 128, 32, 32),
    (128, 128, 64, 72),
    (131, 128, 96, 101),
    (128, 249, 40, 40),
    (255, 137, 88, 97),
    (1, 1, 8, 8),
    (200, 150, 80, 83),
    (1000, 700, 520, 529),
    (2048, 2048, 2048, 2048),
]
TIMING_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)]


def fail(message):
    print(f"gpu/sm90_gemm.py: {message}", file=sys.stderr)
    sys.exit(1)


def grid(m, n):
    n_blocks = max(1, -(-n // TILE_N))
    return -(-m // TILE_M) * n_blocks, n_blocks


def check(args):
    path = os.path.join(args.dir, "gemm.ptx")
    try:
        ptx = open(path).read()
    except OSError as e:
        fail(f"cannot read {path}: {e}")
    problems = []
    for name in KERNELS:
        start = ptx.find(f".visible .entry {name}(")
        if start < 0:
            problems.append(f"{name}: no .visible .entry")
            continue
        body = ptx[start : ptx.find("\n}\n", start)]
        if "mma.sync.aligned.m16n8k" not in body:
            problems.append(f"{name}: no mma.sync")
        for bad in (".local", "call"):
            if bad in body:
                problems.append(f"{name}: {bad}")
    # Every GEMM entry point of the PTX is run: one this list lacks would be skipped silently.
    entries = re.findall(r"\.visible \.entry ((?:gemm_sm90|typed_gemm_mma|hand_gemm_mma)_\w+)\(", ptx)
    problems += [f"{name}: an entry point of the PTX that this script does not run" for name in entries if name not in KERNELS]
    if problems:
        fail("; ".join(problems))
    print(f"gpu/sm90_gemm.py: {len(KERNELS)} kernels in {path}, each with mma.sync, no local memory, no call; no other GEMM entry point")


def probe(_args):
    try:
        import cupy as cp

        sys.exit(0 if cp.cuda.runtime.getDeviceCount() > 0 else 3)
    except Exception:
        sys.exit(3)


class Module:
    """The PTX, loaded (the driver compiles it for the device)."""

    def __init__(self, cp, folder):
        self.cp = cp
        self.module = cp.RawModule(path=os.path.join(folder, "gemm.ptx"))

    def launch(self, name, a, b, c, m, n, k, stride):
        import numpy as np

        blocks, n_blocks = grid(m, n)
        f = self.module.get_function(name)
        if KERNELS[name].get("packed"):
            assert stride == k, "a packed kernel's stride is K"
            params = (a, b, c, np.uint32(m), np.uint32(n), np.uint32(k))
        else:
            params = (a, b, c, np.uint32(m), np.uint32(n), np.uint32(k), np.uint32(stride), np.uint32(n_blocks))
        # The K loop's LDS, or the CShuffle tile where it is larger (one launch-sized memory).
        kern = KERNELS[name]
        lds = max((TILE_M + TILE_N) * kern["k_tile"] * ELEMENT_BYTES[kern["dtype"]], kern.get("c_lds", 0))
        f((blocks,), (BLOCK,), params, shared_mem=lds)


def e4m3_values(np):
    """The value of each of the 256 E4M3 bit patterns (OCP's e4m3fn: bias 7,
    subnormals, NaN at 0x7F and 0xFF, no infinities)."""
    code = np.arange(256)
    exponent, mantissa = (code >> 3) & 15, code & 7
    magnitude = np.where(exponent == 0, mantissa / 8.0 * 2.0**-6, (1 + mantissa / 8.0) * 2.0 ** (exponent - 7.0))
    magnitude = np.where((code & 0x7F) == 0x7F, np.nan, magnitude)
    return np.where(code & 0x80, -magnitude, magnitude)


def bits(np, values, dtype):
    """float32 values as the bits of `dtype`: fp16, bf16 (round to nearest
    even), fp8 (E4M3, the nearest finite value) or int8 (the integer)."""
    if dtype == "fp16":
        return values.astype(np.float16).view(np.uint16)
    if dtype == "int8":
        return np.clip(np.rint(values), -128, 127).astype(np.int8)
    if dtype == "fp8":
        table = e4m3_values(np)
        finite = np.flatnonzero(~np.isnan(table))
        order = finite[np.argsort(table[finite], kind="stable")]
        sorted_values = table[order]
        v = np.clip(values.astype(np.float64), sorted_values[0], sorted_values[-1])
        i = np.clip(np.searchsorted(sorted_values, v), 1, len(order) - 1)
        nearer_below = (v - sorted_values[i - 1]) <= (sorted_values[i] - v)
        return order[np.where(nearer_below, i - 1, i)].astype(np.uint8)
    u = values.astype(np.float32).view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def values_of(np, b, dtype):
    if dtype == "fp16":
        return b.view(np.float16).astype(np.float64)
    if dtype == "int8":
        return b.astype(np.float64)
    if dtype == "fp8":
        return e4m3_values(np)[b.astype(np.int64)]
    if dtype == "i32":
        return b.view(np.int32).astype(np.float64)
    return (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


# A quiet NaN of each C type, as its bits (for i32, its least value): C starts as it, and the
# guard past C must keep it.
NAN_BITS = {"fp16": 0x7E00, "bf16": 0x7FC0, "i32": -(2**31)}
# Past K in A and B: a value that would spoil any sum reading it.
SPOILER = {"fp16": 1.0e4, "bf16": 1.0e4, "fp8": 448.0, "int8": 127.0}
# Half a unit in the last place of each 16-bit C, relative: a rounded C's error beyond the sum's.
HALF_ULP = {"fp16": 2.0**-11, "bf16": 2.0**-8}


def run(args):
    import cupy as cp
    import numpy as np

    module = Module(cp, args.dir)
    rng = np.random.default_rng(args.seed)
    lines = ["| kernel | m x n x k (stride) | data | C elements | wrong | written past C | max rel. error |", "|---|---|---|---:|---:|---:|---:|"]
    bad = 0
    for name, kern in KERNELS.items():
        dtype = kern["dtype"]
        for m, n, k, stride in CHECK_SHAPES:
            if args.max_mnk is not None and m * n * k > args.max_mnk:
                continue
            if k % vector(dtype):
                # The kernel refuses a K that is no multiple of its vector (16 bytes), as CK's
                # IsSupportedArgument does.
                continue
            if kern.get("packed"):
                stride = k
            for data in ("integers", "normal"):
                if data == "normal" and dtype == "int8":
                    # int8's second data set: every value of the type (sums exact in i32).
                    fa = rng.integers(-128, 128, (m, stride)).astype(np.float32)
                    fb = rng.integers(-128, 128, (n, stride)).astype(np.float32)
                elif data == "integers":
                    fa = rng.integers(-4, 5, (m, stride)).astype(np.float32)
                    fb = rng.integers(-4, 5, (n, stride)).astype(np.float32)
                else:
                    fa = rng.standard_normal((m, stride)).astype(np.float32)
                    fb = rng.standard_normal((n, stride)).astype(np.float32)
                # Past K: a value that would spoil any sum reading it.
                fa[:, k:] = SPOILER[dtype]
                fb[:, k:] = SPOILER[dtype]
                a, b = bits(np, fa, dtype), bits(np, fb, dtype)
                va, vb = values_of(np, a, dtype)[:, :k], values_of(np, b, dtype)[:, :k]
                want = va @ vb.T
                ld = stride
                if kern.get("transposed") and kern.get("packed"):
                    # Column-major A (k x m in memory) and row-major B (k x n), packed.
                    a, b = np.ascontiguousarray(a[:, :k].T), np.ascontiguousarray(b[:, :k].T)
                elif kern.get("transposed"):
                    # The same with leading dimension ld past both m and n; the gap holds 1e4.
                    ld = max(m, n) + (stride - k)
                    gap = bits(np, np.full((1,), SPOILER[dtype], dtype=np.float32), dtype)[0]
                    ta, tb = np.full((k, ld), gap, dtype=a.dtype), np.full((k, ld), gap, dtype=b.dtype)
                    ta[:, :m], tb[:, :n] = a[:, :k].T, b[:, :k].T
                    a, b = ta, tb
                # The kernel writes C packed (m x n); 64 guard elements past it must stay NaN.
                c_type = kern.get("c")
                if c_type == "i32":
                    dc = cp.full(m * n + 64, NAN_BITS[c_type], dtype=cp.int32)
                elif c_type:
                    dc = cp.full(m * n + 64, NAN_BITS[c_type], dtype=cp.uint16)
                else:
                    dc = cp.full(m * n + 64, cp.nan, dtype=cp.float32)
                module.launch(name, cp.asarray(a), cp.asarray(b), dc, m, n, k, ld)
                cp.cuda.runtime.deviceSynchronize()
                got_all = cp.asnumpy(dc)
                if c_type:
                    got = values_of(np, got_all[: m * n], c_type).reshape(m, n)
                    gap = int(np.count_nonzero(got_all[m * n :] != NAN_BITS[c_type]))
                else:
                    got = got_all[: m * n].reshape(m, n).astype(np.float64)
                    gap = int(np.count_nonzero(~np.isnan(got_all[m * n :])))
                if c_type == "i32":
                    # Integer sums: exact, whatever the data.
                    wrong = int(np.count_nonzero(got != want))
                    err = "exact" if wrong == 0 else "-"
                elif data == "integers" and c_type:
                    # The exact sum (an integer, exact in f32), rounded once to C's type.
                    wrong = int(np.count_nonzero(got_all[: m * n].reshape(m, n) != bits(np, want.astype(np.float32), c_type)))
                    err = "exact" if wrong == 0 else "-"
                elif data == "integers":
                    wrong = int(np.count_nonzero(got != want))
                    err = "exact" if wrong == 0 else "-"
                else:
                    scale = np.abs(va) @ np.abs(vb).T
                    rel = np.abs(got - want) / np.maximum(scale, 1e-30)
                    # f32 accumulation over k products: a bound of a few k ulps of the scale, and
                    # half an ulp of a 16-bit C of the value (at most the scale) where C is rounded.
                    bound = 1e-5 * max(1, k) ** 0.5 + 1e-6 + (HALF_ULP[c_type] if c_type else 0.0)
                    wrong = int(np.count_nonzero(~(rel <= bound)))
                    err = f"{float(np.nanmax(rel)):.2e}"
                bad += wrong + gap
                lines.append(f"| {name} | {m} x {n} x {k} ({stride}) | {data} | {m * n} | {wrong} | {gap} | {err} |")
    out = os.path.join(args.dir, "results.md")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    if bad:
        fail(f"{bad} wrong elements (see {out})")
    print(f"gpu/sm90_gemm.py: every C element right on every shape ({out})")


def cublas(torch, a, b, dtype, out16=False):
    """cuBLAS's C = A B^T and its types: 16-bit inputs in f32 where this
    torch offers out_dtype, else (and with out16) in the inputs' type; E4M3
    through `torch._scaled_mm` (scales 1, f32 C); int8 through
    `torch._int_mm` (i32 C)."""
    if dtype == "fp8":
        one = torch.ones((), device="cuda")
        return torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.float32), "f32"
    if dtype == "int8":
        return torch._int_mm(a, b.t()), "i32"
    if not out16:
        try:
            return torch.mm(a, b.t(), out_dtype=torch.float32), "f32"
        except (TypeError, RuntimeError):
            pass
    return torch.mm(a, b.t()), dtype


def operand(torch, cp, dtype, rows, k):
    """A random rows x k operand on the GPU, as a torch tensor of `dtype`,
    and its bits as a CuPy array (what the kernels read)."""
    if dtype == "int8":
        t = torch.randint(-128, 128, (rows, k), device="cuda", dtype=torch.int8)
    else:
        element = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp8": torch.float8_e4m3fn}[dtype]
        t = torch.randn(rows, k, device="cuda").to(element)
    return t, raw(torch, cp, t)


def raw(torch, cp, t):
    """A tensor's bits as a CuPy array of unsigned integers of its size."""
    if t.element_size() == 1:
        return cp.asarray(t.view(torch.uint8))
    return cp.asarray(t.view(torch.int16)).view(cp.uint16)


def timed(cp, fn, warmup, repeat, warm_seconds):
    end = time.time() + warm_seconds
    while time.time() < end:
        fn()
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return statistics.median(times)


def time_kernels(args):
    import cupy as cp
    import torch

    module = Module(cp, args.dir)
    lines = []
    for m, n, k in TIMING_SHAPES:
        flops = 2.0 * m * n * k
        for dtype in ELEMENT_BYTES:
            ta, a = operand(torch, cp, dtype, m, k)
            tb, b = operand(torch, cp, dtype, n, k)
            # The same operands column-major (A) and row-major (B), for the transposed kernels.
            at, bt = raw(torch, cp, ta.t().contiguous()), raw(torch, cp, tb.t().contiguous())
            c = cp.empty(m * n, dtype=cp.float32)
            c16 = cp.empty(m * n, dtype=cp.uint16)
            first = len(lines)
            try:
                ref, out_type = cublas(torch, ta, tb, dtype)
            except (AttributeError, TypeError, RuntimeError) as e:
                # No cuBLAS path for this type in this torch: the kernels are checked against
                # an f32 product instead, and timed alone.
                lines.append(f"# cublas {dtype}: unavailable ({type(e).__name__}: {str(e).splitlines()[0][:120]})")
                ref, out_type = ta.float() @ tb.float().t(), None
            if out_type:
                ms = timed(cp, lambda: cublas(torch, ta, tb, dtype), args.warmup, args.repeat, args.warm_seconds)
                lines.append(f"cublas {dtype}->{out_type} {m} {n} {k} {ms:.4f} {flops / ms / 1e9:.1f}")
            if dtype in ("fp16", "bf16") and out_type != dtype:
                # cuBLAS with C in the inputs' type, beside the kernels that store C so.
                ms = timed(cp, lambda: cublas(torch, ta, tb, dtype, True), args.warmup, args.repeat, args.warm_seconds)
                lines.append(f"cublas {dtype}->{dtype} {m} {n} {k} {ms:.4f} {flops / ms / 1e9:.1f}")
            for name, kern in KERNELS.items():
                if kern["dtype"] != dtype:
                    continue
                xa, xb = (at, bt) if kern.get("transposed") else (a, b)
                out = c16 if kern.get("c") in ("fp16", "bf16") else c
                run_it = lambda: module.launch(name, xa, xb, out, m, n, k, k)  # noqa: E731
                ms = timed(cp, run_it, args.warmup, args.repeat, args.warm_seconds)
                # The same C as cuBLAS's, to f32 rounding (or the 16-bit C's).
                if kern.get("c") == "fp16":
                    got = out.view(cp.float16).astype(cp.float32).reshape(m, n)
                elif kern.get("c") == "bf16":
                    got = (out.astype(cp.uint32) << 16).view(cp.float32).reshape(m, n)
                elif kern.get("c") == "i32":
                    got = out.view(cp.int32).astype(cp.float32).reshape(m, n)
                else:
                    got = out.reshape(m, n)
                diff = float(cp.max(cp.abs(got - cp.asarray(ref.float()))))
                types = f"{dtype}->{kern.get('c', 'f32')}"
                lines.append(f"{name} {types} {m} {n} {k} {ms:.4f} {flops / ms / 1e9:.1f} maxdiff={diff:.3e}")
            print("\n".join(lines[first:]), flush=True)
    out = os.path.join(args.dir, args.events)
    with open(out, "w") as f:
        f.write(f"# device: {torch.cuda.get_device_name()}; torch {torch.__version__}\n")
        f.write("# kernel types m n k median_ms TFLOP/s*1000(GFLOP/s)\n")
        f.write("\n".join(lines) + "\n")
    print(f"gpu/sm90_gemm.py: wrote {out}")


def report(args):
    events = os.path.join(args.dir, "events.txt")
    ncu = os.path.join(args.dir, "ncu.csv")
    rows = [l.split() for l in open(events) if l.strip() and not l.startswith("#")]
    head = [l.strip() for l in open(events) if l.startswith("# device")]
    ncu_times = {}
    if os.path.exists(ncu):
        with open(ncu) as f:
            body = [l for l in f if l.startswith('"')]
        for r in csv.DictReader(body):
            name = r.get("Kernel Name", "").split("(")[0]
            # The GEMMs alone: ours, and cuBLAS's (nvjet, xmma or cutlass kernels), not the
            # script's own elementwise kernels.
            gemm = name.startswith(("typed_", "hand_")) or any(w in name for w in ("nvjet", "gemm", "xmma", "cutlass"))
            if r.get("Metric Name") == "gpu__time_duration.sum" and gemm:
                ncu_times.setdefault(name, []).append(float(r["Metric Value"].replace(",", "")))
    out = ["# The universal GEMM on sm_90 against cuBLAS", ""]
    out += head + [
        "",
        "| kernel | types | m x n x k | median ms (events) | GFLOP/s | vs cuBLAS | typed / twin time |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    times = {(r[0], r[2], r[3], r[4]): float(r[5]) for r in rows}
    # cuBLAS with the same input and output types, else (a torch without out_dtype) the same inputs.
    base = {}
    for r in rows:
        if r[0] == "cublas":
            base[(r[1], r[2], r[3], r[4])] = float(r[5])
            base.setdefault((r[1].split("->")[0], r[2], r[3], r[4]), float(r[5]))
    for r in rows:
        key = (r[1], r[2], r[3], r[4])
        key = key if key in base else (r[1].split("->")[0], r[2], r[3], r[4])
        ratio = base[key] / float(r[5]) if key in base else float("nan")
        twin = times.get((r[0].replace("typed_", "hand_", 1), r[2], r[3], r[4])) if r[0].startswith("typed_") else None
        vs_twin = f"{float(r[5]) / twin:.3f}" if twin else ""
        out.append(
            f"| {r[0]} | {r[1]} | {r[2]} x {r[3]} x {r[4]} | {float(r[5]):.3f} | {float(r[6]):.0f} | {ratio:.2f} | {vs_twin} |"
        )
    if ncu_times:
        out += ["", "Nsight Compute (`gpu__time_duration.sum`, ns, every profiled launch):", ""]
        out += [f"- `{k}`: {', '.join(f'{v:.0f}' for v in vs)}" for k, vs in sorted(ncu_times.items())]
    path = os.path.join(args.dir, "timing.md")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("check", "run", "time", "report"):
        p = sub.add_parser(name)
        p.add_argument("dir", nargs="?", default="target/gpu-sm90-gemm")
        if name == "run":
            p.add_argument("--seed", type=int, default=1)
            p.add_argument("--max-mnk", type=int, default=None, help="skip the check shapes with m * n * k above this")
        if name == "time":
            p.add_argument("--warmup", type=int, default=3)
            p.add_argument("--repeat", type=int, default=10)
            p.add_argument("--warm-seconds", type=float, default=1.0)
            p.add_argument("--events", default="events.txt")
    sub.add_parser("probe")
    args = parser.parse_args()
    {"check": check, "probe": probe, "run": run, "time": time_kernels, "report": report}[args.command](args)


if __name__ == "__main__":
    main()
