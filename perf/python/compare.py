"""The alternatives to cktile's analyzer that install from PyPI, timed on the
report's workloads (see docs/src/performance.md).

1. pycute (the pure-Python CuTe layout algebra shipped in the nvidia-cutlass
   wheel) computes the byte address of every lane, and a plain Python bank
   counter applies the same gfx942 rules cktile uses (32 banks of 4 bytes;
   ds_write_b128 in 8 phases of 8 consecutive lanes; ds_read_b128 in 8
   phases of the lane groups {0-3, 20-23}, {32-35, 52-55}, ...): the
   naive, row-padded and XOR-swizzled 128x64 fp16 tiles under row writes and
   MFMA 16x16x16 A reads. The totals are printed so they can be checked
   against cktile's.
2. Triton's Gluon `bank_conflicts` (C++ on linear layouts, NVIDIA shared
   memory only) for the naive and swizzled tiles written by 128-bit row
   stores and by column stores, on sm90 (its padded layout aborts).

Prints one JSON object per line: {"tool", "workload", "runs_s": [...],
"lane_accesses", "result"}.
"""

import json
import sys
import time

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
ROWS, COLS, EB = 128, 64, 2
WAVE, BANKS = 64, 32


def timed(fn, runs=RUNS):
    out, times = None, []
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return out, times


# ---------------------------------------------------------------- pycute
def pycute_rows():
    from pycute import ComposedLayout, Layout, Swizzle

    layouts = {
        "naive": Layout((ROWS, COLS), (COLS, 1)),
        "row-padded": Layout((ROWS, COLS), (COLS + 8, 1)),
        "ck-xor (Swizzle<3,3,3>)": ComposedLayout(Swizzle(3, 3, 3), 0, Layout((ROWS, COLS), (COLS, 1))),
    }
    vec = 16 // EB  # 128-bit accesses

    def rows_lanes(i):
        per_row = COLS // vec
        return [((i * WAVE + l) // per_row, ((i * WAVE + l) % per_row) * vec) for l in range(WAVE)]

    def mfma16_lanes(i):
        kblock = WAVE // 16 * vec
        kb = COLS // kblock
        return [((i // kb) * 16 + l % 16, (i % kb) * kblock + (l // 16) * vec) for l in range(WAVE)]

    write_phases = [list(range(8 * p, 8 * p + 8)) for p in range(8)]
    read_phases = []
    for a, b in [(0, 20), (32, 52), (4, 16), (36, 48), (8, 28), (40, 60), (12, 24), (44, 56)]:
        read_phases.append(list(range(a, a + 4)) + list(range(b, b + 4)))
    patterns = {
        "ds_write_b128:row": (ROWS * COLS // vec // WAVE, rows_lanes, write_phases),
        "mfma16x16x16:a": (ROWS // 16 * (COLS // (WAVE // 16 * vec)), mfma16_lanes, read_phases),
    }

    def cycles(layout, n, lanes_of, phases):
        total = 0
        for i in range(n):
            addr = [layout(r, c) * EB for (r, c) in lanes_of(i)]
            for ph in phases:
                words = set()
                for lane in ph:
                    a = addr[lane]
                    for w in range(a // 4, (a + 16 - 1) // 4 + 1):
                        words.add(w)
                ways = {}
                for w in words:
                    ways[w % BANKS] = ways.get(w % BANKS, 0) + 1
                total += max(ways.values()) if ways else 1
        return total

    def run():
        res = {}
        for lname, layout in layouts.items():
            for pname, (n, lanes_of, phases) in patterns.items():
                res[f"{lname} / {pname}"] = cycles(layout, n, lanes_of, phases)
        return res

    lane_accesses = sum(n * WAVE for (n, _, _) in patterns.values()) * len(layouts)
    result, times = timed(run)
    print(json.dumps({"tool": "pycute + Python bank count", "workload": "analyze 3 layouts x 2 patterns, gfx942",
                      "runs_s": times, "lane_accesses": lane_accesses, "result": result}))


# ---------------------------------------------------------------- triton
def triton_gluon():
    import triton
    from triton._C.libtriton import ir
    from triton._C.libtriton.gluon_ir import GluonOpBuilder
    from triton.experimental.gluon import language as ttgl

    ctx = ir.context()
    ir.load_dialects(ctx)
    b = GluonOpBuilder(ctx, "sm90")
    m = b.create_module()
    m.set_attr("ttg.target", b.get_string_attr("cuda:90"))
    m.set_attr("ttg.num-warps", b.get_int32_attr(4))
    m.set_attr("ttg.num-ctas", b.get_int32_attr(1))
    m.set_attr("ttg.threads-per-warp", b.get_int32_attr(32))
    fn = b.get_or_insert_function(m, "k", b.get_function_ty([], []), "public", False)
    m.push_back(fn)
    b.set_insertion_point_to_start(fn.add_entry_block())
    regs = {
        "st.shared.b128:row": ttgl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0]),
        "st.shared.b128:column": ttgl.BlockedLayout([1, 8], [32, 1], [4, 1], [1, 0]),
    }
    shared = {
        "naive": ttgl.SwizzledSharedLayout(1, 1, 1, [1, 0]),
        # PaddedSharedLayout aborts the process here ("padded shared encoding
        # has no linear layout"), so the padded tile is left out for Triton.
        "swizzled (vec 8, perPhase 1, maxPhase 8)": ttgl.SwizzledSharedLayout(8, 1, 8, [1, 0]),
    }
    pairs = [(s, r) for s in shared for r in regs]

    def run():
        return {f"{s} / {r}": b.get_shared_bank_conflicts(regs[r]._to_ir(b), shared[s]._to_ir(b), [ROWS, COLS], 16)
                for (s, r) in pairs}

    # A 128x64 tile stored by 128 threads, 8 elements each: 8 instructions per warp.
    lane_accesses = len(pairs) * ROWS * COLS // 8
    result, times = timed(run, RUNS * 10)
    print(json.dumps({"tool": f"triton {triton.__version__} gluon bank_conflicts",
                      "workload": "2 layouts x 2 store patterns, sm90", "runs_s": times,
                      "lane_accesses": lane_accesses, "result": result}))


for name, f in [("pycute", pycute_rows), ("triton", triton_gluon)]:
    try:
        f()
    except Exception as e:  # report, do not fail the whole comparison
        print(json.dumps({"tool": name, "error": f"{type(e).__name__}: {e}"}))
