#!/usr/bin/env python3
"""A Rust kernel on the GPU: checks and runs the PTX of gpu/kernel.

Subcommands (DIR is the folder gpu/kernel.sh writes, default target/gpu-kernel):

  specs CASES        NAME<TAB>SPEC per case of a cases file (for gpu/kernel.sh)
  check DIR          without a GPU: the PTX (sm_90, PTX ISA <= 9.0, every
                     case's kernels as .visible .entry, no .extern; every
                     hand-written twin and every all-static typed kernel
                     flat: no local memory, no call; the device-built typed
                     kernels' local memory and calls reported) and the
                     expected offsets (one JSON of `cktile offsets --json`
                     per case, of the case's shape)
  probe              exit 0 when CuPy sees a CUDA device
  run DIR            on the GPU: every kernel of every case launched from
                     DIR/kernels.ptx (the driver compiles it) and, when
                     present, DIR/kernels.cubin (ptxas -O3); every offset
                     compared with the expected one, the output poisoned
                     before the launch (every element must be written) and
                     guarded past its end (nothing written there); writes
                     DIR/results.md (--module ptx or cubin: that module
                     only, DIR/results-ptx.md or results-cubin.md); exits 1
                     on any difference
  sass DIR           the SASS of DIR/kernels.sass (cuobjdump -sass) and
                     DIR/ptxas.log (ptxas -v): one file per kernel under
                     DIR/sass/ and DIR/sass.md, each typed kernel next to
                     its twin

Standard library only, except `run` and `probe`, which import CuPy when
called.
"""

import argparse
import json
import os
import re
import sys

# Written to every element before a launch: 0xDEADBEEFDEADBEEF as an int64,
# never an offset (offsets are >= 0, padding is -1, a refused descriptor -2).
POISON = 0xDEADBEEFDEADBEEF - (1 << 64)
# Elements past the tile, poisoned too, that no thread may write.
GUARD = 1024
BLOCK = 128
VECTOR = 8
PADDING, REFUSED = -1, -2
# The newest PTX ISA CUDA 13.0's ptxas reads.
MAX_PTX_ISA = (9, 0)


def fail(message):
    print("gpu/kernel.py: " + message, file=sys.stderr)
    sys.exit(1)


# ------------------------------------------------------------------ cases ---


def load_cases(path):
    """The lines of a cases file (gpu/kernel/cases.txt's format)."""
    cases = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = line.split(None, 7)
            if len(fields) != 8:
                fail(f"{path}:{number}: expected NAME TYPED HAND BUILD ROWS COLS ARGS SPEC")
            name, typed, hand, build, rows, cols, args, spec = fields
            if build not in ("static", "device"):
                fail(f"{path}:{number}: BUILD is `{build}`, not static or device")
            try:
                rows, cols = int(rows), int(cols)
                args = [] if args == "-" else [int(a) for a in args.split(",")]
            except ValueError:
                fail(f"{path}:{number}: ROWS, COLS and ARGS must be integers")
            if rows <= 0 or cols <= 0 or cols % VECTOR or any(a < 0 or a >= 1 << 64 for a in args):
                fail(f"{path}:{number}: {rows} x {cols}: COLS must be a positive multiple of {VECTOR}, ARGS u64s")
            cases.append({"name": name, "typed": typed, "hand": hand, "build": build, "rows": rows,
                          "cols": cols, "args": args, "spec": spec.strip()})
    if not cases:
        fail(f"{path}: no case")
    names = [c["name"] for c in cases]
    if len(set(names)) != len(names):
        fail(f"{path}: a NAME appears twice")
    return cases


def specs(args):
    for c in load_cases(args.cases):
        print(f"{c['name']}\t{c['spec']}")


def load_expected(folder, case):
    """The expected offset of each element of a case's tile (padding: -1)."""
    path = os.path.join(folder, "expected", case["name"] + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    n = case["rows"] * case["cols"]
    if report.get("lengths") != [case["rows"], case["cols"]]:
        fail(f"{path}: lengths {report.get('lengths')}, the case says [{case['rows']}, {case['cols']}]")
    offsets, valid = report.get("offsets", []), report.get("valid", [])
    if len(offsets) != n or len(valid) != n:
        fail(f"{path}: {len(offsets)} offsets and {len(valid)} valid flags for {n} elements")
    return [o if v else PADDING for o, v in zip(offsets, valid)]


# -------------------------------------------------------------------- PTX ---


def ptx_functions(text):
    """Every function defined in a PTX module: name -> {kind, local, calls}."""
    header = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$.]+)")
    functions, current = {}, None
    for line in text.splitlines():
        if current is None:
            m = header.match(line)
            if m:
                current = {"kind": m.group(1), "name": m.group(2), "local": 0, "calls": set(), "body": False,
                           "instructions": []}
            continue
        if not current["body"]:
            if line.strip().startswith("{"):
                current["body"] = True
            elif line.strip().endswith(";"):  # a declaration, no body
                current = None
            continue
        if line.startswith("}"):
            functions[current["name"]] = current
            current = None
            continue
        t = line.strip()
        if t and not t.startswith((".", "//", "{", "}")) and not t.endswith(":"):
            # The instruction, its function's name and label numbers left out.
            t = t.replace(current["name"], "F")
            current["instructions"].append(re.sub(r"\$L__BB\d+_", "$L__BB_", t))
        m = re.search(r"__local_depot\d+\[(\d+)\]", line)
        if m and ".local" in line:
            current["local"] += int(m.group(1))
        if re.search(r"\b(?:ld|st)\.local\b", line) and not current["local"]:
            current["local"] = max(current["local"], 1)
        m = re.match(r"\s*call(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([\w$.]+)", line)
        if m:
            current["calls"].add(m.group(1))
    return functions


def reachable(functions, name):
    """The functions `name` calls, directly or not."""
    seen, todo = set(), list(functions[name]["calls"])
    while todo:
        f = todo.pop()
        if f not in seen:
            seen.add(f)
            todo.extend(functions.get(f, {}).get("calls", ()))
    return seen


# A kernel's launch-sized shared memory (CUDA's dynamic shared memory): an unsized `.extern .shared` array.
DYNAMIC_SHARED = re.compile(r"\s*\.extern\s+\.shared\s+\.align\s+\d+\s+\.b8\s+[\w$]+\[\];$")


def module_problems(text, dynamic_shared=False):
    """(PTX ISA, problems) of a module's header: ISA at most MAX_PTX_ISA, `.target sm_90`, 64-bit
    addresses, nothing external (but, with `dynamic_shared`, the dynamic shared memory arrays)."""
    problems = []
    version = re.search(r"^\s*\.version\s+(\d+)\.(\d+)", text, re.M)
    target = re.search(r"^\s*\.target\s+(\S+)", text, re.M)
    isa = (int(version.group(1)), int(version.group(2))) if version else None
    if isa is None or isa > MAX_PTX_ISA:
        problems.append(f"PTX ISA {isa}: CUDA 13.0's ptxas reads up to {MAX_PTX_ISA[0]}.{MAX_PTX_ISA[1]}")
    if not target or target.group(1).rstrip(",") != "sm_90":
        problems.append(f".target {target.group(1) if target else None}, not sm_90")
    if not re.search(r"^\s*\.address_size\s+64", text, re.M):
        problems.append("no .address_size 64")
    externs = [e for e in re.findall(r"^\s*\.extern\b.*$", text, re.M) if not (dynamic_shared and DYNAMIC_SHARED.match(e))]
    if externs:
        problems.append(f"not self-contained, the driver cannot link: {externs}")
    return isa, problems


def check(args):
    folder = args.dir
    cases = load_cases(os.path.join(folder, "cases.txt"))
    ptx_path = os.path.join(folder, "kernels.ptx")
    try:
        with open(ptx_path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        fail(f"{ptx_path}: {e}")
    isa, problems = module_problems(text)
    functions = ptx_functions(text)
    entries = sorted(n for n, f in functions.items() if f["kind"] == "entry")
    # What each kernel must be: `flat` (no local memory, no call) for every
    # hand-written twin and every all-static typed kernel; a typed kernel that
    # builds its descriptor on the device is reported.
    role = {c["hand"]: "hand" for c in cases}
    for c in cases:
        if role.get(c["typed"]) != "device":
            role[c["typed"]] = c["build"]
    lines = []
    for kernel, build in sorted(role.items()):
        f = functions.get(kernel)
        if f is None or f["kind"] != "entry":
            problems.append(f"{kernel}: no .visible .entry in the PTX")
            continue
        calls = reachable(functions, kernel)
        local = max([f["local"]] + [functions[g]["local"] for g in calls if g in functions])
        panics = sorted(g for g in calls if "panic" in g)
        if build != "device" and (local or calls):
            problems.append(f"{kernel}: not flat: {local} bytes of local memory, calls {sorted(calls)}")
        note = "flat: no local memory, no call" if not (local or calls) else (
            f"{local} bytes of local memory (largest frame), calls {len(calls)} functions"
            + (f", {len(panics)} of them panic paths (they trap)" if panics else ""))
        lines.append(f"  {kernel:<16} {build:<6} {note}")
    seen = set()
    for c in cases:
        t, h = functions.get(c["typed"]), functions.get(c["hand"])
        if t is None or h is None or (c["typed"], c["hand"]) in seen:
            continue
        seen.add((c["typed"], c["hand"]))
        same = "identical to its twin's" if t["instructions"] == h["instructions"] else "differs from its twin's"
        lines.append(f"  PTX of {c['typed']:<16} {len(t['instructions'])} instructions, {c['hand']} "
                     f"{len(h['instructions'])}; {same}")
    expected = 0
    for c in cases:
        expected += len(load_expected(folder, c))
    for p in problems:
        print("check: " + p, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check: {ptx_path}: PTX ISA {isa[0]}.{isa[1]}, sm_90, {len(entries)} entries, "
          f"self-contained; {len(cases)} cases, {expected} expected offsets")
    print("\n".join(lines))


# -------------------------------------------------------------------- run ---


def probe(_args):
    try:
        import cupy
        n = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # no CuPy, no driver, no device: all mean "no GPU here"
        print(f"probe: no CUDA device ({type(e).__name__}: {e})", file=sys.stderr)
        sys.exit(1)
    if n < 1:
        print("probe: no CUDA device", file=sys.stderr)
        sys.exit(1)
    props = cupy.cuda.runtime.getDeviceProperties(0)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    print(f"probe: {name} (sm_{props['major']}{props['minor']}), {n} device(s)")


def compare(got, expected):
    """Counts of (unwritten, wrong, written past the end) and the first
    difference (element, got, expected) of a kernel's output."""
    n = len(expected)
    tile, guard = got[:n], got[n:]
    unwritten = wrong = 0
    first = None
    for e, (g, x) in enumerate(zip(tile, expected)):
        if g != x:
            if g == POISON:
                unwritten += 1
            else:
                wrong += 1
            if first is None:
                first = (e, g, x)
    return unwritten, wrong, sum(g != POISON for g in guard), first


def run(args):
    # CuPy only (its uint64 and int64 are NumPy's), so that gpu/ci.sh can run
    # this against a stand-in (gpu/kernel/tests/fake_cupy).
    import cupy as cp

    folder = args.dir
    cases = load_cases(os.path.join(folder, "cases.txt"))
    modules = [("ptx", os.path.join(folder, "kernels.ptx"))]
    cubin = os.path.join(folder, "kernels.cubin")
    if os.path.exists(cubin):
        modules.append(("cubin", cubin))
    if args.module != "all":
        modules = [m for m in modules if m[0] == args.module]
        if not modules:
            fail(f"run: no {args.module} module in {folder}")
    props = cp.cuda.runtime.getDeviceProperties(0)
    device = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    print(f"run: {device} (sm_{props['major']}{props['minor']}), CuPy {cp.__version__}, "
          f"CUDA driver {cp.cuda.runtime.driverGetVersion()}")
    rows, launched, failed = [], 0, 0
    for label, path in modules:
        try:
            module = cp.RawModule(path=path)
        except Exception as e:  # named in the report
            print(f"{label}: cannot load {path}: {type(e).__name__}: {e}")
            failed += 1
            continue
        for c in cases:
            n = c["rows"] * c["cols"]
            expected = load_expected(folder, c)
            grid = (n // VECTOR + BLOCK - 1) // BLOCK + 1  # one block more: its threads write nothing
            results = {}
            for kernel in (c["typed"], c["hand"]):
                launched += 1
                try:
                    out = cp.full(n + GUARD, POISON, dtype=cp.int64)
                    function = module.get_function(kernel)
                    function((grid,), (BLOCK,), (out, *[cp.uint64(a) for a in c["args"]]))
                    cp.cuda.Device().synchronize()
                    got = [int(x) for x in cp.asnumpy(out).tolist()]
                except Exception as e:  # a load, launch or trap error, named in the report
                    failed += 1
                    print(f"{label:<5} {c['name']:<13} {kernel:<16} FAILED: {type(e).__name__}: {e}")
                    rows.append((label, c["name"], kernel, n, 0, "-", "-", "-", f"error: {type(e).__name__}"))
                    continue
                results[kernel] = got[:n]
                unwritten, wrong, guard, first = compare(got, expected)
                ok = not (unwritten or wrong or guard)
                matched = n - unwritten - wrong
                detail = ""
                if first:
                    e, g, x = first
                    what = {POISON: "unwritten", REFUSED: "-2 (the device refused the descriptor)"}.get(g, g)
                    detail = f"; first: element {e} (m={e // c['cols']}, k={e % c['cols']}) {what}, expected {x}"
                print(f"{label:<5} {c['name']:<13} {kernel:<16} {matched}/{n} offsets match"
                      f"{'' if ok else f', {unwritten} unwritten, {wrong} wrong, {guard} written past the end'}"
                      f" (grid {grid} x {BLOCK}){detail}")
                if not ok:
                    failed += 1
                rows.append((label, c["name"], kernel, n, matched, unwritten, wrong, guard, "ok" if ok else "MISMATCH"))
            if len(results) == 2:
                same = results[c["typed"]] == results[c["hand"]]
                if not same:
                    failed += 1
                print(f"{label:<5} {c['name']:<13} {'typed == hand':<16} {'yes' if same else 'NO'}")
    report = "results.md" if args.module == "all" else f"results-{args.module}.md"
    with open(os.path.join(folder, report), "w", encoding="utf-8") as f:
        f.write(f"Device: {device}. Each kernel's output compared element by element with "
                "`cktile offsets --json`.\n\n"
                "| module | case | kernel | elements | match | unwritten | wrong | past the end | verdict |\n"
                "|---|---|---|---:|---:|---:|---:|---:|---|\n")
        for r in rows:
            f.write("| " + " | ".join(str(x) for x in r) + " |\n")
    summary = f"{launched} launches ({len(modules)} module(s) x {len(cases)} cases x typed and hand)"
    if failed:
        print(f"run: FAILED: {failed} problems in {summary}")
        sys.exit(1)
    print(f"run: every offset matched cktile's in {summary}; typed == hand in every case")


# ------------------------------------------------------------------- SASS ---


def read_sass(text):
    """The instructions of each function of `cuobjdump -sass` output."""
    functions, current = {}, None
    for line in text.splitlines():
        m = re.match(r"\s*Function\s*:\s*([\w$.]+)", line)
        if m:
            current = functions.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s*/\*[0-9a-f]+\*/\s+(.*?)\s*;", line)
        if m and current is not None:
            current.append(m.group(1))
    return functions


def read_ptxas_log(log):
    """Each function's registers, stack frame and spill bytes from `ptxas -v` (empty without the log)."""
    usage = {}
    if os.path.exists(log):
        entry = props = None
        with open(log, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.search(r"Compiling entry function '([\w$.]+)'", line)
                if m:
                    entry = m.group(1)
                m = re.search(r"Function properties for ([\w$.]+)", line)
                if m:
                    props = m.group(1)
                m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
                if m and props:
                    usage.setdefault(props, {})["stack"] = int(m.group(1))
                    usage[props]["spills"] = int(m.group(2)) + int(m.group(3))
                m = re.search(r"Used (\d+) registers", line)
                if m and entry:
                    usage.setdefault(entry, {})["registers"] = int(m.group(1))
    return usage


def sass_counts(instructions):
    """(instructions without NOP padding, local loads and stores, calls) of one function's SASS."""
    ops = [i.split()[0] if not i.startswith("@") else i.split()[1] for i in instructions]
    real = [o for o in ops if o != "NOP"]
    return len(real), sum(o.startswith(("LDL", "STL")) for o in real), sum(o.startswith("CALL") for o in real)


def sass(args):
    folder = args.dir
    cases = load_cases(os.path.join(folder, "cases.txt"))
    with open(os.path.join(folder, "kernels.sass"), encoding="utf-8", errors="replace") as f:
        functions = read_sass(f.read())
    usage = read_ptxas_log(os.path.join(folder, "ptxas.log"))
    os.makedirs(os.path.join(folder, "sass"), exist_ok=True)
    for name, instructions in functions.items():
        with open(os.path.join(folder, "sass", name + ".sass"), "w", encoding="utf-8") as f:
            f.write("\n".join(instructions) + "\n")

    def describe(kernel):
        ins = functions.get(kernel)
        if ins is None:
            return ["missing"] * 4
        count, local, calls = sass_counts(ins)
        u = usage.get(kernel, {})
        extra = f"{local} local, {calls} calls" if local or calls else "-"
        return [str(count), str(u.get("registers", "?")), str(u.get("stack", "?")), extra]

    out = ["| case | typed kernel | SASS | regs | stack | local / calls | hand twin | SASS | regs | stack "
           "| local / calls |", "|---|---|---:|---:|---:|---|---|---:|---:|---:|---|"]
    seen = set()
    for c in cases:
        if (c["typed"], c["hand"]) in seen:
            continue
        seen.add((c["typed"], c["hand"]))
        out.append("| " + " | ".join([c["name"] + f" ({c['build']})", f"`{c['typed']}`", *describe(c["typed"]),
                                       f"`{c['hand']}`", *describe(c["hand"])]) + " |")
    table = "\n".join(out) + "\n"
    with open(os.path.join(folder, "sass.md"), "w", encoding="utf-8") as f:
        f.write("SASS instructions (NOP padding excluded) of `ptxas -arch=sm_90 -O3`, registers and stack "
                "frame bytes from `ptxas -v`; local = LDL/STL instructions.\n\n" + table)
    print(table, end="")
    missing = [k for c in cases for k in (c["typed"], c["hand"]) if k not in functions]
    if missing:
        fail(f"sass: no SASS for {sorted(set(missing))}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("specs")
    p.add_argument("cases")
    p.set_defaults(func=specs)
    for name, func in (("check", check), ("run", run), ("sass", sass)):
        p = sub.add_parser(name)
        p.add_argument("dir", nargs="?", default="target/gpu-kernel")
        p.set_defaults(func=func)
    sub.choices["run"].add_argument("--module", choices=("all", "ptx", "cubin"), default="all",
                                    help="only this module (a separate process keeps a failed launch's "
                                         "broken context from the other module's launches)")
    p = sub.add_parser("probe")
    p.set_defaults(func=probe)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
