"""Every importer's round trip, against the source library's own evaluation.

An imported layout must give, at every coordinate, the offset its source
library computes: pycute's and tensor-layouts' `layout(*coordinate)`, and for
Triton the inverse of the linear layout Triton itself builds (on the CPU).
"""

import itertools
import random

import numpy as np
import pytest

import cktile
from cktile.importers import cute_spec, linear_bases_spec

# The source libraries are test dependencies (pyproject.toml's `test` extra; CI installs them): a
# missing one fails the run rather than skipping the round trips.
import pycute
import tensor_layouts as tl
from triton.experimental.gluon import language as gl


def coordinates(shape):
    return itertools.product(*(range(n) for n in shape))


def assert_same_map(imported, evaluate, shape):
    """Every top coordinate's offset equals the source's; returns how many were compared."""
    offsets = imported.offsets()
    assert offsets.shape == tuple(shape)
    n = 0
    for c in coordinates(shape):
        assert offsets[c] == evaluate(*c), (c, int(offsets[c]), evaluate(*c))
        n += 1
    return n


def random_mode(rng, depth):
    """A random (sub)shape and a matching stride tree."""
    if depth == 0 or rng.random() < 0.5:
        return rng.choice([1, 2, 3, 4, 8]), None
    subs = [random_mode(rng, depth - 1)[0] for _ in range(rng.choice([2, 3]))]
    return tuple(subs), None


def with_strides(rng, shape):
    if isinstance(shape, int):
        return rng.choice([0, 1, 2, 3, 8, 16, 64, 100])
    return tuple(with_strides(rng, s) for s in shape)


def flat_count(shape):
    return 1 if isinstance(shape, int) else sum(flat_count(s) for s in shape)


def random_layouts(rng, count):
    """Random CuTe layouts of rank 1 to 3, nested up to depth 2, at most 8 flat modes."""
    out = []
    while len(out) < count:
        shape = tuple(random_mode(rng, 2)[0] for _ in range(rng.choice([1, 2, 3])))
        if flat_count(shape) > 8:
            continue
        out.append((shape, with_strides(rng, shape)))
    return out


def top_shape(layout):
    shape = layout.shape
    modes = shape if isinstance(shape, tuple) else (shape,)
    return tuple(int(np.prod(pycute.flatten(m))) if isinstance(m, tuple) else m for m in modes)


@pytest.mark.parametrize("seed", range(4))
def test_pycute_layouts_round_trip(seed):
    rng = random.Random(seed)
    compared = 0
    for shape, stride in random_layouts(rng, 50):
        src = pycute.Layout(shape, stride)
        compared += assert_same_map(cktile.from_cute(src), src, top_shape(src))
    assert compared > 1000


@pytest.mark.parametrize("seed", range(3))
def test_swizzled_pycute_layouts_round_trip(seed):
    rng = random.Random(100 + seed)
    checked = 0
    for _ in range(40):
        bits, base = rng.choice([1, 2, 3]), rng.choice([0, 1, 2, 3, 4])
        shift = rng.choice([bits, bits + 1, 3, -bits, -3]) if base >= 3 else rng.choice([bits, 3])
        if abs(shift) < bits or base + min(0, shift) < 0:
            continue
        rows, cols = rng.choice([8, 16, 32]), rng.choice([16, 32, 64])
        offset = rng.choice([0, 0, 64, 1024])
        inner = pycute.Layout((rows, cols), (cols, 1) if rng.random() < 0.5 else (1, rows))
        src = pycute.ComposedLayout(pycute.Swizzle(bits, base, shift), offset, inner)
        imported = cktile.from_cute(src, "fp16")
        assert_same_map(imported, src, (rows, cols))
        checked += 1
    assert checked >= 20


def test_nested_swizzled_layout_with_a_pycute_offset():
    # Swizzle<2,3,3> o 512 o ((8,2),(4,16)):((16,512),(4,1)) - hierarchical modes under a swizzle.
    inner = pycute.Layout(((8, 2), (4, 16)), ((16, 512), (4, 1)))
    src = pycute.ComposedLayout(pycute.Swizzle(2, 3, 3), 512, inner)
    assert_same_map(cktile.from_cute(src), src, (16, 64))


def test_tensor_layouts_round_trip():
    rng = random.Random(7)
    for shape, stride in random_layouts(rng, 60):
        src = tl.Layout(shape, stride)
        assert_same_map(cktile.from_cute(src), src, top_shape(pycute.Layout(shape, stride)))
    for b, m, s in [(3, 3, 3), (2, 4, 3), (1, 2, 2), (3, 4, 3)]:
        src = tl.compose(tl.Swizzle(b, m, s), tl.Layout((16, 64), (64, 1)))
        assert_same_map(cktile.from_cute(src), src, (16, 64))


def test_pycute_and_tensor_layouts_import_to_the_same_spec():
    for shape, stride in random_layouts(random.Random(3), 30):
        assert cute_spec(pycute.Layout(shape, stride)) == cute_spec(tl.Layout(shape, stride))


def cpp_text(tree):
    """A shape or stride as C++ CuTe prints a static one: (_16,(_2,_4))."""
    if isinstance(tree, int):
        return f"_{tree}"
    return "(" + ",".join(cpp_text(t) for t in tree) + ")"


def dsl_text(tree):
    """As CuTe DSL prints it: (16,(2,4))."""
    return cpp_text(tree).replace("_", "")


def test_printed_cute_layouts_round_trip():
    # pycute's and tensor-layouts' own str(), C++ CuTe's print (static _N integers) and CuTe DSL's.
    rng = random.Random(21)
    for shape, stride in random_layouts(rng, 60):
        src = pycute.Layout(shape, stride)
        want = cktile.from_cute(src).offsets()
        texts = [
            str(src),
            str(tl.Layout(shape, stride)),
            f"{cpp_text(shape)}:{cpp_text(stride)}",
            f"{dsl_text(shape)}:{dsl_text(stride)}",
        ]
        for text in texts:
            assert np.array_equal(cktile.from_cute(text).offsets(), want), text
    inner = pycute.Layout((16, 64), (64, 1))
    for b, m, s_, off in [(3, 3, 3, 0), (2, 4, 3, 1024), (1, 2, -2, 0)]:
        src = pycute.ComposedLayout(pycute.Swizzle(b, m, s_), off, inner)
        texts = [
            str(src),
            f"Sw<{b},{m},{s_}> o _{off} o (_16,_64):(_64,_1)",
            f"S<{b},{m},{s_}> o {off} o (16,64):(64,1)",
        ]
        if off == 0:
            texts.append(str(tl.compose(tl.Swizzle(b, m, s_), tl.Layout((16, 64), (64, 1)))))
        for text in texts:
            assert_same_map(cktile.from_cute(text), src, (16, 64))


def test_tensor_layouts_printed_compositions_round_trip():
    # tensor-layouts prints an offset in braces ({32}) and wraps the inner layout in parentheses, a rank-1
    # one too ((8 : 1)); every printed form reads back to the map the object computes.
    rng = random.Random(63)
    layouts = [((8,), (1,)), (8, 1), ((4, 8), (8, 1)), (((2, 2), 8), ((1, 16), 2))]
    layouts += random_layouts(rng, 20)
    for shape, stride in layouts:
        for offset in (0, 32, 7):
            for b, m, s_ in ((2, 0, 2), (1, 1, 2), (3, 3, 3)):
                src = tl.ComposedLayout(tl.Swizzle(b, m, s_), tl.Layout(shape, stride), offset=offset)
                text = str(src)
                assert ("{%d}" % offset in text) == (offset != 0), text
                imported = cktile.from_cute(text)
                n = assert_same_map(imported, lambda *c: src(c if len(c) > 1 else c[0]), imported.shape)
                assert n == int(np.prod(imported.shape)), text


def test_printed_cute_refusals_point_at_the_fault():
    with pytest.raises(cktile.Error, match=r"expected `:` at character 8, found the end"):
        cktile.from_cute("(16,64)")
    with pytest.raises(cktile.Error, match=r"expected an integer at character 2, found 'x,64\):\(64,1\)'"):
        cktile.from_cute("(x,64):(64,1)")
    with pytest.raises(cktile.Error, match=r"expected the end of the layout at character 16, found .junk."):
        cktile.from_cute("(16,64):(64,1) junk")
    with pytest.raises(cktile.Error, match=r"'\\x1b\[31m\\u202e'") as e:
        cktile.from_cute("\x1b[31m\u202e")
    assert "\x1b" not in str(e.value) and "\u202e" not in str(e.value)
    with pytest.raises(cktile.Error, match=r"mode 1: shape 64 has stride \(1, 2\)"):
        cktile.from_cute("(16,64):(64,(1,2))")
    with pytest.raises(cktile.Error, match=r"mode 1: shape \(2, 4\) and stride \(1, 2, 3\) are not congruent"):
        cktile.from_cute("(16,(2,4)):(64,(1,2,3))")


@pytest.mark.parametrize(
    "text",
    ["(8,8):(1,)", "(8,8):(1)", "(8,8):(1,8,5)", "8:(1,8)", "(8,):(1,8)", "(4,(2,2)):(1,(4,8),16)",
     "Sw<3,3,3> o 0 o (8,8):(1,)"],
)
def test_cute_text_whose_stride_differs_from_its_shape_is_refused(text):
    # The extra or missing top-level modes used to vanish, importing another layout.
    with pytest.raises(cktile.Error, match=r"are not congruent"):
        cktile.from_cute(text)


@pytest.mark.parametrize(
    "swizzle,fault",
    [("Sw<99,99,99>", r"B \+ M \+ \|S\| = 297"), ("Sw<3,3,1>", r"Swizzle<3,3,1>: "), ("Sw<20,30,20>", r"= 70")],
)
def test_a_swizzle_out_of_range_is_named_as_written(swizzle, fault):
    # The error once named a derived spec number (2^297) the user never wrote.
    with pytest.raises(cktile.Error, match=fault) as e:
        cktile.from_cute(f"{swizzle} o 0 o (8,8):(8,1)")
    assert "packed(" not in str(e.value) and len(str(e.value)) < 300, str(e.value)


def test_cute_objects_whose_stride_differs_from_their_shape_are_refused():
    class Printed:  # any object with a shape and a stride, as the importer reads them
        shape, stride = (8, 8), (1, 8, 5)

    with pytest.raises(cktile.Error, match=r"shape \(8, 8\) and stride \(1, 8, 5\) are not congruent"):
        cktile.from_cute(Printed())


def test_cute_refusals_name_the_problem():
    with pytest.raises(cktile.Error, match="bare Swizzle has no shape"):
        cktile.from_cute(pycute.Swizzle(3, 3, 3))
    with pytest.raises(cktile.Error, match="not a CuTe layout"):
        cktile.from_cute(object())
    with pytest.raises(cktile.Error, match="must be non-negative"):
        cktile.from_cute(pycute.ComposedLayout(pycute.Swizzle(1, 1, 1), 0, pycute.Layout((4,), (-1,))))


def test_the_imported_swizzle_is_the_catalogues():
    # CuTe's SM80 fp16 atom imported from pycute is cktile's cute-swizzle entry, coordinate for coordinate.
    src = pycute.ComposedLayout(pycute.Swizzle(3, 3, 3), 0, pycute.Layout((16, 64), (64, 1)))
    entry = cktile.Layout("cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64")
    assert np.array_equal(cktile.from_cute(src).offsets(), entry.offsets())


# Triton ---------------------------------------------------------------------

def triton_linear(layout, shape):
    from cktile.importers import _linear

    return _linear(layout, shape)


def assert_inverts_triton(imported, ll, shape):
    """Offset o sits at the coordinate Triton's linear layout maps o to (the XOR of its bases)."""
    offsets = imported.offsets()
    bases = ll.offset_bases
    assert len(bases) == int(np.log2(np.prod(shape)))
    for o in range(int(np.prod(shape))):
        coord = [0] * len(shape)
        for bit, basis in enumerate(bases):
            if o >> bit & 1:
                coord = [c ^ b for c, b in zip(coord, basis)]
        assert offsets[tuple(coord)] == o


SWIZZLED = [
    (vec, per_phase, max_phase, order, shape)
    for vec, per_phase, max_phase in [(8, 1, 8), (4, 2, 4), (1, 1, 1), (8, 4, 2), (2, 1, 16), (16, 1, 4)]
    for order in ([1, 0], [0, 1])
    for shape in ([64, 64], [32, 128], [128, 16])
]


@pytest.mark.parametrize("vec,per_phase,max_phase,order,shape", SWIZZLED)
def test_triton_swizzled_shared_layouts_round_trip(vec, per_phase, max_phase, order, shape):
    layout = gl.SwizzledSharedLayout(vec=vec, per_phase=per_phase, max_phase=max_phase, order=order)
    assert_inverts_triton(cktile.from_triton(layout, shape, "fp16"), triton_linear(layout, shape), shape)


# Every NVMMA layout Triton builds, but the transposed 128-byte fp8 one, whose construction
# aborts Triton's process (its C++ asserts: fp8 wgmma operands are K-major only).
NVMMA = [
    (swizzle, bits, transposed)
    for swizzle in (0, 32, 64, 128)
    for bits in (8, 16, 32)
    for transposed in (False, True)
    if (swizzle, bits, transposed) != (128, 8, True)
]


@pytest.mark.parametrize("swizzle,bits,transposed", NVMMA)
def test_triton_nvmma_shared_layouts_round_trip(swizzle, bits, transposed):
    layout = gl.NVMMASharedLayout(swizzle_byte_width=swizzle, element_bitwidth=bits, rank=2, transposed=transposed)
    shape = [64, 128]
    dtype = {8: "fp8", 16: "fp16", 32: "fp32"}[bits]
    assert_inverts_triton(cktile.from_triton(layout, shape, dtype), triton_linear(layout, shape), shape)


PADDED = [
    (pairs, shape, order)
    for pairs in ([[64, 8]], [[32, 4]], [[32, 4], [128, 8]], [[16, 2], [256, 16]], [[8, 2], [64, 8]], [[8192, 8]])
    for shape in ([64, 64], [32, 128])
    for order in ([1, 0], [0, 1])
]


@pytest.mark.parametrize("pairs,shape,order", PADDED)
def test_triton_padded_shared_layouts_keep_their_padding(pairs, shape, order):
    # The padding was once dropped. Triton's rule, written here from its definition: linear
    # offset u (the XOR of the bases of its bits) is stored at u + sum(u // interval * padding).
    layout = gl.PaddedSharedLayout.with_identity_for(pairs, shape, order)
    imported = cktile.from_triton(layout, shape, "fp16")
    offsets = imported.offsets()
    bases = layout.offset_bases
    for u in range(int(np.prod(shape))):
        coord = [0] * len(shape)
        for bit, basis in enumerate(bases):
            if u >> bit & 1:
                coord = [c ^ b for c, b in zip(coord, basis)]
        assert offsets[tuple(coord)] == u + sum(u // i * p for i, p in pairs), (coord, u)
    assert imported.check().injective


def test_the_issues_padded_layout():
    layout = gl.PaddedSharedLayout.with_identity_for([[64, 8]], [64, 64], [1, 0])
    imported = cktile.from_triton(layout, [64, 64], dtype="fp16")
    assert (imported.offset(1, 0), imported.offset(63, 63), imported.element_space_size) == (72, 4599, 4600)
    assert imported.analyze("gfx942", "rows", op="ds_read_b128").max_ways == cktile.Layout(
        "row-padded:rows=64,cols=64,pad=8", "fp16"
    ).analyze("gfx942", "rows", op="ds_read_b128").max_ways


def test_triton_layouts_it_cannot_represent_are_refused_by_kind():
    class PartitionedSharedLayout:  # a kind from_triton does not know
        offset_bases = [[0, 1], [1, 0]]

    with pytest.raises(cktile.Error, match=r"^PartitionedSharedLayout: cktile imports Triton's shared layouts"):
        cktile.from_triton(PartitionedSharedLayout(), [2, 2])
    with pytest.raises(cktile.Error, match=r"interval 48 does not divide 4096 \(the tile size\)"):
        from cktile.importers import padded_spec

        padded_spec(gl.PaddedSharedLayout.with_identity_for([[64, 8]], [64, 64], [1, 0]).offset_bases, [64, 64], [[48, 8]])


def test_triton_swizzled_layout_is_the_catalogues_triton_entry():
    layout = gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])
    entry = cktile.Layout("triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64")
    assert np.array_equal(cktile.from_triton(layout, [64, 64]).offsets(), entry.offsets())


def test_shared_linear_layout_and_bases():
    bases = [[0, 1], [0, 2], [0, 4], [1, 2], [2, 4]]
    direct = cktile.from_linear_bases(bases, [4, 8])
    via = cktile.from_triton(gl.SharedLinearLayout(offset_bases=bases), [4, 8])
    assert direct.source == via.source == linear_bases_spec(bases)
    assert_inverts_triton(direct, gl.SharedLinearLayout(offset_bases=bases), [4, 8])


def test_linear_bases_refusals_name_the_basis():
    with pytest.raises(cktile.Error, match=r"offset_bases\[0\] = \[1, 1\] adds 2 new coordinate bits"):
        cktile.from_linear_bases([[1, 1], [0, 2]])
    with pytest.raises(cktile.Error, match=r"offset_bases\[1\] = \[0, 1\] adds no new coordinate bit"):
        cktile.from_linear_bases([[0, 1], [0, 1]])
    with pytest.raises(cktile.Error, match="bit 3 of dimension 1 is placed, but not every bit below it is"):
        cktile.from_linear_bases([[0, 1], [0, 2], [1, 0], [0, 8]])
    with pytest.raises(cktile.Error, match=r"offset_bases\[1\] = \[1, 1\] is XORed into by or into offset bit 1"):
        cktile.from_linear_bases([[0, 1], [1, 1], [1, 2], [0, 4]])
    with pytest.raises(cktile.Error, match="has not the 2 coordinates"):
        cktile.from_linear_bases([[0, 1], [0, 0, 2]])
    with pytest.raises(cktile.Error, match="negative"):
        cktile.from_linear_bases([[0, -1]])
    with pytest.raises(cktile.Error, match="empty"):
        cktile.from_linear_bases([])
    with pytest.raises(cktile.Error, match="differs from the 4x8"):
        cktile.from_linear_bases([[0, 1], [0, 2], [0, 4], [1, 2], [2, 4]], [8, 4])


def test_three_dimensional_triton_layouts_round_trip():
    for order in ([2, 1, 0], [1, 2, 0], [0, 1, 2]):
        layout = gl.SwizzledSharedLayout(vec=4, per_phase=1, max_phase=8, order=order)
        shape = [2, 32, 64]
        imported = cktile.from_triton(layout, shape, "fp16")
        assert imported.source.startswith("packed(4096)")  # no 2-D catalogue entry holds it
        assert_inverts_triton(imported, triton_linear(layout, shape), shape)


def random_bases(rng):
    """Random bases of the form cktile imports: a permutation of the coordinate bits, and XORs of the
    bits below a split into the bits above it."""
    rank = rng.choice([1, 2, 3])
    bits = [rng.randint(0 if rank > 1 else 1, 5) for _ in range(rank)]
    while sum(bits) < 2:
        bits[0] += 1
    placed = [(d, k) for d in range(rank) for k in range(bits[d])]
    # Bits of one dimension are placed low to high (cktile's unmerge/merge keeps each run in order).
    rng.shuffle(placed)
    placed.sort(key=lambda dk: (dk[0], dk[1]))
    runs, order = {}, []
    for d, k in placed:
        runs.setdefault(d, []).append((d, k))
    dims = list(runs)
    rng.shuffle(dims)
    queues = {d: list(v) for d, v in runs.items()}
    while any(queues.values()):
        d = rng.choice([d for d in dims if queues[d]])
        take = rng.randint(1, len(queues[d]))
        order += queues[d][:take]
        del queues[d][:take]
    n = len(order)
    split = rng.randint(1, n)
    bases = []
    for i, (d, k) in enumerate(order):
        v = [0] * rank
        v[d] |= 1 << k
        if i >= split and rng.random() < 0.6:
            for j in range(split):
                if rng.random() < 0.3:
                    dj, kj = order[j]
                    v[dj] ^= 1 << kj
        bases.append(v)
    return bases, [1 << b for b in bits]


def test_random_linear_layouts_round_trip():
    rng = random.Random(11)
    imported = refused = 0
    for _ in range(300):
        bases, shape = random_bases(rng)
        try:
            layout = cktile.from_linear_bases(bases, shape)
        except cktile.Error as e:
            # Only the descriptor's stage budget may refuse one of these (too many swizzle runs).
            assert "at most" in str(e) and "stage" in str(e), (bases, str(e))
            refused += 1
            continue
        assert_inverts_triton(layout, gl.SharedLinearLayout(offset_bases=bases), shape)
        assert layout.check().bijective
        imported += 1
    assert imported > 250, (imported, refused)


@pytest.mark.parametrize("swizzle,bits,transposed", [n for n in NVMMA if n[0] != 0])
def test_triton_nvmma_layouts_are_read_by_wgmma_and_written_by_tma_in_their_own_mode(swizzle, bits, transposed):
    # Triton's own linear layout of each swizzled NVMMA encoding (not cktile's catalogue entry):
    # tcgen05.mma reads it in the encoding's swizzle mode, K-major or (transposed) MN-major, and
    # one or more TMA copies of one box write it in the same mode, from a row-major (or, transposed,
    # column-major) global matrix.
    layout = gl.NVMMASharedLayout(swizzle_byte_width=swizzle, element_bitwidth=bits, rank=2, transposed=transposed)
    shape = [64, 128]
    dtype = {8: "fp8", 16: "fp16", 32: "fp32"}[bits]
    imported = cktile.from_triton(layout, shape, dtype)
    major = "mn" if transposed else "k"
    mode = f"{swizzle}b"
    r = imported.wgmma_descriptor("sm100", "b", major=major)
    assert r.readable and r.swizzle == mode and r.major == major, r.to_json()[:300]
    if bits == 16 or not transposed:
        assert imported.wgmma_descriptor("sm90", "b", major=major).swizzle == mode
    else:
        with pytest.raises(cktile.Error, match="16-bit elements only"):
            imported.wgmma_descriptor("sm90", "b", major=major)
    strides = [1, shape[0]] if transposed else [shape[1], 1]
    m = imported.tma_map(strides)
    assert m.writes and m.swizzle == mode, m.to_json()[:300]
    assert m.map.box_dim[0] * bits // 8 <= swizzle


def test_triton_imports_share_one_context_across_threads():
    # One MLIR context serves every import (creating one costs about a millisecond); under a lock, imports
    # from many threads give what one thread gives.
    from concurrent.futures import ThreadPoolExecutor

    from cktile import importers

    layouts = [gl.SwizzledSharedLayout(v, p, m, [1, 0]) for v, p, m in [(8, 1, 8), (4, 2, 4), (1, 1, 1), (8, 2, 4)]]
    layouts += [gl.NVMMASharedLayout(s, 16) for s in (32, 64, 128)]
    alone = [cktile.from_triton(l, [64, 64]).offsets() for l in layouts]
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(lambda l: cktile.from_triton(l, [64, 64]).offsets(), layouts * 4))
    assert all(np.array_equal(a, b) for a, b in zip(alone * 4, together))
    assert len(importers._TRITON_BUILDER) == 1


EXPORTED = [
    "packed((16,64))",
    "cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64",
    "cute-swizzle:b=2,mbase=2,s=3,rows=32,cols=32",
    "triton-swizzled:vec=4,perphase=2,maxphase=4,order=10,rows=32,cols=64",
    "triton-nvmma:swizzle=128,bits=16,rows=64",
    "ck-xor-preshuffle:m=16,k=64,kpack=8",
    "row-padded:rows=64,cols=64,pad=8",
    "row-padded:rows=32,cols=16,pad=4",
]


@pytest.mark.parametrize("entry", EXPORTED)
def test_exports_round_trip_through_the_peers(entry):
    layout = cktile.Layout(entry, "fp16")
    shape = list(layout.offsets().shape)
    back = cktile.from_triton(layout.to_triton(), shape, "fp16")
    assert np.array_equal(back.offsets(), layout.offsets())
    text = layout.to_cute()
    assert np.array_equal(cktile.from_cute(text).offsets(), layout.offsets())
    # pycute's own evaluation of the text, for the strided ones.
    if " o " not in text:
        shape_s, stride_s = text.split(":")
        cl = pycute.Layout(tuple(int(x) for x in shape_s.strip("()").split(",")), tuple(int(x) for x in stride_s.strip("()").split(",")))
        want = np.array([[cl((r, c)) for c in range(shape[1])] for r in range(shape[0])])
        assert np.array_equal(want, layout.offsets())


@pytest.mark.parametrize(
    "entry", EXPORTED + ["naive((2,3,4),(1,2,6))", "packed((8))", "naive((8,8),(9,1)) | transform(xor((8,8)) on [0,1] -> [0,1])"]
)
def test_cute_objects_are_the_layout_by_the_peers_own_evaluation(entry):
    """to_pycute() and to_tensor_layouts(), each evaluated by its own package at every coordinate, give the
    layout's offsets, and from_cute reads each back to the same map; a layout CuTe has no text for is refused."""
    layout = cktile.Layout(entry, "fp16")
    offsets = layout.offsets()
    try:
        text = layout.to_cute()
    except cktile.Error:
        for export in (layout.to_pycute, layout.to_tensor_layouts):
            with pytest.raises(cktile.Error, match="CuTe"):
                export()
        return
    coords = list(itertools.product(*(range(n) for n in offsets.shape)))
    for made in (layout.to_pycute(), layout.to_tensor_layouts()):
        got = np.array([made(*c) for c in coords]).reshape(offsets.shape)
        assert np.array_equal(got, offsets), (entry, text, made)
        assert np.array_equal(cktile.from_cute(made).offsets(), offsets)
    assert isinstance(layout.to_pycute(), (pycute.Layout, pycute.ComposedLayout))
    assert isinstance(layout.to_tensor_layouts(), (tl.Layout, tl.ComposedLayout))


def test_exports_refuse_what_the_peer_lacks():
    with pytest.raises(cktile.Error, match="power-of-two"):
        cktile.Layout("row-padded:rows=12,cols=10,pad=0", "fp16").to_triton()
    # The refusal names the first element (row-major index 9: row 1, column 1) that no strided layout holds.
    with pytest.raises(cktile.Error, match=r"coordinate = 9; its offset .* is not the sum of its coordinates' offsets"):
        cktile.Layout("naive((8,8),(9,1)) | transform(xor((8,8)) on [0,1] -> [0,1])", "fp16").to_cute()
    with pytest.raises(cktile.Error, match="peer"):
        cktile.Layout("packed((4,8))", "fp16").export("fish")


@pytest.mark.parametrize("entry", EXPORTED + ["naive((48,64),(64,1))", "triton-rotating:vec=8,perphase=1,maxphase=8,rows=64,cols=64"])
@pytest.mark.parametrize("peer", ["triton", "cute"])
def test_analyze_answers_as_the_export(cli, entry, peer):
    """Layout.analyze(answer_as=PEER) carries the layout's export (or the peer's refusal) under ``answer``, the same
    as Layout.export gives, with the report unchanged; its JSON is the CLI's ``analyze --as --json``."""
    layout = cktile.Layout(entry, "fp16")
    plain = layout.analyze("gfx942", "rows", op="ds_read_b64")
    r = layout.analyze("gfx942", "rows", op="ds_read_b64", answer_as=peer)
    assert (r.max_ways, r.cycles) == (plain.max_ways, plain.cycles)
    assert r.answer.peer == peer and "answer" not in plain.to_dict()
    try:
        want = layout.export(peer).to_dict()
    except cktile.Error as e:
        # The same refusal (the exception names its argument first).
        assert r.answer.refused and r.answer.refused in str(e), (r.answer.refused, str(e))
        assert "export" not in r.answer
    else:
        assert r.answer.export.to_dict() == want
    assert r.to_json() == cli.json(
        "analyze", entry, "--arch", "gfx942", "--pattern", "rows", "--op", "ds_read_b64", "--dtype", "fp16", "--as", peer
    )
    with pytest.raises(cktile.Error, match="answer_as"):
        layout.analyze("gfx942", "rows", op="ds_read_b64", answer_as="fish")


def test_an_imported_layout_answers_in_its_own_language():
    """Each importer records where a layout came from (``Layout.origin``), and ``analyze`` answers in that
    language unless asked otherwise: Triton's for Triton's layouts, CuTe's for pycute's and tensor-layouts'."""
    swizzled = gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])
    cute_sw = pycute.ComposedLayout(pycute.Swizzle(3, 3, 3), 0, pycute.Layout((16, 64), (64, 1)))
    cases = [
        (cktile.from_triton(swizzled, [64, 64], dtype="fp16"), "triton", "triton"),
        (cktile.from_linear_bases([[0, 1], [0, 2], [1, 0]], [2, 4], dtype="fp16"), "triton", "triton"),
        (cktile.from_cute(cute_sw, dtype="fp16"), "cute", "cute"),
        (cktile.from_cute("(8,64):(64,1)", dtype="fp16"), "cute", "cute"),
        (cktile.from_cute(tl.Layout((8, 64), (64, 1)), dtype="fp16"), "tensor-layouts", "cute"),
    ]
    for layout, origin, peer in cases:
        assert layout.origin == origin, (layout.source, layout.origin)
        assert cktile.Layout(layout).origin == origin   # a copy keeps it
        analyze = lambda **kw: layout.analyze("sm90", "rows", op="ld.shared.b32", **kw)  # noqa: E731
        r = analyze()
        assert r.answer.peer == peer
        assert r.answer.to_dict() == analyze(answer_as=peer).answer.to_dict()
        assert "answer" not in analyze(answer_as="cktile").to_dict()
        other = "cute" if peer == "triton" else "triton"
        assert analyze(answer_as=other).answer.peer == other
    # cktile's own text has no origin and no default answer.
    own = cktile.Layout("packed((8,64))", "fp16")
    assert own.origin is None and "answer" not in own.analyze("sm90", "rows", op="ld.shared.b32").to_dict()


def _issue_66_layouts():
    """Issue 66's seventeen layouts, each as its peer builds it: (name, peer object, shape, dtype)."""
    out = []
    for swizzle in (0, 32, 64, 128):
        for dtype, bits in (("fp8", 8), ("fp16", 16), ("bf16", 16)):
            layout = gl.NVMMASharedLayout(swizzle_byte_width=swizzle, element_bitwidth=bits, rank=2)
            out.append((f"nvmma {swizzle}B {dtype}", layout, [64, 128], dtype))
    # tl.dot's A operand on sm80, gfx942 and gfx950 (fp16), and gfx1250's padded layout.
    for target, (vec, per_phase, max_phase) in (("sm80", (8, 1, 8)), ("gfx942", (4, 1, 16)), ("gfx950", (8, 2, 8))):
        layout = gl.SwizzledSharedLayout(vec=vec, per_phase=per_phase, max_phase=max_phase, order=[1, 0])
        out.append((f"tl.dot {target}", layout, [128, 64], "fp16"))
    out.append(("gfx1250 padded", gl.PaddedSharedLayout.with_identity_for([[128, 8]], [64, 128], [1, 0]), [64, 128], "fp16"))
    # CuTe's Swizzle<3,4,3> on bytes; CUTLASS SM80's fp16 atom tiled to 128 x 64, which FlashAttention-2's Q is;
    # FA2's V read transposed (its SmemLayoutVtransposed: the same swizzle, head dimension first).
    out.append(("cute Swizzle<3,4,3>", pycute.ComposedLayout(pycute.Swizzle(3, 4, 3), 0, pycute.Layout((64, 128), (128, 1))), None, "int8"))
    sm80 = pycute.ComposedLayout(pycute.Swizzle(3, 3, 3), 0, pycute.Layout(((8, 16), 64), ((64, 512), 1)))
    out.append(("cutlass sm80 / fa2 Q", sm80, None, "fp16"))
    vt = pycute.ComposedLayout(pycute.Swizzle(3, 3, 3), 0, pycute.Layout((64, (8, 16)), (1, (64, 512))))
    out.append(("fa2 V transposed", vt, None, "fp16"))
    return out


ISSUE_66_LAYOUTS = _issue_66_layouts()


@pytest.mark.parametrize("name,source,shape,dtype", ISSUE_66_LAYOUTS, ids=[x[0] for x in ISSUE_66_LAYOUTS])
def test_the_issues_layouts_round_trip_through_every_peer_that_can_express_them(name, source, shape, dtype):
    """Import, export to each peer, import again: the same map, element by element, and each export evaluated
    by its peer (Triton's own linear layout of the exported object, pycute's and tensor-layouts' own calls);
    a peer that cannot express the layout refuses with cktile.Error."""
    imported = cktile.from_triton(source, shape, dtype) if shape is not None else cktile.from_cute(source, dtype)
    offsets = imported.offsets()
    shape = list(offsets.shape)
    exported = imported.to_triton()
    assert np.array_equal(cktile.from_triton(exported, shape, dtype).offsets(), offsets), name
    if type(exported).__name__ == "SharedLinearLayout":
        assert_inverts_triton(imported, triton_linear(exported, shape), shape)
    coords = list(itertools.product(*(range(n) for n in shape)))
    try:
        made = [imported.to_pycute(), imported.to_tensor_layouts()]
    except cktile.Error as e:
        assert "CuTe" in str(e), (name, str(e))
        assert name in ("fa2 V transposed",), f"{name}: {e}"
        return
    for obj in made:
        assert np.array_equal(np.array([obj(*c) for c in coords]).reshape(shape), offsets), (name, obj)
        assert np.array_equal(cktile.from_cute(obj, dtype).offsets(), offsets), (name, obj)
    assert np.array_equal(cktile.from_cute(imported.to_cute(), dtype).offsets(), offsets), name


def test_the_issues_layouts_are_seventeen_and_more():
    assert len(ISSUE_66_LAYOUTS) == 12 + 3 + 1 + 3
