"""Python's answers against the `cktile` command's, on every catalogue entry.

Each question is asked twice, of the package and of the CLI: either both
answer, with the same JSON text byte for byte, or both refuse, with the same
message (the CLI's `error: --flag: ...` is the package's `flag: ...`).
"""

import json

import numpy as np
import pytest

import cktile

from conftest import loads

ENTRIES = [e.example for e in cktile.catalogue()]

# (arch, pattern, distribution, op): each access the analyzer takes, on both vendors.
ACCESSES = [
    ("gfx942", "mfma16", None, None),
    ("gfx942", "rows", None, "ds_write_b128"),
    ("gfx950", "mfma32", None, "ds_read_b64"),
    ("gfx942", None, "mfma16x16x32_a", "ds_read_b128"),
    ("sm90", "ldmatrix", None, None),
    ("sm80", "columns", None, "ld.shared.b32"),
    ("gfx1201", "rows", None, "ds_read_b64"),
]


def typed(example):
    """The entry with the element type the CLI and the package both need (fp16 when it names none)."""
    dtype = None if cktile.Layout(example).element_bytes else "fp16"
    return cktile.Layout(example, dtype), dtype


def dtype_args(dtype):
    return ["--dtype", dtype] if dtype else []


def test_the_catalogue_is_the_clis(cli):
    cli_entries = loads(cli.json("catalogue"))
    assert [e.to_dict() for e in cktile.catalogue()] == cli_entries
    assert len(ENTRIES) == len(cli_entries) >= 13


@pytest.mark.parametrize("example", ENTRIES)
def test_offsets_and_check_equal_the_clis(cli, example):
    layout = cktile.Layout(example)
    want = loads(cli.json("offsets", example))
    assert list(layout.shape) == want["lengths"]
    assert layout.offsets().ravel().tolist() == want["offsets"]
    assert layout.valid().ravel().tolist() == want["valid"]
    assert layout.offsets().dtype == np.int64 and layout.valid().dtype == np.bool_
    assert layout.element_space_size == want["element_space_size"]
    assert layout.check().to_json() == cli.json("check", example)
    # The spec text pastes back: the same map.
    again = cktile.Layout(layout.spec)
    assert np.array_equal(again.offsets(), layout.offsets())


@pytest.mark.parametrize("example", ENTRIES)
@pytest.mark.parametrize("arch,pattern,distribution,op", ACCESSES)
def test_analyze_equals_cktile_analyze_json(cli, example, arch, pattern, distribution, op):
    layout, dtype = typed(example)
    args = ["analyze", example, "--arch", arch, *dtype_args(dtype), "--json"]
    args += ["--pattern", pattern] if pattern else ["--distribution", distribution]
    args += ["--op", op] if op else []
    code, out, err = cli.run(*args)
    try:
        report = layout.analyze(arch, pattern, distribution=distribution, op=op)
    except cktile.Error as e:
        assert code == 2, f"the package refused ({e}) where the CLI answered"
        assert err == "error: " + str(e) or err == "error: --" + str(e), (err, str(e))
        return
    assert code == 0, f"the CLI refused ({err}) where the package answered"
    assert report.to_json() == out
    # The report reads as an object.
    assert report.max_ways == loads(out)["max_ways"]
    assert report.worst.phases == loads(out)["worst"]["phases"]


def test_some_analyses_answer_and_some_refuse(cli):
    # The parametrised test above must see both outcomes, or it tests less than it says.
    answered = refused = 0
    for example in ENTRIES:
        layout, _ = typed(example)
        for arch, pattern, distribution, op in ACCESSES:
            try:
                layout.analyze(arch, pattern, distribution=distribution, op=op)
                answered += 1
            except cktile.Error:
                refused += 1
    assert answered > 50 and refused > 5, (answered, refused)


def test_dma_plan_and_codegen_equal_the_clis(cli):
    spec = "ck-universal-a:m=128,k=64"
    plan = cktile.Layout(spec).dma_plan([4096, 1], width=4)
    assert plan.to_json() == cli.json("dma-plan", spec, "--global-strides", "4096,1", "--width", "4")
    # CK's async copy: padding between chunks, issue-major, m0 as async_load_raw sets it.
    padded = cktile.Layout("row-padded:rows=32,cols=64,pad=4", dtype="fp32")
    kw = dict(order="issue-major", form="buffer", m0="ck", lds_base=1024)
    flags = ["--order", "issue-major", "--form", "buffer", "--m0", "ck", "--lds-base", "1024"]
    ck = padded.dma_plan([64, 1], width=4, **kw)
    assert ck.to_json() == cli.json(
        "dma-plan", "row-padded:rows=32,cols=64,pad=4", "--dtype", "fp32", "--global-strides", "64,1", "--width", "4", *flags
    )
    issues = ck.to_dict()["addressing"]["issues"]
    # Warp w starts at 1024 + 272 w; each further load adds 4 warps' padded rows.
    assert [i["m0"] for i in issues if i["load"] == 0] == [1024 + 272 * w for w in range(4)]
    assert {i["m0_operand"] for i in issues if i["load"] > 0} == {1088}
    code, out, _ = cli.run("codegen", spec, "--lang", "hip")
    assert code == 0 and cktile.Layout(spec).codegen("hip").rstrip("\n") == out


def test_bank_and_search_equal_the_clis(cli):
    import subprocess

    request = '{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, 128, null, 256]}'
    p = subprocess.run([cli.path, "bank"], input=request, capture_output=True, text=True)
    assert cktile.bank("gfx90a", "ds_read_b32", [0, 128, None, 256]).to_json() == p.stdout.rstrip("\n")
    args = ["--tile", "64x64", "--dtype", "fp16", "--arch", "gfx942"]
    args += ["--write", "ds_write_b128:row", "--read", "mfma16x16x16:a"]
    s = cktile.search("64x64", "fp16", "gfx942", writes=["ds_write_b128:row"], reads=["mfma16x16x16:a"])
    assert s.to_json() == cli.json("search", *args)
    assert s.best.cycles == s.lower_bound_cycles  # the search's own claim, recomputed below
    assert cktile.Layout(s.best.entry).analyze("gfx942", "mfma16").max_ways == 1


def test_distribution_equals_the_clis(cli):
    for name in ["mfma16x16x16_a", "mfma32x32x8_b", "mfma16x16x32_c", "wmma16x16x16_gfx11_a", "block_raked_256x32x64_v16"]:
        assert cktile.Distribution(name).table().to_json() == cli.json("distribution", name)


# (distribution, tile, the CLI's exit code): complete, incomplete, replicated.
COVERAGE = [
    ("warp_raked_256x128x32_v8", (128, 32), 0),
    ("warp_raked_256x128x32_v8", (128, 64), 1),
    ("thread_raked_256x16x256_v2_g2", (16, 256), 1),
    ("wmma16x16x16_gfx11_b", (16, 16), 0),
    ("mfma16x16x16_c", (8, 32), 1),
]


@pytest.mark.parametrize("name,tile,code", COVERAGE)
def test_coverage_equals_the_clis(cli, name, tile, code):
    rc, out, _ = cli.run("distribution", name, "--tile", ",".join(map(str, tile)), "--json")
    assert rc == code
    coverage = cktile.Distribution(name).coverage(tile)
    assert coverage.to_json() == json.dumps(json.loads(out)["coverage"], separators=(",", ":"), sort_keys=True)
    assert coverage.complete == (code == 0)


def test_pictures_equal_the_clis(cli):
    spec = "ck-universal-a:m=128,k=64"
    layout = cktile.Layout(spec)
    _, grid, _ = cli.run("render", spec, "--view", "grid", "--rows", "16", "--cols", "32")
    assert layout.grid(rows=16, cols=32).rstrip("\n") == grid
    _, heat, _ = cli.run("render", spec, "--view", "banks", "--arch", "gfx942", "--pattern", "mfma16")
    assert layout.heat_map("gfx942", "mfma16").rstrip("\n") == heat
    _, chain, _ = cli.run("render", spec, "--view", "chain")
    assert layout.chain().rstrip("\n") == chain
    _, owners, _ = cli.run("render", "mfma16x16x16_a", "--view", "distribution")
    assert cktile.Distribution("mfma16x16x16_a").owners().rstrip("\n") == owners


EQUIV_PAIRS = [
    ("ck-universal-a:m=128,k=64", "cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=64", "layout", 0),
    ("ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024", "cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=32", "layout", 1),
    ("naive((3,8),(8,1))", "packed((24)) | transform(unmerge((3,8)) on [0] -> [0,1])", "layout", 0),
    ("packed((8193,4096))", "naive((8193,4096),(4096,1))", "layout", 3),
    ("packed((4,8))", "packed((8,4))", "layout", 1),
    ("mfma16x16x16_a", "mfma16x16x16_b", "distribution", 0),
    ("mfma16x16x16_c", "mfma16x16x16_c_transposed", "distribution", 1),
    ("mfma32x32x8_c", "mfma32x32x8_c", "distribution", 0),
]


@pytest.mark.parametrize("a,b,kind,code", EQUIV_PAIRS)
def test_equiv_equals_cktile_equiv_json(cli, a, b, kind, code):
    got, out, err = cli.run("equiv", a, b, "--kind", kind, "--json")
    assert got == code, err
    report = cktile.equiv(a, b, kind=kind)
    assert report.to_json() == out
    assert report.same == {0: True, 1: False, 3: None}[code]
    # Objects work as well as text.
    wrap = cktile.Layout if kind == "layout" else cktile.Distribution
    if code != 3:
        assert cktile.equiv(wrap(a), wrap(b)).same == report.same


# (distribution, op, reverse, the CLI's exit code)
TRANSPOSES = [
    ("gemm_b_tr_128x32_w2x2_mfma32x32x8_fp16", "ds_read_b64_tr_b16", False, 0),
    ("mfma32x32x8_b", "ds_read_b64_tr_b16", True, 0),
    ("mfma16x16x16_a", "ds_read_b64_tr_b8", False, 1),
    ("gemm_b_tr_128x64_w2x2_mfma32x32x16_fp8", "ds_read_b64_tr_b8", False, 0),
]


@pytest.mark.parametrize("name,op,reverse,code", TRANSPOSES)
def test_transpose_load_equals_the_clis(cli, name, op, reverse, code):
    args = ["transpose-load", name, "--op", op, "--json"] + (["--reverse"] if reverse else [])
    rc, out, _ = cli.run(*args)
    assert rc == code
    r = cktile.Distribution(name).transpose_load(op, reverse=reverse)
    assert r.to_json() == out
    assert r.accepted == (code == 0)


def test_transpose_load_refuses_what_the_cli_refuses(cli):
    rc, _, err = cli.run("transpose-load", "mfma16x16x16_a", "--op", "ds_read_b128")
    assert rc == 2
    with pytest.raises(cktile.Error) as e:
        cktile.Distribution("mfma16x16x16_a").transpose_load("ds_read_b128")
    assert str(e.value) in err.replace("error: --op: ", "op: ")


@pytest.mark.parametrize("example", ENTRIES)
@pytest.mark.parametrize("target", ["sm90", "sm100"])
def test_wgmma_descriptor_equals_cktile_matrix_desc_json(cli, example, target):
    layout, dtype = typed(example)
    code, out, err = cli.run("matrix-desc", example, "--target", target, "--operand", "b", *dtype_args(dtype), "--json")
    try:
        report = layout.wgmma_descriptor(target, "b")
    except cktile.Error as e:
        assert code == 2, f"the package refused ({e}) where the CLI answered"
        assert err == "error: " + str(e), (err, str(e))
        return
    # A layout no descriptor reads is an answer too: exit code 1, the same JSON.
    assert code == (0 if report.readable else 1), err
    assert report.to_json() == out
    if report.readable:
        assert len(report.descriptors) == len(report.starts) >= 1
    else:
        assert report.breaks and all(b.actual != b.expected for b in report.breaks)


def test_some_catalogue_entries_are_read_by_wgmma_and_written_by_tma_and_some_are_not():
    # The tests above and below must see both verdicts.
    wgmma, tma = set(), set()
    for example in ENTRIES:
        layout, _ = typed(example)
        try:
            wgmma.add(layout.wgmma_descriptor("sm90", "b").readable)
        except cktile.Error:
            pass
        rank = len(layout.shape)
        try:
            tma.add(layout.tma_map([4096 ** (rank - 1 - d) for d in range(rank)]).writes)
        except cktile.Error:
            pass
    assert wgmma == tma == {True, False}


@pytest.mark.parametrize("example", ENTRIES)
def test_tma_map_equals_cktile_tma_json(cli, example):
    layout, dtype = typed(example)
    # A row-major global tensor over the tile's dimensions, 4096 elements per row of the last.
    rank = len(layout.shape)
    strides = [4096 ** (rank - 1 - d) for d in range(rank)]
    code, out, err = cli.run("tma", example, "--global-strides", ",".join(map(str, strides)), *dtype_args(dtype), "--json")
    try:
        report = layout.tma_map(strides)
    except cktile.Error as e:
        assert code == 2, f"the package refused ({e}) where the CLI answered"
        assert err == "error: " + str(e), (err, str(e))
        return
    assert code == (0 if report.writes else 1), err
    assert report.to_json() == out
    if report.writes:
        assert report.map.box_dim == [layout.shape[d] for d in report.map.dims]


@pytest.mark.parametrize(
    "tile,dtype,strides,target,flags",
    [
        ((128, 64), "fp16", [4096, 1], "sm90", []),
        ((64, 64), "fp16", [4096, 1], "sm90", ["--epilogue", "--access", "stmatrix.x4"]),
        ((128, 64), "fp8", [1, 4096], "sm100", ["--operand", "b"]),
        ((128, 64), "fp8", [1, 4096], "sm90", []),
    ],
)
def test_hopper_plan_equals_cktile_hopper_plan_json(cli, tile, dtype, strides, target, flags):
    args = ["hopper-plan", "--tile", f"{tile[0]}x{tile[1]}", "--dtype", dtype, "--global-strides", ",".join(map(str, strides))]
    code, out, err = cli.run(*args, "--target", target, *flags, "--json")
    kw = dict(epilogue="--epilogue" in flags, accesses=[f for f in flags if "matrix" in f])
    plan = cktile.hopper_plan(tile, dtype, strides, target, "b" if "b" in flags else "a", **kw)
    assert code == (0 if plan else 1), err
    assert [c.to_dict() for c in plan] == loads(out)["candidates"]
