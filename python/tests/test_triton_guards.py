"""``from_triton`` never hands Triton an input Triton asserts on.

Triton's C++ ends the whole process (SIGABRT, SIGFPE, "LLVM ERROR") where it cannot compute a linear
layout: a shape that is not a power of two or has a zero, a rank that does not match ``order``, a
``per_phase`` of 0, an NVMMA shape narrower than its swizzle. cktile checks every value it hands to
Triton first and raises ``cktile.Error`` naming it. Each case here runs in a child interpreter, so a
regression shows as a failed test (the child's exit status and stderr) instead of killing pytest.
"""

import re
import subprocess
import sys

import pytest

import cktile
from triton.experimental.gluon import language as gl

CASES = [
    # The cases: a shape of 3, a zero, a rank that does not match the order, an NVMMA swizzle too wide.
    ("gl.SwizzledSharedLayout(8, 1, 8, [1, 0])", [3, 64], r"^shape\[0\]: 3 is not a power of two from 1 to 2\^30"),
    ("gl.SwizzledSharedLayout(8, 1, 8, [1, 0])", [0, 64], r"^shape\[0\]: 0 is not a power of two"),
    ("gl.SwizzledSharedLayout(8, 1, 8, [1, 0])", [64], r"^SwizzledSharedLayout\.order: \[1, 0\] is not a permutation of 0\.\.0"),
    ("gl.SwizzledSharedLayout(8, 1, 8, [1, 0])", [4, 16, 16], r"^SwizzledSharedLayout\.order: \[1, 0\] is not a permutation of 0\.\.2"),
    ("gl.SwizzledSharedLayout(8, 1, 8, [])", [16, 16], r"^SwizzledSharedLayout\.order: \[\] is not a permutation"),
    ("gl.NVMMASharedLayout(128, 16)", [8, 8],
     r"^shape: \[8, 8\]: dimension 1, the contiguous one, holds 8 elements; a 128-byte swizzle of 16-bit elements spans 64"),
    ("gl.NVMMASharedLayout(64, 16, transposed=True)", [8, 64], r"^shape: \[8, 64\]: dimension 0, the contiguous one, holds 8"),
    ("gl.NVMMASharedLayout(32, 8)", [4, 128],
     r"^shape: \[4, 128\]: the dimensions before the last hold 4 rows; an NVMMA swizzle repeats every 8 rows"),
    ("gl.NVMMASharedLayout(32, 64, transposed=True)", [64, 4], r"^shape: \[64, 4\]: dimension 1 hold 4 rows"),
    ("gl.NVMMASharedLayout(128, 16, rank=3)", [64, 64], r"^NVMMASharedLayout\.rank: 3, but shape \[64, 64\] has 2 dimensions"),
    ("gl.NVMMASharedLayout(128, 16, rank=1)", [64], r"^shape: \[64\]; an NVMMA layout with a 128-byte swizzle is 2-D or more"),
    # Triton divides by per_phase and max_phase (SIGFPE), and asserts on a negative vec or a dimension of 2^31.
    ("gl.SwizzledSharedLayout(1, 0, 8, [1, 0])", [16, 16], r"^SwizzledSharedLayout\.per_phase: 0 is out of range"),
    ("gl.SwizzledSharedLayout(1, 1, 0, [1, 0])", [16, 16], r"^SwizzledSharedLayout\.max_phase: 0 is out of range"),
    ("gl.SwizzledSharedLayout(-1, 1, 8, [1, 0])", [16, 16], r"^SwizzledSharedLayout\.vec: -1 is out of range"),
    ("gl.SwizzledSharedLayout(2**31, 1, 8, [1, 0])", [16, 16], r"^SwizzledSharedLayout\.vec: 2147483648 is out of range"),
    ("gl.SwizzledSharedLayout(2**20, 1, 2**20, [1, 0])", [16, 16], r"^SwizzledSharedLayout: vec 1048576 times max_phase"),
    ("gl.SwizzledSharedLayout(2, 1, 4, [1, 0])", [2**31, 1], r"^shape\[0\]: 2147483648 is not a power of two from 1 to 2\^30"),
    ("gl.SwizzledSharedLayout(2, 1, 4, [1, 0], cga_layout=[[1, 0]])", [16, 16], r"^SwizzledSharedLayout: cktile imports one CTA"),
    # What Triton raises rather than asserts (a 1x1 tile has no bases) is a cktile.Error too.
    ("gl.NVMMASharedLayout(0, 8)", [1, 1], r"^Triton cannot compute the linear layout of NVMMASharedLayout"),
]


def run_child(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("layout,shape,message", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_what_triton_would_abort_on_is_a_cktile_error(layout, shape, message):
    code = f"""
import cktile
from triton.experimental.gluon import language as gl
try:
    cktile.from_triton({layout}, {shape!r})
except cktile.Error as e:
    print("cktile.Error:", e)
else:
    print("accepted")
"""
    child = run_child(code)
    assert child.returncode == 0, f"the interpreter ended with {child.returncode}: {child.stderr[-1500:]}"
    assert child.stdout.startswith("cktile.Error: "), child.stdout
    text = child.stdout[len("cktile.Error: ") :].strip()
    assert re.search(message, text), text


def test_the_checks_refuse_nothing_triton_computes_in_range():
    # The shapes Triton takes for each NVMMA swizzle and element width, at the edge of what the checks allow:
    # the contiguous dimension exactly one swizzle row wide and eight rows, plain and transposed, imported
    # and equal to Triton's own offsets (test_importers holds the map; here, that nothing in range is refused).
    for swizzle in (32, 64, 128):
        for bits in (8, 16, 32, 64):
            span = 8 * swizzle // bits
            for transposed, shape in ((False, [8, span]), (True, [span, 8])):
                layout = gl.NVMMASharedLayout(swizzle, bits, transposed=transposed)
                imported = cktile.from_triton(layout, shape)
                assert imported.shape == tuple(shape) and imported.element_bytes == bits // 8
                assert imported.check().bijective
