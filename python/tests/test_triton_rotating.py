"""AMD's rotating shared layout (``#ttg.amd_rotating_shared``), imported by ``from_triton``, against Triton.

Triton 3.9 cannot evaluate this encoding from Python: Gluon has no class for it, its builder no
constructor, and ``to_linear_layout`` takes only an attribute the builder made. So each case here is
checked against what Triton itself ships instead:

- an independent rewrite of Triton's C++ ``sharedToLinearLayoutAMDRotating`` (the bases, then every
  offset's coordinate as the XOR of its bits' bases), element by element;
- the three example tables in Triton's own ``TritonGPUAttrDefs.td``, read from the installed package;
- the layouts Triton's AMD backend picks for ``tl.dot`` operands, compiled on the CPU for each AMD target
  (no GPU), which must import.
"""

import json
import pathlib
import re

import numpy as np
import pytest

import cktile

from triton_rotating_reference import rotating_offsets


def text(vec, per_phase, max_phase, order):
    return f"#ttg.amd_rotating_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, order = {order}}}>"


SHAPES = {2: [[8, 4], [64, 128], [128, 64], [16, 16], [256, 32], [1, 64], [32, 1]], 3: [[2, 16, 32], [4, 8, 64]]}
ORDERS = {2: [[1, 0], [0, 1]], 3: [[2, 1, 0], [0, 1, 2], [1, 2, 0], [2, 0, 1]]}


@pytest.mark.parametrize("vec", [1, 2, 4, 8, 16])
@pytest.mark.parametrize("per_phase,max_phase", [(1, 1), (1, 4), (1, 8), (1, 16), (2, 4), (2, 8), (4, 4), (4, 2)])
@pytest.mark.parametrize("dtype", ["fp16", "fp8"])
def test_rotating_layouts_are_tritons_at_every_coordinate(vec, per_phase, max_phase, dtype):
    for rank in (2, 3):
        for shape in SHAPES[rank]:
            for order in ORDERS[rank]:
                imported = cktile.from_triton(text(vec, per_phase, max_phase, order), shape, dtype)
                assert imported.shape == tuple(shape) and imported.element_bytes == (2 if dtype == "fp16" else 1)
                want = rotating_offsets(vec, per_phase, max_phase, order, shape)
                assert np.array_equal(imported.offsets(), want), (vec, per_phase, max_phase, order, shape)


def test_parameters_triton_never_picks_are_still_triton_bit_by_bit():
    # Triton takes any vec, perPhase and maxPhase, one power-of-two row at a time; so does cktile.
    for vec, per_phase, max_phase in [(3, 1, 4), (4, 3, 4), (2, 1, 3), (0, 1, 8), (5, 2, 2)]:
        for order in ([1, 0], [0, 1]):
            imported = cktile.from_triton(text(vec, per_phase, max_phase, order), [32, 16])
            assert np.array_equal(imported.offsets(), rotating_offsets(vec, per_phase, max_phase, order, [32, 16]))


def _documented_tables():
    """The ``#shared<{vec=1, perPhase=P, maxPhase=M, order=[1,0]}>`` tables in Triton's own attribute docs."""
    import triton

    td = pathlib.Path(triton.__file__).parent / "include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td"
    source = td.read_text()
    start = source.index("def AMDRotatingSharedEncodingAttr")
    doc = source[start : source.index("let parameters", start)]
    tables = []
    for header in re.finditer(r"#shared<\{vec=(\d+), perPhase=(\d+), maxPhase=(\d+), order=\[1,0\]\}>", doc):
        rows = re.findall(r"^\s*\d+\s+\[([\d,\s]+)\]", doc[header.end() :], re.M)[:8]
        tables.append((tuple(map(int, header.groups())), [[int(x) for x in r.split(",")] for r in rows]))
    return tables


def test_rotating_layouts_match_the_tables_in_tritons_documentation():
    tables = _documented_tables()
    assert len(tables) == 3
    for (vec, per_phase, max_phase), rows in tables:
        imported = cktile.from_triton(text(vec, per_phase, max_phase, [1, 0]), [8, 4])
        offsets = imported.offsets()
        # Row r of a table lists the elements stored at offsets 4r .. 4r + 3 (element e is (e // 4, e % 4)).
        for r, held in enumerate(rows):
            assert [offsets[e // 4, e % 4] for e in held] == list(range(4 * r, 4 * r + 4)), (per_phase, max_phase, r)


def test_a_rotating_layout_round_trips_through_export():
    # Gluon has no rotating class: the export is its linear layout, which reads back to the same offsets.
    for shape, order in (([64, 128], [0, 1]), ([128, 64], [1, 0]), ([2, 32, 64], [2, 1, 0])):
        imported = cktile.from_triton(text(4, 1, 16, order), shape, "fp16")
        back = cktile.from_triton(imported.to_triton(), shape, "fp16")
        assert np.array_equal(back.offsets(), imported.offsets())
        assert type(imported.to_triton()).__name__ == "SharedLinearLayout"


def test_the_cli_reads_the_same_entry(cli):
    imported = cktile.from_triton(text(8, 2, 8, [0, 1]), [64, 128], "fp8")
    assert imported.source == "triton-rotating:vec=8,perphase=2,maxphase=8,order=01,rows=64,cols=128"
    exported = json.loads(cli.json("export", imported.source, "--as", "triton"))
    assert exported["offset_bases"] == imported.to_triton().offset_bases


class AMDRotatingSharedLayout:  # what a Gluon class would look like: read by its attributes
    def __init__(self, vec, per_phase, max_phase, order):
        self.vec, self.per_phase, self.max_phase, self.order = vec, per_phase, max_phase, order


def test_an_object_named_like_gluons_reads_the_same():
    a = cktile.from_triton(AMDRotatingSharedLayout(4, 1, 16, [0, 1]), [64, 128])
    b = cktile.from_triton("#shared1 = #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>",
                           [64, 128])
    assert a.source == b.source


BAD = [
    (text(4, 1, 16, [0, 1]), [48, 128], r"^shape\[0\]: 48 is not a power of two from 1 to 2\^30"),
    (text(4, 0, 16, [0, 1]), [64, 64], r"^AMDRotatingSharedLayout\.per_phase: 0 is out of range"),
    (text(4, 1, 0, [0, 1]), [64, 64], r"^AMDRotatingSharedLayout\.max_phase: 0 is out of range"),
    (text(-1, 1, 16, [0, 1]), [64, 64], r"^AMDRotatingSharedLayout\.vec: -1 is out of range"),
    (text(2**20, 1, 2**20, [0, 1]), [64, 64], r"^AMDRotatingSharedLayout: vec 1048576 times the largest phase"),
    (text(4, 1, 16, [1, 0]), [4, 8, 8], r"^AMDRotatingSharedLayout\.order: \[1, 0\] is not a permutation of 0\.\.2"),
    (text(4, 1, 16, [1, 1]), [8, 8], r"^AMDRotatingSharedLayout\.order: \[1, 1\] is not a permutation"),
    ("#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, order = [0, 1]}>", [8, 8], r": no maxPhase;"),
    ("#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = x, order = [0, 1]}>", [8, 8],
     r"`maxPhase` = 'x' is not an integer"),
    ("#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], CTAsPerCGA = [2, 1]}>", [8, 8],
     r"key `CTAsPerCGA`; cktile reads one CTA's"),
    ("#ttg.nvmma_shared<{swizzlingByteWidth = 128}>", [8, 8], r"#ttg\.nvmma_shared is not one of them"),
    ("amd_rotating_shared vec=4", [8, 8], r"not `#ttg\.NAME<\{key = value, \.\.\.\}>`"),
    ("#ttg.amd_rotating_shared<{" + "vec = 4, " * 1000 + "}>", [8, 8], r"longer than 4096 characters"),
]


@pytest.mark.parametrize("layout,shape,message", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_rotating_layouts_are_errors_naming_the_value(layout, shape, message):
    with pytest.raises(cktile.Error, match=message):
        cktile.from_triton(layout, shape)


# What tl.dot picks on each AMD target: Triton 3.9's AMD backend compiled to TTGIR on the CPU.
DOT_TARGETS = [("gfx942", "fp16"), ("gfx942", "fp8e4b8"), ("gfx950", "fp16"), ("gfx1100", "fp16"),
               ("gfx1201", "fp8e4nv"), ("gfx90a", "fp16"), ("gfx1250", "fp16")]


def _as_layout(encoding):
    """The IR text from_triton reads, or gfx1250's padded layout (identity with an order) as Gluon's object."""
    padded = re.fullmatch(r"#ttg\.padded_shared<\[(\d+):\+(\d+)\] \{order = \[([\d, ]+)\], shape = \[([\d, ]+)\]\}>", encoding)
    if padded is None:
        return encoding
    from triton.experimental.gluon import language as gl

    interval, pad, order, shape = padded.groups()
    ints = lambda t: [int(x) for x in t.split(",")]  # noqa: E731
    return gl.PaddedSharedLayout.with_identity_for([[int(interval), int(pad)]], ints(shape), ints(order))


def _dot_ttgir(arch, dtype, b_k_contiguous):
    import triton
    import triton.language as tl
    from triton._C.libtriton import ir
    from triton.backends.amd.compiler import HIPBackend
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    @triton.jit
    def gemm(a_ptr, b_ptr, c_ptr, K: tl.constexpr, N: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
             BK: tl.constexpr, BT: tl.constexpr):
        rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
            if BT:
                b = tl.load(b_ptr + rn[None, :] * K + (k + rk)[:, None])
            else:
                b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
            acc += tl.dot(a, b)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)

    target = GPUTarget("hip", arch, 32 if arch.startswith("gfx1") else 64)
    consts = dict(K=1024, N=256, BM=128, BN=128, BK=64, BT=b_k_contiguous)
    src = ASTSource(fn=gemm, signature={"a_ptr": f"*{dtype}", "b_ptr": f"*{dtype}", "c_ptr": "*fp32",
                                        **{c: "constexpr" for c in consts}}, constexprs=consts)
    backend = HIPBackend(target)
    options = backend.parse_options({"num_warps": 4, "num_stages": 2})
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    module = src.make_ir(target, options, backend.get_codegen_implementation(options), backend.get_module_map(), context)
    stages: dict = {}
    backend.add_stages(stages, options, src.language)
    metadata: dict = {}
    module = stages["ttgir"](stages["ttir"](module, metadata), metadata)
    return str(module)


@pytest.mark.parametrize("arch,dtype", DOT_TARGETS)
def test_the_layouts_tl_dot_picks_import(arch, dtype, monkeypatch):
    monkeypatch.setenv("TRITON_DEFAULT_FP_FUSION", "1")  # Triton 3.9 warns when it is unset
    picked = {}
    for b_k_contiguous in (0, 1):
        ir_text = _dot_ttgir(arch, dtype, b_k_contiguous)
        aliases = dict(re.findall(r"^(#\w+) = (#ttg\.\w+<.*>)$", ir_text, re.M))
        for shape, enc in re.findall(r"!ttg\.memdesc<(?:\d+x)?(\d+x\d+)x\w+, (#\w+)", ir_text):
            if "shared" in aliases.get(enc, ""):
                picked[(shape, aliases[enc])] = b_k_contiguous
    assert picked
    rotating = 0
    for (shape, encoding), _ in picked.items():
        dims = [int(d) for d in shape.split("x")]
        imported = cktile.from_triton(_as_layout(encoding), dims)
        assert imported.shape == tuple(dims)
        assert imported.check().bijective == ("padded_shared" not in encoding)
        rotating += "amd_rotating_shared" in encoding
    # CDNA3 and RDNA3/4 rotate B when it arrives N-contiguous; CDNA2 and CDNA4 (transposing LDS reads) do not.
    assert (rotating > 0) == (arch in ("gfx942", "gfx1100", "gfx1201")), picked
