"""Gluon's ``bank_conflicts`` against cktile, in Gluon's own units.

Gluon's helper (Triton's C++ ``bankConflictsMemDesc``) returns the *excess*
wavefronts per wavefront, not the ways: 0 is conflict-free, 1 is 2-way. On
Triton's NVMMA encoding (64 x 64 fp16, 64-byte swizzle) read as 128-bit rows,
a quarter-warp reads bytes 0-63 of each of the tile's two 64 x 32 atoms,
4096 bytes apart: the same 16 banks twice. Gluon returns 1; cktile says
2-way, 2 wavefronts a quarter-warp; an H200 measured 128 wavefronts and 64
conflicts for the 16 instructions (``cktile gpu-cases`` case 143,
gpu/measured/h200-measurements.md).
"""

import pathlib
import sys

import numpy as np

import cktile

# Test dependencies (CI installs them): a missing one fails the run.
from triton.experimental.gluon import language as gl

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "bench"))
from compare import Gluon  # noqa: E402  (the benchmark's Gluon driver: one module, the helper called on the CPU)

# The layout of `cktile gpu-cases` case 143: two Swizzle<2,3,3> atoms of 64 x 32, side by side.
CASE_143 = (
    "packed((4096)) | transform(swizzle(2,3,3) on [0] -> [0]) | transform(unmerge((2,64,32)) on [0] -> [0,1,2])"
    " | transform(pass_through(64) on [1] -> [0], merge((2,32)) on [0,2] -> [1])"
)
ROWS, COLS, VEC = 64, 64, 8


def rows_register_layout(g):
    """The `rows` pattern as a Gluon register layout: a lane's 8 fp16 along a row, lanes 0-7 across
    row 0, lanes 8-31 the next three rows, then the instructions down the tile (4 rows each)."""
    regs = [[0, 1], [0, 2], [0, 4], [4, 0], [8, 0], [16, 0], [32, 0]]
    lanes = [[0, 8], [0, 16], [0, 32], [1, 0], [2, 0]]
    return g.register_layout(regs, lanes, (ROWS, COLS))


def test_nvmma_rows_is_two_way_in_gluons_units_and_cktiles():
    nvmma = gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2)
    layout = cktile.from_triton(nvmma, [ROWS, COLS], "fp16")
    offsets = layout.offsets()
    assert np.array_equal(offsets, cktile.Layout(CASE_143, "fp16").offsets())
    assert offsets[0, 32] == 2048  # the second atom: byte 4096

    g = Gluon("sm90")
    excess = g.conflicts(rows_register_layout(g), nvmma, (ROWS, COLS), 16)
    assert excess == 1  # one extra wavefront per quarter-warp

    report = layout.analyze("sm90", "rows", op="ld.shared.b128")
    assert (report.max_ways, report.instructions, report.phases, report.cycles) == (2, 16, 64, 128)
    assert report.max_ways == excess + 1

    # The first instruction's addresses, lane by lane, through the one-instruction entry.
    first = [2 * int(offsets[lane // 8, (lane % 8) * VEC]) for lane in range(32)]
    assert first[:8] == [0, 16, 32, 48, 4096, 4112, 4128, 4144]
    assert cktile.bank("sm90", "ld.shared.b128", first).max_ways == 2


def test_gluon_counts_no_excess_where_cktile_counts_one_way():
    # The same pattern over the 128-byte swizzle: every quarter-warp reads one 128-byte row.
    nvmma = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)
    layout = cktile.from_triton(nvmma, [ROWS, COLS], "fp16")
    g = Gluon("sm90")
    assert g.conflicts(rows_register_layout(g), nvmma, (ROWS, COLS), 16) == 0
    assert layout.analyze("sm90", "rows", op="ld.shared.b128").max_ways == 1
