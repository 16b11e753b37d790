"""The package's own surface: reports as objects and HTML, pictures, names, errors."""

import json

import numpy as np
import pytest

import cktile


def test_reports_read_as_objects_and_keep_their_text():
    r = cktile.Layout("packed((128,64))", dtype="fp16").analyze("gfx942", "mfma16")
    data = json.loads(r.to_json())
    assert dict(r.to_dict()) == data and set(r) == set(data) and len(r) == len(data)
    assert r["max_ways"] == r.max_ways == data["max_ways"] == 4
    assert r.worst.phase_detail[0].conflicts[0].ways == data["worst"]["phase_detail"][0]["conflicts"][0]["ways"]
    assert r.kind == "analyze" and r.worst.kind == "analyze"
    with pytest.raises(AttributeError, match="this analyze report has no `max_way`; it has: arch, "):
        r.max_way
    assert "max_ways=4" in repr(r)


def test_reports_render_as_html_tables():
    r = cktile.Layout("packed((16,64))", dtype="fp16").analyze("gfx942", "mfma16")
    page = r._repr_html_()
    assert page.startswith("<div class='cktile-report'><h3>cktile analyze</h3><table>")
    assert "<h4>per_instruction</h4>" in page and "<h4>phase_detail</h4>" in page
    # Text from the report is escaped.
    odd = cktile.Report("check", json.dumps({"note": "<b>&</b>"}))
    assert "&lt;b&gt;&amp;&lt;/b&gt;" in odd._repr_html_()


def test_layouts_draw_themselves():
    two = cktile.Layout("ck-universal-a:m=128,k=64")
    assert two._repr_svg_() == two.grid(rows=32, cols=64)
    three = cktile.Layout("packed((2,4,8))")  # no grid for 3-D: the chain
    assert three._repr_svg_() == three.chain()
    untyped = cktile.Layout("packed((4,8))")  # no element type: no banks to colour
    assert untyped._repr_svg_() == untyped.chain()
    with pytest.raises(cktile.Error, match="dtype: "):
        untyped.grid()


def test_a_layout_of_a_layout_keeps_its_text_and_element_type():
    a = cktile.Layout("packed((16,64))", dtype="fp16")
    b = cktile.Layout(a)
    assert (b.source, b.element_bytes) == (a.source, 2)
    assert cktile.Layout(a, dtype="fp32").element_bytes == 4
    with pytest.raises(cktile.Error, match="dtype"):
        cktile.Layout(cktile.Layout("ck-universal-a:m=128,k=64,dtype=fp16"), dtype="fp32")  # its text says fp16


def test_offsets_of_padded_and_many_dimensional_layouts():
    padded = cktile.Layout("naive((3),(1)) | transform(pad(3,1,0) on [0] -> [0])")
    assert padded.offsets().tolist() == [-1, 0, 1, 2]
    assert padded.valid().tolist() == [False, True, True, True]
    cube = cktile.Layout("packed((2,3,4))")
    assert np.array_equal(cube.offsets(), np.arange(24).reshape(2, 3, 4))
    assert cube.offset(1, 2, 3) == 23 and cube.trace(1, 2, 3).valid


def test_catalogue_parameters_and_names():
    l = cktile.Layout.catalogue("xor-linear", rows=8, cols=64, vec=8, masks=[1, 2, 4], dtype="fp16")
    assert l.source == "xor-linear:rows=8,cols=64,vec=8,masks=1.2.4,dtype=fp16"
    assert np.array_equal(l.offsets(), cktile.Layout("cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64").offsets())
    n = cktile.names()
    assert "gfx942" in n["archs"] and "mfma16" in n["patterns"] and "fp16" in n["dtypes"]
    assert set(n["layouts"]) == {e.name for e in cktile.catalogue()}
    assert {r.arch for r in cktile.rules("sm90")} == {"sm90"}


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: cktile.Layout(42), "not int"),
        (lambda: cktile.Layout("packed((4,8))", dtype="fp17"), "dtype: "),
        (lambda: cktile.Layout("packed((4,8))", dtype="fp16").analyze("sm90"), "pattern: give a pattern"),
        (lambda: cktile.Layout("packed((4,8))", dtype="fp16").analyze("sm90", distribution="mfma16x16x16_a"),
         "op: a distribution needs"),
        (lambda: cktile.Layout("packed((4,8))", dtype="fp16").analyze("sm90", "rows", op="ds_read_q9"), "op: "),
        (lambda: cktile.Layout("packed((4,8))").codegen("fortran"), "lang: "),
        (lambda: cktile.Layout("packed((4,8))").codegen("hip", name="1bad"), "name: "),
        (lambda: cktile.Layout("packed((4,8))").offset(1), "coordinate: "),
        (lambda: cktile.bank("gfx942", "ds_read_b32", [-1]), None),
        # Past the chip's shared memory: lane 5 at byte 65,536 of gfx942's 64 KB (gfx950 has 160 KB).
        (lambda: cktile.bank("gfx942", "ds_read_b32", [0, 4, 8, 12, 16, 65536]),
         r"^addresses: lane 5: the 4-byte access at address 65536 ends at 65540 .*65536 bytes of shared memory on gfx942"),
        (lambda: cktile.search("64by64", "fp16", "gfx942"), "tile: '64by64' is not ROWSxCOLS"),
        (lambda: cktile.search((64, 64), "fp16", "gfx942", reads=["nonsense"]), r"reads\[0\]: "),
        (lambda: cktile.Distribution("tile_distribution_encoding<"), "^1:"),
        (lambda: cktile.Layout.catalogue("cute-swizzle", b=True), "b: True is a bool"),
        (lambda: cktile.Layout("packed((4,8))", dtype="fp16").dma_plan([8, 1], width=3), "dma_plan: "),
    ],
)
def test_bad_input_raises_cktile_error_naming_it(call, message):
    with pytest.raises((cktile.Error, OverflowError)) as e:
        call()
    if message is not None:
        assert e.type is cktile.Error and isinstance(e.value, ValueError)
        import re

        assert re.search(message, str(e.value)), str(e.value)


def test_control_characters_in_user_text_are_spelled_out():
    with pytest.raises(cktile.Error) as e:
        cktile.Layout("packed((4,8)) | \x1b[31m")
    assert "\x1b" not in str(e.value) and "\\u{1b}" in str(e.value)


def test_the_modules_import_one_way():
    # The importers build on Layout; Layout does not reach back to them
    # (no module imports one that imports it).
    import ast
    import pathlib

    package = pathlib.Path(cktile.__file__).parent
    sources = {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in package.glob("*.py")}

    def imports(tree):
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names.update([node.module] if node.module else [a.name for a in node.names])
        return names

    graph = {name: imports(tree) & set(sources) for name, tree in sources.items()}

    def reaches(start, goal, seen=()):
        return any(d == goal or (d not in seen and reaches(d, goal, seen + (d,))) for d in graph[start])

    circles = sorted(name for name in graph if reaches(name, name))
    assert circles == [], f"modules on an import circle: {circles}"
    assert "importers" not in graph["_layout"]


def test_model_answer_names_the_model_and_refuses_where_its_source_is_silent():
    # The issue's gfx942 case: every lane at byte 0 is a broadcast for rocKE, 4-way for rocRoller.
    assert cktile.model_answer("rocke", "gfx942", "ds_read_b128", [0] * 64).max_ways == 1
    r = cktile.model_answer("rocroller", "gfx942", "ds_read_b128", [0] * 64)
    assert (r.max_ways, r.broadcast, r.model, r.banks) == (4, False, "rocroller", 32)
    with pytest.raises(cktile.Error, match="the hipkittens model says nothing of ds_read_b128 on gfx942"):
        cktile.model_answer("hipkittens", "gfx942", "ds_read_b128", [0] * 64)
    with pytest.raises(cktile.Error, match="unknown name `nvidia`"):
        cktile.model_answer("nvidia", "gfx942", "ds_read_b128", [0])
    with pytest.raises(cktile.Error, match="addresses"):
        cktile.model_answer("rocke", "gfx942", "ds_read_b128", [-1])


def test_disagreements_hold_the_issues_gfx942_cases():
    found = cktile.disagreements("gfx942")
    b128 = {d.pattern: d for d in found if d.op == "ds_read_b128"}
    ways = {a.model: a.ways for a in b128["lane L at byte 16*(L%4) + 128*(L/4)"].answers}
    assert (ways["cktile"], ways["rocroller"]) == (2, 1)
    ways = {a.model: a.ways for a in b128["every lane at byte 0"].answers}
    assert (ways["cktile"], ways["rocroller"], ways["iree"]) == (1, 4, None)
    with pytest.raises(cktile.Error, match="arch"):
        cktile.disagreements("gfx1030")

class FakeTorchDtype:
    """What cktile reads of a ``torch.dtype``: its module, its str() and its itemsize (torch is not installed)."""

    def __init__(self, name, itemsize):
        self.name, self.itemsize = name, itemsize

    def __str__(self):
        return f"torch.{self.name}"


FakeTorchDtype.__module__ = "torch"


def test_dtypes_as_python_names_them():
    from triton.experimental.gluon import language as gl

    spec = "packed((4,8))"
    for dtype, width in [
        ("float16", 2), ("float32", 4), ("float8_e4m3fn", 1), ("bfloat16", 2), ("uint8", 1), (2, 2),
        (np.float16, 2), (np.dtype("float32"), 4), (np.int8, 1), (np.uint64, 8), (np.int64(4), 4),
        (gl.float16, 2), (gl.bfloat16, 2), (gl.float8e4nv, 1), (gl.float32, 4),
        (FakeTorchDtype("float16", 2), 2), (FakeTorchDtype("float8_e4m3fn", 1), 1), (FakeTorchDtype("complex32", 4), 4),
    ]:
        assert cktile.Layout(spec, dtype=dtype).element_bytes == width, dtype
    assert cktile.Layout.catalogue("row-padded", rows=4, cols=4, pad=1, dtype=np.float32).element_bytes == 4
    r = cktile.search((64, 64), np.float16, "gfx942", writes=["ds_write_b128:row"], reads=["mfma16x16x16:a"])
    assert r.to_json() == cktile.search((64, 64), "fp16", "gfx942", writes=["ds_write_b128:row"], reads=["mfma16x16x16:a"]).to_json()
    # Every name names() lists is taken, at its size.
    for name in cktile.names()["dtypes"]:
        assert cktile.Layout(spec, dtype=name).element_bytes in (1, 2, 4, 8)
    # The missing-dtype message names Python's argument too.
    with pytest.raises(cktile.Error, match=r"`dtype=` in Python"):
        cktile.Layout(spec).analyze("gfx942", "mfma16")


def test_an_nvmma_layout_carries_its_element_width():
    from triton.experimental.gluon import language as gl

    for bits in (8, 16, 32):
        layout = gl.NVMMASharedLayout(64, bits)
        shape = [8, 512 // bits]
        assert cktile.from_triton(layout, shape).element_bytes == bits // 8
        assert cktile.from_triton(layout, shape, dtype=bits // 8).element_bytes == bits // 8
    with pytest.raises(cktile.Error, match=r"^dtype: 'fp32' has 4-byte elements, but the NVMMA layout's element_bitwidth is 16"):
        cktile.from_triton(gl.NVMMASharedLayout(128, 16), [8, 64], dtype="fp32")


def test_names_are_lists_of_names():
    n = cktile.names()
    assert all(isinstance(v, list) and all(isinstance(x, str) and ", " not in x for x in v) for v in n.values()), n
    assert {"ds_read_b128", "ds_write_b64", "ldmatrix.x4"} <= set(n["ops"]) and len(n["ops"]) == len(set(n["ops"]))
    r = cktile.Layout("packed((64,64))", dtype="fp16")
    for op in n["ops"]:  # each one a name analyze takes (or refuses as another vendor's, by name)
        try:
            r.analyze("gfx942", "rows", op=op)
        except cktile.Error as e:
            assert "unknown" not in str(e), (op, str(e))
    assert "mfma16x16x16_{a,b,c,c_transposed}" in n["distributions"]
    # Each model a name model_answer takes: an answer, or a refusal saying its source is silent.
    assert n["models"][0] == "cktile" and "mi450-blog" in n["models"]
    for m in n["models"]:
        try:
            assert cktile.model_answer(m, "gfx1250", "ds_read_b128", [16 * l for l in range(32)]).max_ways == 1
        except cktile.Error as e:
            assert f"the {m} model says nothing" in str(e), (m, str(e))


def test_cute_objects_with_numpy_integers():
    import pycute

    a = cktile.from_cute(pycute.Layout((np.int64(4), 8), (8, np.int32(1))))
    assert np.array_equal(a.offsets(), cktile.from_cute(pycute.Layout((4, 8), (8, 1))).offsets())


def round_trips():
    import copy
    import pickle

    return [copy.copy, copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))]


@pytest.mark.parametrize("copy_of", round_trips(), ids=["copy", "deepcopy", "pickle"])
def test_every_public_object_copies_and_pickles(copy_of):
    layout = cktile.Layout("ck-universal-a:m=128,k=64")
    spec = cktile.Layout("packed((128,64))", dtype="fp8")
    for l in (layout, spec):
        c = copy_of(l)
        assert type(c) is cktile.Layout and (c.source, c.element_bytes) == (l.source, l.element_bytes)
        assert np.array_equal(c.offsets(), l.offsets())
        assert c.analyze("gfx942", "mfma16").to_json() == l.analyze("gfx942", "mfma16").to_json()
    reports = [
        layout.analyze("gfx942", "mfma16"),
        cktile.bank("gfx90a", "ds_read_b32", [0, 128, None]),
        layout.check(),
        cktile.Distribution("mfma16x16x16_a").table(),
    ]
    for r in reports:
        c = copy_of(r)
        assert type(c) is cktile.Report and c.kind == r.kind and c.to_json() == r.to_json()
        a, b = r.arrays(), c.arrays()
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) and a[k].dtype == b[k].dtype for k in a), r.kind
    assert reports[0].arrays() and reports[1].arrays()  # the two reports with arrays keep them
    d = copy_of(cktile.Distribution("mfma16x16x16_a"))
    assert type(d) is cktile.Distribution and d.table().to_json() == reports[3].to_json()
    svg = copy_of(spec.grid())
    assert type(svg) is cktile.SVG and svg == spec.grid()


PARTITIONED = (
    "naive((8,2,8,32),(320,32768,40,1)) | transform(merge((8,2,8)) on [0,1,2] -> [0], pass_through(32) on [3] -> [1])"
)


def _even_odd_partitions(layout_text, base):
    """AMD's MI450 blog's rule by hand: warp w of block_raked_128x128x32_v8_w32 writes rows
    32 a + 8 w + r (a the access, r < 8), each 64 bytes of fp16 across the 32 columns; partition = byte // 65536."""
    layout = cktile.Layout(layout_text, dtype="fp16")
    out = []
    for a in range(4):
        pairs = (set(), set())
        for w in range(4):
            for r in range(8):
                for c in (0, 31):
                    pairs[w % 2].add((base + 2 * layout.offset(32 * a + 8 * w + r, c)) // 65536)
        out.append(pairs)
    return out


def test_gfx1250_windows_report_their_partitions():
    window = dict(distribution="block_raked_128x128x32_v8_w32", op="ds_write_b128")
    for text, base in [("row-padded:rows=128,cols=32,pad=8", 0), (PARTITIONED, 0), (PARTITIONED, 32768), (PARTITIONED, 100000)]:
        r = cktile.Layout(text, dtype="fp16").analyze("gfx1250", lds_base=base, **window)
        want = _even_odd_partitions(text, base)
        got = r.partitions
        assert got["base"] == base and got["warps"] == 4
        assert [(set(x["pair_a"]), set(x["pair_b"])) for x in got["accesses"]] == want
        assert got["conflicted"] == sum(1 for a, b in want if a & b)
        assert json.loads(r.to_json())["partitions"] == got.to_dict()
    # analyze_many gives the same key at base 0; no key elsewhere; lds_base refused where no check runs.
    [many] = cktile.analyze_many([cktile.Layout(PARTITIONED, "fp16")], "gfx1250", **window)
    assert many.partitions["conflicted"] == 0
    assert "partitions" not in cktile.Layout(PARTITIONED, "fp16").analyze("gfx950", **window)
    with pytest.raises(cktile.Error, match="gfx1250 only"):
        cktile.Layout(PARTITIONED, "fp16").analyze("gfx950", lds_base=0, **window)
    with pytest.raises(cktile.Error, match="not a pattern"):
        cktile.Layout(PARTITIONED, "fp16").analyze("gfx1250", "rows", op="ds_write_b128", lds_base=0)
    with pytest.raises(cktile.Error, match="lds_base"):
        cktile.Layout(PARTITIONED, "fp16").analyze("gfx1250", lds_base=-1, **window)


def test_search_judges_its_layouts_under_a_model(cli):
    args = ((64, 64), "fp16", "gfx942")
    kw = dict(writes=["ds_write_b128:row"], reads=["mfma16x16x16:a"])
    plain = cktile.search(*args, **kw)
    assert "model" not in plain
    for model in ["rocke", "iree", "cktile"]:
        r = cktile.search(*args, model=model, **kw)
        # The CLI's answers, key for key.
        out = cli.json("search", "--tile", "64x64", "--dtype", "fp16", "--arch", "gfx942", "--write", "ds_write_b128:row",
                       "--read", "mfma16x16x16:a", "--model", model)
        assert r.model.to_dict() == json.loads(out)["model"]
        assert [l.entry for l in r.model.layouts] == [c.entry for c in r.optimal[:12]]
        for l in r.model.layouts:
            if model == "cktile":  # cktile's own model is analyze's count of each pattern
                layout = cktile.Layout(l.entry)
                want = [layout.analyze("gfx942", "rows", op="ds_write_b128").max_ways, layout.analyze("gfx942", "mfma16").max_ways]
                assert [a.max_ways for a in l.accesses] == want
    with pytest.raises(cktile.Error, match="model"):
        cktile.search(*args, model="nvidia", **kw)


def test_gfx1250_plans_are_the_clis(cli):
    swizzled = cktile.Layout("cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", "fp16")
    out = cli.json("dma-plan", "cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", "--global-strides", "4096,1",
                   "--arch", "gfx1250", "--path", "async", "--width", "16", "--dtype", "fp16")
    r = swizzled.async_plan([4096, 1], 16)
    assert r.to_dict() == json.loads(out)
    # Every element of the tile lands where the layout puts it.
    for l in r.loads:
        row, col = l.coordinate
        assert l.lds_byte == 2 * swizzled.offset(row, col) and l.global_byte == 2 * (4096 * row + col)
    padded = cktile.Layout("row-padded:rows=64,cols=64,pad=4", "fp16")
    out = cli.json("dma-plan", "row-padded:rows=64,cols=64,pad=4", "--global-strides", "4096,1", "--arch", "gfx1250",
                   "--dtype", "fp16")
    assert padded.tdm_plan([4096, 1]).to_dict() == json.loads(out)
    with pytest.raises(cktile.Error, match="one stream"):
        swizzled.tdm_plan([4096, 1])
    with pytest.raises(cktile.Error, match="no b96"):
        swizzled.async_plan([4096, 1], 12)
    with pytest.raises(cktile.Error, match="width"):
        swizzled.async_plan([4096, 1], -1)


def test_large_pictures_stay_small_and_summarise_themselves():
    svg = cktile.Layout("cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=128", "fp16").grid()
    assert len(svg) < 100_000 and "data:image/png;base64," in svg
    r = repr(svg)
    assert r.startswith("<cktile.SVG 'Layout grid: ") and f"{len(svg)} bytes" in r and len(r) < 200
    assert svg._repr_svg_() == str(svg)


def test_a_kind_key_reads_as_the_key():
    """Every key reads as an attribute, ``kind`` too: an export's kind of layout, an equivalence's kind of
    map; ``report_kind`` is always what the report answers, and a report without the key keeps it as ``kind``."""
    layout = cktile.Layout("row-padded:rows=64,cols=64,pad=8", "fp16")
    e = layout.export("triton")
    assert (e.kind, e["kind"], e.report_kind) == ("padded", "padded", "export")
    assert cktile.Layout("packed((4,8))", "fp16").export("cute").kind == "layout"
    q = cktile.equiv(cktile.Distribution("mfma16x16x16_c"), cktile.Distribution("mfma16x16x16_c"))
    assert (q.kind, q.report_kind) == ("distribution", "equiv")
    r = layout.analyze("gfx942", "mfma16")
    assert r.kind == r.report_kind == "analyze" and "kind" not in r.to_dict()
