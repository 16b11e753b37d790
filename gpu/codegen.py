#!/usr/bin/env python3
"""cktile's generated CUDA code on an NVIDIA GPU: every offset, validity and
inverse coordinate of every layout, against cktile's own.

`cktile codegen --lang cuda` writes a header of `__device__` functions per
layout (NAME_offset, NAME_is_valid when it has padding, NAME_coordinate when
it is a bijection). tests/codegen_cuda.rs compiles such headers as host C++;
this runs them where they are meant to run, compiled by nvcc for the GPU.

Subcommands (python3, standard library only):

  build OUT [--cktile BIN]
      Where a cktile binary is (no GPU needed): for every catalogue example
      and every line of tests/data/codegen_specs.txt, the header
      (OUT/gK.cuh, `cktile codegen SPEC --lang cuda --name gK`) and the
      expected offsets (OUT/gK.json, `cktile offsets SPEC --json`), then
      OUT/driver.cu (one kernel per layout over every coordinate, one per
      offset for the inverse; the host prints what they wrote) and
      OUT/layouts.json.

  check OUT
      Without a GPU: the folder is complete and consistent (every header
      declares what layouts.json says, the driver calls every layout).

  run OUT [--nvcc NVCC] [--arch sm_90]
      On the GPU: nvcc builds OUT/driver.cu, runs it, and compares every line
      with the expected values: offsets and validity per coordinate
      (row-major, last dimension fastest), and for a bijection the coordinate
      of every offset. Prints one line per layout and a summary; exit 1 on
      any difference.

  emulate OUT [--cxx g++]
      Without a GPU (CI): the same driver built as host C++ with
      -DCKTILE_HOST_EMULATION (each launch a loop over blocks and threads,
      cudaMalloc a malloc), run and compared exactly as `run` does, so the
      driver and the comparison are tested before a GPU runs them.
"""

import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = os.path.join(ROOT, "tests", "data", "codegen_specs.txt")
BLOCK = 256

# The driver's CUDA runtime: the real one, or (-DCKTILE_HOST_EMULATION) a host
# stand-in where a launch loops over blocks and threads.
HOST_EMULATION = r"""#ifndef CKTILE_HOST_EMULATION
#include <cuda_runtime.h>
#define LAUNCH(kernel, blocks, threads, ...) kernel<<<(blocks), (threads)>>>(__VA_ARGS__)
#else
#include <cstring>
struct Dim { unsigned x = 0; };
static Dim blockIdx, threadIdx, blockDim;
using cudaError_t = int;
constexpr cudaError_t cudaSuccess = 0;
static const char* cudaGetErrorString(cudaError_t) { return "host emulation error"; }
template <class T> static cudaError_t cudaMalloc(T** p, size_t n) { *p = static_cast<T*>(std::malloc(n)); return *p ? 0 : 1; }
static cudaError_t cudaMemset(void* p, int v, size_t n) { std::memset(p, v, n); return 0; }
enum { cudaMemcpyDeviceToHost };
static cudaError_t cudaMemcpy(void* d, const void* s, size_t n, int) { std::memcpy(d, s, n); return 0; }
static cudaError_t cudaFree(void* p) { std::free(p); return 0; }
static cudaError_t cudaGetLastError() { return 0; }
static cudaError_t cudaDeviceSynchronize() { return 0; }
#define LAUNCH(kernel, blocks, threads, ...)                                  \
  for (blockIdx.x = 0, blockDim.x = (threads); blockIdx.x < (blocks); ++blockIdx.x) \
    for (threadIdx.x = 0; threadIdx.x < blockDim.x; ++threadIdx.x) kernel(__VA_ARGS__)
#endif"""


def fail(message):
    print("codegen.py: " + message, file=sys.stderr)
    sys.exit(1)


def listed_specs():
    with open(SPECS, encoding="utf-8") as f:
        return [l.strip() for l in f if l.strip() and not l.strip().startswith("#")]


def cktile(binary, *args):
    r = subprocess.run([binary, *args], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"`cktile {' '.join(args)}` failed: {r.stderr.strip()}")
    return r.stdout


def header_facts(text, name):
    """(integer type, has is_valid, has coordinate) from a generated header."""
    m = re.search(r"// Integer type: (std::int(?:32|64)_t)", text)
    if not m:
        fail(f"{name}.cuh: no `// Integer type:` line")
    return m.group(1), f"{name}_is_valid(" in text, f"{name}_coordinate(" in text


def product(values):
    n = 1
    for v in values:
        n *= v
    return n


def driver_part(layout):
    """The kernels and the host function of one layout."""
    name, rank, ty = layout["name"], layout["rank"], layout["type"]
    coords = [f"c{d}" for d in range(rank)]
    out = [f'#include "{name}.cuh"', ""]
    # Forward: one thread per coordinate, row-major, last dimension fastest.
    out.append(f"__global__ void {name}_forward(long long* off, int* valid, long long n) {{")
    out.append("  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;")
    out.append("  if (t >= n) return;")
    out.append("  long long rest = t;")
    for d in reversed(range(rank)):
        out.append(f"  const {ty} c{d} = ({ty})(rest % {name}_length{d}); rest /= {name}_length{d};")
    out.append("  (void)rest;")
    args = ", ".join(coords)
    out.append(f"  off[t] = (long long){name}_offset({args});")
    out.append(f"  valid[t] = {f'(int){name}_is_valid({args})' if layout['valid'] else '1'};")
    out.append("}")
    if layout["inverse"]:
        out.append(f"__global__ void {name}_inverse(long long* coords, long long n) {{")
        out.append("  const long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x;")
        out.append("  if (o >= n) return;")
        if rank:
            out.append(f"  {ty} {', '.join(f'{c} = -1' for c in coords)};")
        out.append(f"  {name}_coordinate(({ty})o{''.join(', ' + c for c in coords)});")
        for d in range(rank):
            out.append(f"  coords[o * {rank} + {d}] = (long long)c{d};")
        out.append("}")
    n, space = layout["elements"], layout["space"]
    out.append(f"static void run_{name}() {{")
    out.append(f"  const long long n = {n};")
    out.append("  long long* off = nullptr; int* valid = nullptr;")
    out.append("  CHECK(cudaMalloc(&off, n * sizeof(long long))); CHECK(cudaMalloc(&valid, n * sizeof(int)));")
    out.append("  CHECK(cudaMemset(off, 0xA5, n * sizeof(long long))); CHECK(cudaMemset(valid, 0xA5, n * sizeof(int)));")
    out.append(f"  LAUNCH({name}_forward, (unsigned)((n + {BLOCK - 1}) / {BLOCK}), {BLOCK}, off, valid, n);")
    out.append("  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());")
    out.append("  std::vector<long long> h_off(n); std::vector<int> h_valid(n);")
    out.append("  CHECK(cudaMemcpy(h_off.data(), off, n * sizeof(long long), cudaMemcpyDeviceToHost));")
    out.append("  CHECK(cudaMemcpy(h_valid.data(), valid, n * sizeof(int), cudaMemcpyDeviceToHost));")
    out.append(f'  std::printf("case {name}\\n");')
    out.append('  for (long long t = 0; t < n; ++t) std::printf("%lld %d\\n", h_off[t], h_valid[t]);')
    out.append("  CHECK(cudaFree(off)); CHECK(cudaFree(valid));")
    if layout["inverse"]:
        width = max(rank, 1)
        out.append(f"  const long long space = {space};")
        out.append("  long long* coords = nullptr;")
        out.append(f"  CHECK(cudaMalloc(&coords, space * {width} * sizeof(long long)));")
        out.append(f"  CHECK(cudaMemset(coords, 0xA5, space * {width} * sizeof(long long)));")
        out.append(f"  LAUNCH({name}_inverse, (unsigned)((space + {BLOCK - 1}) / {BLOCK}), {BLOCK}, coords, space);")
        out.append("  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());")
        out.append(f"  std::vector<long long> h(space * {width});")
        out.append("  CHECK(cudaMemcpy(h.data(), coords, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));")
        out.append("  for (long long o = 0; o < space; ++o) {")
        out.append('    std::printf("inv");')
        out.append(f'    for (int d = 0; d < {rank}; ++d) std::printf(" %lld", h[o * {width} + d]);')
        out.append('    std::printf("\\n");')
        out.append("  }")
        out.append("  CHECK(cudaFree(coords));")
    out.append("}")
    return "\n".join(out) + "\n"


def build(args):
    os.makedirs(args.out, exist_ok=True)
    catalogue = json.loads(cktile(args.cktile, "catalogue", "--json"))
    specs = [e["example"] for e in catalogue] + listed_specs()
    layouts = []
    for k, spec in enumerate(specs):
        name = f"g{k}"
        cktile(args.cktile, "codegen", spec, "--lang", "cuda", "--name", name, "-o", os.path.join(args.out, name + ".cuh"))
        expected = json.loads(cktile(args.cktile, "offsets", spec, "--json"))
        with open(os.path.join(args.out, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(expected, f)
        with open(os.path.join(args.out, name + ".cuh"), encoding="utf-8") as f:
            ty, valid, inverse = header_facts(f.read(), name)
        lengths = expected["lengths"]
        layouts.append({
            "name": name, "spec": spec, "rank": len(lengths), "lengths": lengths, "type": ty, "valid": valid,
            "inverse": inverse, "elements": product(lengths), "space": expected["element_space_size"],
        })
    driver = ["// Generated by gpu/codegen.py build: cktile's generated CUDA code on the GPU.",
              "#include <cstdio>", "#include <cstdlib>", "#include <vector>", HOST_EMULATION,
              "#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { "
              "std::fprintf(stderr, \"%s: %s\\n\", #call, cudaGetErrorString(e_)); std::exit(2); } } while (0)", ""]
    driver += [driver_part(l) for l in layouts]
    driver.append("int main() {")
    driver += [f"  run_{l['name']}();" for l in layouts]
    driver.append("  return 0;")
    driver.append("}")
    with open(os.path.join(args.out, "driver.cu"), "w", encoding="utf-8") as f:
        f.write("\n".join(driver) + "\n")
    with open(os.path.join(args.out, "layouts.json"), "w", encoding="utf-8") as f:
        json.dump(layouts, f, indent=1)
    coords = sum(l["elements"] for l in layouts)
    inverses = sum(l["space"] for l in layouts if l["inverse"])
    print(f"build: {len(layouts)} layouts ({len(catalogue)} catalogue examples, {len(specs) - len(catalogue)} listed), "
          f"{coords} coordinates, {inverses} inverse offsets, in {args.out}")


def load(out):
    path = os.path.join(out, "layouts.json")
    if not os.path.exists(path):
        fail(f"{path} is missing (run `gpu/codegen.py build {out}` where cktile is)")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check(args):
    layouts = load(args.out)
    with open(os.path.join(args.out, "driver.cu"), encoding="utf-8") as f:
        driver = f.read()
    for l in layouts:
        with open(os.path.join(args.out, l["name"] + ".cuh"), encoding="utf-8") as f:
            facts = header_facts(f.read(), l["name"])
        if facts != (l["type"], l["valid"], l["inverse"]):
            fail(f"{l['name']}.cuh does not declare what layouts.json says ({l['spec']})")
        if f"run_{l['name']}();" not in driver:
            fail(f"driver.cu does not run {l['name']}")
    print(f"check: {len(layouts)} layouts, headers and driver consistent")


def expected_lines(out, layout):
    with open(os.path.join(out, layout["name"] + ".json"), encoding="utf-8") as f:
        e = json.load(f)
    lines = [f"{o} {int(v)}" for o, v in zip(e["offsets"], e["valid"])]
    if layout["inverse"]:
        lengths = layout["lengths"]
        at = {}
        for t, (o, valid) in enumerate(zip(e["offsets"], e["valid"])):
            if not valid:
                continue  # padding: the inverse returns the valid coordinate
            c, rest = [], t
            for n in reversed(lengths):
                c.append(rest % n)
                rest //= n
            at[o] = list(reversed(c))
        for o in range(layout["space"]):
            lines.append(("inv " + " ".join(str(v) for v in at[o])).rstrip() if o in at else "inv ?")
    return lines


def run(args):
    exe = os.path.join(args.out, "driver")
    compile_and_compare(args.out, [args.nvcc, "-std=c++17", "-O2", f"-arch={args.arch}", "-o", exe], exe, "GPU")


def emulate(args):
    exe = os.path.join(args.out, "driver-host")
    flags = ["-std=c++17", "-O1", "-DCKTILE_HOST_EMULATION", "-D__device__=", "-D__global__=",
             "-D__forceinline__=inline", "-x", "c++"]
    compile_and_compare(args.out, [args.cxx, *flags, "-o", exe], exe, "host emulation")


def compile_and_compare(out, compiler, exe, where):
    layouts = load(out)
    b = subprocess.run([*compiler, os.path.join(out, "driver.cu")], capture_output=True, text=True)
    if b.returncode != 0:
        fail(f"`{compiler[0]}` failed on the generated code:\n" + "\n".join(b.stderr.splitlines()[:40]))
    r = subprocess.run([exe], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"the driver failed ({r.returncode}): {r.stderr.strip()}")
    got, current = {}, None
    for line in r.stdout.splitlines():
        if line.startswith("case "):
            current = got.setdefault(line[5:], [])
        elif current is not None:
            current.append(line.rstrip())
    bad, lines = 0, 0
    for l in layouts:
        want = expected_lines(out, l)
        have = got.get(l["name"], [])
        wrong = sum(1 for a, b in zip(have, want) if a != b) + abs(len(have) - len(want))
        lines += len(want)
        bad += wrong
        what = f"{l['elements']} offsets" + (" + validity" if l["valid"] else "") + \
               (f", {l['space']} inverse coordinates" if l["inverse"] else "")
        print(f"{l['name']:4} {'ok' if wrong == 0 else f'{wrong} WRONG'}: {what} ({l['type'][5:]}) {l['spec']}")
    print(f"run: {len(layouts)} layouts, {lines} values from the {where}, {lines - bad} as cktile computes "
          f"them, {bad} different")
    if bad:
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("out")
    b.add_argument("--cktile", default=os.environ.get("CKTILE", os.path.join(ROOT, "target", "release", "cktile")))
    c = sub.add_parser("check")
    c.add_argument("out")
    r = sub.add_parser("run")
    r.add_argument("out")
    r.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    r.add_argument("--arch", default="sm_90")
    e = sub.add_parser("emulate")
    e.add_argument("out")
    e.add_argument("--cxx", default=os.environ.get("CKTILE_CXX", "g++"))
    args = parser.parse_args()
    {"build": build, "check": check, "run": run, "emulate": emulate}[args.command](args)


if __name__ == "__main__":
    main()
