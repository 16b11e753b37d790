"""Property tests over the whole public API (Hypothesis, at least 200 examples per public function).

Each call gets random and hostile arguments: well-formed values, values of the wrong type, out of range,
nested too deep, empty, huge. Every call either returns an answer that a brute-force check here confirms
(offsets from the strides, banks from the addresses, inverses of linear bases, the map pycute computes,
held elements from the thread table...) or raises ``cktile.Error``. Anything else (a ``TypeError``, a
``RecursionError``, a crash) fails the test.
"""

import itertools
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cktile
from cktile import importers

EXAMPLES = settings(
    max_examples=int(os.environ.get("CKTILE_HYPOTHESIS_EXAMPLES", "200")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    derandomize=True,
    database=None,
)

NAMES = cktile.names()
BIG = 1 << 70

# Hostile values of any kind, mixed into every argument.
hostile = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.integers(min_value=-BIG, max_value=BIG),
    st.text(max_size=12),
    st.binary(max_size=4),
    st.just(np.array(3)),
    st.just(object()),
    st.lists(st.integers(-4, 4), max_size=3),
    st.just("(" * 3000),
)


def small_ints(lo=1, hi=8):
    return st.integers(min_value=lo, max_value=hi)


def maybe(strategy):
    """Mostly ``strategy``, sometimes a hostile value."""
    return st.one_of(strategy, strategy, strategy, hostile)


def outcome(call):
    """The call's result, or None when it raised cktile.Error; anything else propagates and fails."""
    try:
        return call()
    except cktile.Error:
        return None


# Layouts: naive descriptors whose offsets are known in closed form.

naive_args = st.tuples(
    st.lists(small_ints(1, 6), min_size=1, max_size=3),
    st.lists(st.integers(0, 40), min_size=1, max_size=3),
)
dtypes = st.sampled_from(NAMES["dtypes"] + ["1", "2", "4", "8", np.float16, np.int32, 2])


def valid_dtype(d):
    """Whether ``d`` is an element type cktile takes (the names it lists, byte counts, two numpy types)."""
    if d is None or d is np.float16 or d is np.int32:
        return True
    if isinstance(d, bool) or not isinstance(d, (str, int)):
        return False
    return str(d) in NAMES["dtypes"] or str(d) in ("1", "2", "4", "8")


def naive_text(lengths, strides):
    return f"naive(({','.join(map(str, lengths))}),({','.join(map(str, strides))}))"


def closed_form(lengths, strides):
    out = np.zeros(lengths, dtype=np.int64)
    for c in itertools.product(*(range(n) for n in lengths)):
        out[c] = sum(i * s for i, s in zip(c, strides))
    return out


@EXAMPLES
@given(naive_args, maybe(dtypes), maybe(st.lists(st.integers(-2, 8), max_size=4)))
def test_layout_offsets_trace_and_check(args, dtype, coordinate):
    lengths, strides = args
    text = naive_text(lengths, strides)
    layout = outcome(lambda: cktile.Layout(text, dtype))
    if layout is None:
        assert len(lengths) != len(strides) or not valid_dtype(dtype), (text, dtype)
        return
    want = closed_form(lengths, strides)
    assert layout.shape == tuple(lengths)
    assert np.array_equal(layout.offsets(), want) and layout.valid().all()
    assert layout.element_space_size == int(want.max()) + 1
    # check(): injective, surjective and holes, by counting.
    report = layout.check()
    values = want.ravel().tolist()
    injective = len(set(values)) == len(values)
    surjective = set(values) == set(range(layout.element_space_size))
    assert (report.injective, report.surjective, report.bijective) == (injective, surjective, injective and surjective)
    assert report.hole_count == layout.element_space_size - len(set(values))
    # One coordinate: inside, its offset; outside or malformed, an error.
    inside = (
        isinstance(coordinate, list)
        and len(coordinate) == len(lengths)
        and all(0 <= c < n for c, n in zip(coordinate, lengths))
    )
    got = outcome(lambda: layout.offset(*coordinate) if isinstance(coordinate, list) else layout.offset(coordinate))
    if inside:
        assert got == want[tuple(coordinate)]
        assert layout.trace(*coordinate).offset == got
    elif got is not None:  # a coordinate outside the lengths is refused or reported invalid, never wrong
        assert layout.trace(*coordinate).valid is False


@EXAMPLES
@given(
    st.sampled_from(NAMES["layouts"] + ["no-such-entry", ""]),
    st.dictionaries(
        st.sampled_from(["m", "k", "rows", "cols", "pad", "vec", "b", "mbase", "s", "kpack", "dtype", "masks", "x"]),
        maybe(st.one_of(small_ints(1, 64), st.sampled_from(["fp16", "fp8", "row", "col", "16"]), st.lists(small_ints(1, 4), max_size=3))),
        max_size=5,
    ),
)
def test_catalogue_entries_agree_with_their_spec(name, params):
    layout = outcome(lambda: cktile.Layout.catalogue(name, **params))
    if layout is None:
        return
    # Two paths: the entry, and the spec text it is written as.
    again = cktile.Layout(layout.spec)
    assert layout.shape == again.shape
    if np.prod(layout.shape) <= 1 << 16:
        assert np.array_equal(layout.offsets(), again.offsets())
        assert np.array_equal(layout.valid(), again.valid())
        c = tuple(n - 1 for n in layout.shape)
        if layout.valid()[c]:
            assert layout.offset(*c) == layout.offsets()[c]


# Banks: sm80's 32 four-byte banks, brute force.

addresses = st.lists(st.one_of(st.none(), st.integers(0, 4096).map(lambda a: a * 4)), min_size=1, max_size=32)


@EXAMPLES
@given(maybe(addresses))
def test_bank_ways_by_brute_force(lanes):
    report = outcome(lambda: cktile.bank("sm80", "ld.shared.b32", lanes))
    if report is None:
        return
    words = {a // 4 for a in lanes if a is not None}
    per_bank = [sum(1 for w in words if w % 32 == b) for b in range(32)]
    assert report.max_ways == max(per_bank)  # 0 with no lane active
    arrays = report.arrays()
    assert arrays["active"].tolist() == [a is not None for a in lanes]
    assert arrays["addresses"].tolist() == [0 if a is None else a for a in lanes]


@EXAMPLES
@given(maybe(st.sampled_from(NAMES["archs"])), maybe(st.sampled_from(NAMES["ops"])), maybe(addresses))
def test_bank_any_instruction(arch, op, lanes):
    report = outcome(lambda: cktile.bank(arch, op, lanes))
    if report is None:
        return
    assert report.max_ways >= (1 if any(a is not None for a in lanes) else 0) and report.cycles >= report.phases >= 1
    assert int(report.arrays()["active"].sum()) == sum(a is not None for a in lanes)
    # Pickled with its arrays.
    import pickle

    back = pickle.loads(pickle.dumps(report))
    assert back.to_json() == report.to_json() and back.arrays().keys() == report.arrays().keys()


# Analyses: the per-instruction arrays hold the totals; analyze_many is analyze, layout by layout.


@EXAMPLES
@given(
    st.lists(st.tuples(st.sampled_from([8, 16, 32, 64]), st.sampled_from([16, 32, 64]), st.integers(0, 8)), min_size=1, max_size=3),
    maybe(st.sampled_from(NAMES["archs"])),
    maybe(st.sampled_from(NAMES["patterns"])),
    st.sampled_from(["fp16", "fp32", "fp8"]),
)
def test_analyze_and_analyze_many(tiles, arch, pattern, dtype):
    layouts = [cktile.Layout(f"naive(({r},{c}),({c + pad},1))", dtype) for r, c, pad in tiles]
    reports = outcome(lambda: cktile.analyze_many(layouts, arch, pattern))
    singles = [outcome(lambda l=l: l.analyze(arch, pattern)) for l in layouts]
    if reports is None:
        assert any(s is None for s in singles)
        return
    for r, s in zip(reports, singles):
        assert s is not None and r.to_json() == s.to_json()
        a = r.arrays()
        assert int(a["max_ways"].max()) == r.max_ways
        assert int(a["conflict_cycles"].sum()) == r.conflict_cycles and int(a["cycles"].sum()) == r.cycles


@EXAMPLES
@given(
    maybe(st.tuples(st.sampled_from([8, 16, 32]), st.sampled_from([16, 32, 64]))),
    maybe(st.sampled_from(["fp16", "fp32", "float16", np.float16])),
    maybe(st.sampled_from(["gfx942", "sm90"])),
    maybe(st.lists(st.sampled_from(["ds_write_b128:row", "ds_write_b64:row", "nonsense"]), max_size=1)),
    maybe(st.lists(st.sampled_from(["mfma16x16x16:a", "ldmatrix.x4", "nonsense"]), max_size=1)),
    maybe(st.sampled_from(["triton", "cute", "ck", 3])),
)
def test_search_answers_build(tile, dtype, arch, writes, reads, peer):
    report = outcome(lambda: cktile.search(tile, dtype, arch, writes=writes, reads=reads, answer_as=peer))
    if report is None:
        return
    best = cktile.Layout(report.best.entry)
    assert best.shape == tuple(tile) and best.check().injective
    if peer is None:
        assert "answer" not in list(report.best)
        return
    # The answer is the layout's own export, or the same refusal.
    exported = outcome(lambda: best.export(peer))
    if exported is None:
        assert report.best.answer.refused
    else:
        assert report.best.answer.export.to_json() == exported.to_json()


@EXAMPLES
@given(naive_args, st.sampled_from(["to_cute", "to_pycute", "to_tensor_layouts", "to_triton"]))
def test_exports_are_the_layout_or_refused(args, method):
    """Every export of a strided layout is its closed form, evaluated by the peer (pycute, tensor-layouts,
    Gluon's bases through from_triton), or cktile.Error."""
    lengths, strides = args
    layout = outcome(lambda: cktile.Layout(naive_text(lengths, strides), "fp16"))
    if layout is None:
        assert len(lengths) != len(strides)
        return
    made = outcome(getattr(layout, method))
    if made is None:
        return
    want = closed_form(lengths, strides)
    if method == "to_cute":
        assert np.array_equal(cktile.from_cute(made).offsets(), want)
    elif method == "to_triton":
        assert np.array_equal(cktile.from_triton(made, list(lengths), "fp16").offsets(), want)
    else:
        got = np.array([made(*c) for c in itertools.product(*(range(n) for n in lengths))]).reshape(lengths)
        assert np.array_equal(got, want)


@EXAMPLES
@given(naive_args, naive_args)
def test_equiv_is_equal_offsets(a, b):
    la, lb = naive_text(*a), naive_text(*b)
    report = outcome(lambda: cktile.equiv(la, lb))
    if report is None:
        assert len(a[0]) != len(a[1]) or len(b[0]) != len(b[1])
        return
    same_shape = a[0] == b[0]
    equal = same_shape and np.array_equal(closed_form(*a), closed_form(*b))
    assert report.same == equal, (la, lb, report.to_json())


# Distributions: coverage against the thread table.

DISTRIBUTIONS = ["mfma16x16x16_a", "mfma16x16x16_b", "mfma32x32x8_c", "mfma16x16x32_c_transposed", "no_such"]


@EXAMPLES
@given(maybe(st.sampled_from(DISTRIBUTIONS)), maybe(st.lists(small_ints(1, 40), min_size=2, max_size=2)))
def test_distribution_coverage_by_brute_force(name, tile):
    d = outcome(lambda: cktile.Distribution(name))
    if d is None:
        return
    table = d.table()
    held = {tuple(x) for x in table.xs}
    c = outcome(lambda: d.coverage(tile))
    if c is None:
        return
    lengths = table.x_lengths if tile is None else tile
    inside = {x for x in held if all(0 <= v < n for v, n in zip(x, lengths))}
    assert c.missing == int(np.prod(lengths)) - len(inside)
    assert c.outside == len({x for x in held if x not in inside})
    assert c.complete == (c.missing == 0 and c.outside == 0)


@EXAMPLES
@given(
    maybe(st.sampled_from(DISTRIBUTIONS + ["gemm_b_tr_128x32_w2x2_mfma32x32x8_fp16"])),
    maybe(st.sampled_from(["ds_read_b64_tr_b16", "ds_read_b64_tr_b8", "ds_read_q9"])),
    maybe(st.booleans()),
    maybe(st.none() | small_ints(1, 64)),
)
def test_distribution_pictures_and_transpose(name, op, reverse, rows):
    d = outcome(lambda: cktile.Distribution(name))
    if d is None:
        return
    r = outcome(lambda: d.transpose_load(op, reverse))
    if r is not None:
        assert isinstance(r.accepted, bool)
    svg = outcome(lambda: d.owners(rows=rows, cols=rows))
    if svg is not None:
        assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")


@EXAMPLES
@given(naive_args, maybe(st.sampled_from(NAMES["archs"])), maybe(st.sampled_from(NAMES["patterns"])), maybe(st.sampled_from(["hip", "cuda", "rust"])))
def test_pictures_and_code(args, arch, pattern, lang):
    layout = outcome(lambda: cktile.Layout(naive_text(*args), "fp16"))
    if layout is None:
        return
    for picture in (
        lambda: layout.grid(arch=arch),
        lambda: layout.heat_map(arch, pattern),
        lambda: layout.chain(),
    ):
        svg = outcome(picture)
        if svg is not None:
            assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    code = outcome(lambda: layout.codegen(lang, name="tile"))
    if code is not None:
        # The generated offset function names each stride it multiplies by.
        assert "tile" in code


@EXAMPLES
@given(
    maybe(st.lists(st.integers(0, 4096), min_size=2, max_size=2)),
    maybe(st.sampled_from([1, 2, 4, 8, 16, 3])),
    maybe(st.sampled_from(["gfx942", "gfx950", "sm90"])),
    maybe(st.sampled_from(["wave-major", "issue-major"])),
)
def test_dma_plan(strides, width, arch, order):
    layout = cktile.Layout("ck-universal-a:m=64,k=32")
    plan = outcome(lambda: layout.dma_plan(strides, width, arch, order=order))
    if plan is not None:
        json.loads(plan.to_json())


@EXAMPLES
@given(maybe(st.sampled_from(NAMES["archs"] + ["gfx000"])))
def test_rules_catalogue_and_names(arch):
    rows = outcome(lambda: cktile.rules(arch))
    if rows is not None:
        assert rows and (arch is None or all(r.arch == arch for r in rows))
    assert {e.name for e in cktile.catalogue()} == set(cktile.names()["layouts"])


# Hopper and Blackwell: descriptors decoded and checked element by element, tensor maps simulated.

HOPPER_LAYOUTS = [
    ("triton-nvmma:swizzle=128,bits=16,rows=64", "fp16"),
    ("triton-nvmma:swizzle=64,bits=8,transposed=true,rows=64", "fp8"),
    ("ck-universal-a:m=128,k=64", None),
    ("packed((64,64))", "fp16"),
    ("row-padded:rows=32,cols=64,pad=8", "fp16"),
    ("cute-gmma:atom=sw32,major=mn,dtype=fp32", None),
]

SWIZZLE_BYTES = {"none": (0, 4, 3), "32b": (1, 4, 3), "64b": (2, 4, 3), "128b": (3, 4, 3), "128b-base32b": (2, 5, 2)}


def byte_swizzle(mode, x):
    b, m, s = SWIZZLE_BYTES[mode]
    return x ^ ((x & (((1 << b) - 1) << (m + s))) >> s)


def ptx_address(r, start, e, mn, k):
    """The PTX ISA's canonical map, written here again: where the instruction reads element (mn, k)."""
    mode, lbo, sbo, t = r.swizzle, r.lbo, r.sbo, 16 // e
    span = {"none": 16, "32b": 32, "64b": 64}.get(mode, 128)
    if r.major == "k":
        pre = (mn % 8) * 16 + (mn // 8) * sbo + (k // t) * lbo + (k % t) * e if mode == "none" else (mn % 8) * span + (mn // 8) * sbo + k * e
    elif mode == "none":
        pre = (mn // t) * sbo + (k % 8) * 16 + (k // 8) * lbo + (mn % t) * e
    else:
        g = 4 if mode == "128b-base32b" else 8
        pre = (mn * e) % span + (mn * e // span) * lbo + (k % g) * span + (k // g) * sbo
    return byte_swizzle(mode, start + pre)


@EXAMPLES
@given(
    st.sampled_from(HOPPER_LAYOUTS),
    maybe(st.sampled_from(["sm90", "sm100"])),
    maybe(st.sampled_from(["a", "b"])),
    maybe(st.sampled_from([None, "k", "mn"])),
    maybe(st.sampled_from([None, "none", "32b", "64b", "128b", "128b-base32b"])),
    maybe(st.sampled_from([0, 1024, 8])),
)
def test_wgmma_descriptor_reads_every_element_where_the_layout_stores_it(entry, target, operand, major, swizzle, base):
    spec, dtype = entry
    layout = cktile.Layout(spec, dtype)
    r = outcome(lambda: layout.wgmma_descriptor(target, operand, major=major, swizzle=swizzle, base=base))
    if r is None or not r.readable:
        if r is not None:
            assert all(b.actual != b.expected for b in r.breaks)
        return
    e, offsets = layout.element_bytes, layout.offsets()
    (imn, ik), (mn_len, k_len) = r.instruction_shape, r.tile
    steps = k_len // ik
    for i, d in enumerate(r.descriptors):
        start = (int(d, 16) & 0x3FFF) << 4
        m0, k0 = (i // steps) * imn, (i % steps) * ik
        for m in range(m0, m0 + imn):
            for k in range(k0, k0 + ik):
                assert ptx_address(r, start, e, m - m0, k - k0) == base + offsets[m, k] * e


@EXAMPLES
@given(
    st.sampled_from(HOPPER_LAYOUTS),
    maybe(st.sampled_from([[64, 1], [4096, 1], [1, 64], [44, 1], [-8, 1]])),
    maybe(st.sampled_from(["sm90", "sm100"])),
    maybe(st.sampled_from([None, "none", "32b", "64b", "128b", "128b-atom-32b", "128b-atom-64b"])),
)
def test_tma_map_writes_every_element_where_the_layout_stores_it(entry, strides, target, swizzle):
    spec, dtype = entry
    layout = cktile.Layout(spec, dtype)
    m = outcome(lambda: layout.tma_map(strides, target, swizzle=swizzle))
    if m is None or not m.writes:
        return
    e, offsets, mp = layout.element_bytes, layout.offsets(), m.map
    mode = {"128b-atom-32b": "128b-base32b"}.get(m.swizzle, m.swizzle)
    if mode == "128b-atom-64b":
        return  # Swizzle<1,6,1>: checked in the Rust tests
    seen = set()
    for copy in mp.copies:
        for inner in range(mp.box_dim[0]):
            for outer in range(mp.box_dim[1] if len(mp.box_dim) > 1 else 1):
                c = [0, 0]
                c[mp.dims[0]] = inner + copy.origin[mp.dims[0]]
                if len(mp.dims) > 1:
                    c[mp.dims[1]] = outer + copy.origin[mp.dims[1]]
                dense = (outer * mp.box_dim[0] + inner) * e
                assert copy.offset + byte_swizzle(mode, dense) == offsets[tuple(c)] * e
                seen.add(tuple(c))
    assert len(seen) == offsets.size


@EXAMPLES
@given(
    maybe(st.sampled_from([(128, 64), (64, 64), (64, 32), "256x64", (0, 8), (8, 12)])),
    maybe(dtypes),
    maybe(st.sampled_from([[4096, 1], [1, 4096], [64, 1], [44, 1]])),
    maybe(st.sampled_from(["sm90", "sm100"])),
    st.booleans(),
    maybe(st.sampled_from([[], ["stmatrix.x4"], ["ldmatrix.x4"], ["mfma16x16x16:a"]])),
)
def test_hopper_plan_candidates_are_read_and_written(tile, dtype, strides, target, epilogue, accesses):
    plan = outcome(lambda: cktile.hopper_plan(tile, dtype, strides, target, epilogue=epilogue, accesses=accesses))
    for c in plan or []:
        layout = cktile.Layout(c.spec, dtype)
        if not epilogue:
            r = layout.wgmma_descriptor(target, major=c.major, swizzle=c.swizzle)
            assert r.readable and (r.lbo, r.sbo) == (c.lbo, c.sbo)
        m = layout.tma_map(strides, target, swizzle=c.tma_swizzle)
        assert m.writes and len(m.map.copies) == c.tma_copies


@EXAMPLES
@given(
    maybe(st.sampled_from(["rocke", "rocroller", "triton-9662", "iree", "cktile", "nvidia"])),
    maybe(st.sampled_from(["gfx942", "gfx950", "sm90"])),
    maybe(st.sampled_from(["ds_read_b128", "ds_read_b64", "ds_write_b32"])),
    maybe(st.lists(st.one_of(st.none(), st.integers(0, 4096)), min_size=1, max_size=64)),
)
def test_model_answers_and_disagreements(model, arch, op, addresses):
    r = outcome(lambda: cktile.model_answer(model, arch, op, addresses))
    if r is not None:
        assert r.max_ways >= 1 or all(a is None for a in addresses)
    rows = outcome(lambda: cktile.disagreements(arch))
    if rows is not None:
        assert all(len({a.ways for a in row.answers if a.ways is not None}) >= 2 for row in rows)


# Importers: linear bases inverted, CuTe layouts against pycute, printed text read back.


@st.composite
def linear_bases(draw):
    """Bases of a 2-D power-of-two tile, shuffled and XORed; sometimes malformed."""
    rows_bits, cols_bits = draw(st.integers(0, 3)), draw(st.integers(1, 4))
    units = [[0, 1 << k] for k in range(cols_bits)] + [[1 << k, 0] for k in range(rows_bits)]
    order = draw(st.permutations(range(len(units))))
    bases = [list(units[i]) for i in order]
    for i in range(1, len(bases)):
        if draw(st.booleans()):
            j = draw(st.integers(0, i - 1))
            bases[i] = [x ^ y for x, y in zip(bases[i], bases[j])]
    return bases


@EXAMPLES
@given(maybe(linear_bases()))
def test_from_linear_bases_inverts_them(bases):
    layout = outcome(lambda: cktile.from_linear_bases(bases))
    if layout is None:
        return
    for u in range(1 << len(bases)):
        coordinate = [0] * len(bases[0])
        for bit, basis in enumerate(bases):
            if u >> bit & 1:
                coordinate = [c ^ b for c, b in zip(coordinate, basis)]
        assert layout.offset(*coordinate) == u


@EXAMPLES
@given(
    st.lists(st.tuples(small_ints(1, 4), st.integers(0, 16)), min_size=1, max_size=3),
    st.sampled_from([None, (1, 1, 2), (2, 0, 2), (3, 3, 3), (1, 2, -2), (2, 3, 3)]),
    st.sampled_from([0, 8, 32]),
    st.booleans(),
)
def test_from_cute_against_pycute(modes, swizzle, offset, as_text):
    import pycute

    shape, stride = tuple(m[0] for m in modes), tuple(m[1] for m in modes)
    src = pycute.Layout(shape, stride)
    if swizzle is not None:
        src = pycute.ComposedLayout(pycute.Swizzle(*swizzle), offset, src)
    layout = outcome(lambda: cktile.from_cute(str(src) if as_text else src))
    if layout is None:
        return
    for c in itertools.product(*(range(n) for n in shape)):
        assert layout.offset(*c) == src(*c)


@EXAMPLES
@given(st.one_of(hostile, st.text(alphabet="()_,:o {}0123456789SwxSW<>-", max_size=40)))
def test_from_cute_reads_any_text_or_refuses_it(text):
    layout = outcome(lambda: cktile.from_cute(text))
    if layout is not None:  # a text it reads is a layout whose offsets are CuTe's (checked above); here: well-formed
        assert layout.check().valid_count == int(np.prod(layout.shape))


@st.composite
def rotating_case(draw):
    """AMD's rotating layout as Triton prints it: mostly parameters Triton takes, now and then what it cannot."""
    def mostly(good, bad):  # good nine times in ten
        return draw(st.integers(0, 9).flatmap(lambda i: bad if i == 0 else good))

    rank = draw(st.integers(1, 3))
    shape = [mostly(st.sampled_from([1, 2, 4, 8, 16, 32, 64]), st.sampled_from([0, 3, -1, 2**31])) for _ in range(rank)]
    vec = mostly(st.sampled_from([0, 1, 2, 3, 4, 8, 16]), st.integers(-2, 2**32))
    per_phase, max_phase = (mostly(st.integers(1, 8), st.integers(-1, 2**32)) for _ in range(2))
    order = mostly(st.permutations(list(range(rank))), st.lists(st.integers(-1, 3), max_size=3))
    text = f"#ttg.amd_rotating_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, order = {order}}}>"
    return text, (vec, per_phase, max_phase, order), shape


@EXAMPLES
@given(rotating_case(), st.sampled_from([None, "fp16", "fp8"]))
def test_from_triton_reads_amd_rotating_layouts_as_triton_defines_them(case, dtype):
    from triton_rotating_reference import rotating_offsets

    text, params, shape = case
    layout = outcome(lambda: cktile.from_triton(text, shape, dtype))
    if layout is None:
        return
    assert list(layout.shape) == shape
    if np.prod(shape) <= 1 << 12:
        assert np.array_equal(layout.offsets(), rotating_offsets(*params, shape))


@EXAMPLES
@given(st.one_of(hostile, st.text(alphabet="#ttg._amdrotinshe<>{}[]=, 0123456789vecPhasmxorDT", max_size=80)))
def test_from_triton_reads_any_text_or_refuses_it(text):
    layout = outcome(lambda: cktile.from_triton(text, [16, 16]))
    if layout is not None:
        assert layout.check().bijective


@EXAMPLES
@given(
    st.lists(st.lists(st.integers(0, 8), min_size=2, max_size=2), min_size=1, max_size=5),
    maybe(st.lists(small_ints(1, 16), min_size=2, max_size=2)),
    maybe(st.lists(st.tuples(st.sampled_from([1, 2, 4, 8, 16, 3]), st.integers(0, 4)), max_size=2)),
)
def test_padded_and_linear_specs(bases, shape, pairs):
    spec = outcome(lambda: importers.linear_bases_spec(bases, shape))
    if spec is not None and shape is not None:
        assert cktile.Layout(spec).shape == tuple(shape)
    padded = outcome(lambda: importers.padded_spec(bases, shape, pairs))
    if padded is not None and spec is not None:
        plain, with_padding = cktile.Layout(spec).offsets(), cktile.Layout(padded).offsets()
        # Padding only moves offsets up, by the padding of the intervals below each offset.
        pad = {}
        for interval, amount in pairs:
            if interval < np.prod(shape) and amount > 0:
                pad[interval] = pad.get(interval, 0) + amount
        expected = plain + sum((plain // k) * p for k, p in pad.items())
        assert np.array_equal(with_padding, expected)


# Triton: every call in a child interpreter, so a regression that lets an abort through fails this test
# instead of ending pytest.

TRITON_CHILD = r"""
import itertools, sys
import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st
import cktile
from triton.experimental.gluon import language as gl

def mostly(good, bad):
    # good nine times in ten, bad (what Triton would abort on) the tenth
    return st.integers(0, 9).flatmap(lambda i: bad if i == 0 else good)

dim = mostly(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128]), st.sampled_from([0, -1, 3, 6, 2**31, 2**30]))

@st.composite
def case(draw):
    rank = draw(st.integers(1, 3))
    shape = [draw(dim) for _ in range(rank)]
    if draw(st.booleans()):
        layout = gl.NVMMASharedLayout(draw(st.sampled_from([0, 32, 64, 128])), draw(st.sampled_from([8, 16, 32, 64])),
                                      rank=draw(mostly(st.just(rank), st.integers(1, 3))), transposed=draw(st.booleans()))
    else:
        order = draw(mostly(st.permutations(list(range(rank))), st.lists(st.integers(-1, 3), max_size=3)))
        params = [draw(mostly(st.integers(lo, hi), st.integers(-1, 2**32))) for lo, hi in ((0, 8), (1, 4), (1, 8))]
        layout = gl.SwizzledSharedLayout(*params, order)
    return layout, shape

def triton_offsets(layout, shape):
    from triton._C.libtriton import gluon_ir, ir
    ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx)
    return b.to_linear_layout(layout._to_ir(b), shape).offset_bases

@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(case())
def run(c):
    layout, shape = c
    try:
        imported = cktile.from_triton(layout, shape)
    except cktile.Error:
        counts["refused"] += 1
        return
    counts["accepted"] += 1
    bases = triton_offsets(layout, shape)   # accepted: Triton computes it too
    assert list(imported.shape) == shape
    if len(bases) > 16:
        return   # a 2^30 dimension: accepted without aborting; too large to compare element by element
    # cktile inverts it: offset u's coordinate (the XOR of the bases of u's bits) is stored at u.
    u = np.arange(1 << len(bases))
    coordinates = np.zeros((len(u), len(shape)), dtype=np.int64)
    for bit, basis in enumerate(bases):
        coordinates ^= ((u >> bit) & 1)[:, None] * np.array(basis, dtype=np.int64)
    assert np.array_equal(imported.offsets()[tuple(coordinates.T)], u), (layout, shape)

counts = {"accepted": 0, "refused": 0}
run()
print("ok", counts["accepted"], counts["refused"])
"""


def test_from_triton_in_a_child_interpreter():
    examples = EXAMPLES.max_examples
    code = TRITON_CHILD.replace("max_examples=EXAMPLES", f"max_examples={examples}")
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1200)
    assert child.returncode == 0 and child.stdout.strip().startswith("ok"), (
        f"exit {child.returncode}\n{child.stdout[-3000:]}\n{child.stderr[-3000:]}"
    )
    # Both sides drawn often: the checks let Triton's layouts through and stop what it would abort on.
    accepted, refused = map(int, child.stdout.split()[1:3])
    assert accepted + refused >= examples and accepted >= examples // 10 and refused >= examples // 10, child.stdout
