"""Hostile input to every public function's integer arguments: a float, a string, a bool
or an out-of-range integer is refused with a ``cktile.Error`` that names the argument and the value as
given, once (no doubled prefix), and nothing is read as another number."""

import re

import numpy as np
import pytest

import cktile
from cktile.importers import linear_bases_spec

L = cktile.Layout("packed((4,8))", dtype="fp16")
D = cktile.Distribution("mfma16x16x16_a")
BIG = 1 << 70

CASES = [
    # Layout: coordinates, the DMA planner's numbers, the pictures' sizes.
    ("offset float", lambda: L.offset(1.5, 0), r"^coordinate\[0\]: 1\.5 is a float, not an integer$"),
    ("offset str", lambda: L.offset("1", 0), r"^coordinate\[0\]: '1' is a str, not an integer$"),
    ("offset bool", lambda: L.offset(True, 0), r"^coordinate\[0\]: True is a bool, not an integer$"),
    ("offset huge", lambda: L.offset(0, BIG), rf"^coordinate\[1\]: {BIG} is out of range; expected an integer from"),
    ("trace float", lambda: L.trace(0, 2.0), r"^coordinate\[1\]: 2\.0 is a float"),
    ("dma strides", lambda: L.dma_plan([8.0, 1], width=4), r"^global_strides\[0\]: 8\.0 is a float"),
    ("dma strides str", lambda: L.dma_plan("81", width=4), r"^global_strides: '81' is a str, not a sequence"),
    ("dma width", lambda: L.dma_plan([8, 1], width="4"), r"^width: '4' is a str"),
    ("dma workgroup", lambda: L.dma_plan([8, 1], width=4, workgroup=True), r"^workgroup: True is a bool"),
    ("dma wave", lambda: L.dma_plan([8, 1], width=4, wave=-64), r"^wave: -64 is out of range; expected an integer from 0"),
    ("dma lds_base", lambda: L.dma_plan([8, 1], width=4, lds_base=0.5), r"^lds_base: 0\.5 is a float"),
    ("grid rows", lambda: L.grid(rows=2.5), r"^rows: 2\.5 is a float"),
    ("grid cols", lambda: L.grid(cols="8"), r"^cols: '8' is a str"),
    ("heat map", lambda: L.heat_map("sm90", "rows", op="ld.shared.b32", instruction=1.0), r"^instruction: 1\.0 is a float"),
    # Distribution.
    ("coverage", lambda: D.coverage((16.0, 16)), r"^tile\[0\]: 16\.0 is a float"),
    ("owners", lambda: D.owners(rows=False), r"^rows: False is a bool"),
    # bank: one address per lane.
    ("bank float", lambda: cktile.bank("gfx942", "ds_read_b32", [1.5]), r"^addresses\[0\]: 1\.5 is a float"),
    ("bank str", lambda: cktile.bank("gfx942", "ds_read_b32", [0, "4"]), r"^addresses\[1\]: '4' is a str"),
    ("bank bool", lambda: cktile.bank("gfx942", "ds_read_b32", [True]), r"^addresses\[0\]: True is a bool"),
    ("bank negative", lambda: cktile.bank("gfx942", "ds_read_b32", [-4]), r"^addresses\[0\]: -4 is out of range"),
    ("bank huge", lambda: cktile.bank("gfx942", "ds_read_b32", [BIG]), rf"^addresses\[0\]: {BIG} is out of range"),
    ("bank not a list", lambda: cktile.bank("gfx942", "ds_read_b32", 4), r"^addresses: 4 is a int, not a sequence"),
    # search.
    ("search floats", lambda: cktile.search((64.0, 64), "fp16", "gfx942"), r"^tile\[0\]: 64\.0 is a float"),
    ("search rank", lambda: cktile.search((64, 64, 2), "fp16", "gfx942"), r"^tile: \(64, 64, 2\) has 3 lengths"),
    ("search padding", lambda: cktile.search((64, 64), "fp16", "gfx942", max_padding_bytes=8.0), r"^max_padding_bytes: 8\.0"),
    ("search vector", lambda: cktile.search((64, 64), "fp16", "gfx942", vector="8"), r"^vector: '8' is a str"),
    # Text arguments: a number, None or a bare string where a list of strings is meant.
    ("bank arch", lambda: cktile.bank(42, "ds_read_b32", [0]), r"^arch: 42 is a int, not a str$"),
    ("bank op", lambda: cktile.bank("gfx942", None, [0]), r"^op: None is a NoneType, not a str$"),
    ("analyze arch", lambda: L.analyze(5, "rows", op="ld.shared.b32"), r"^arch: 5 is a int"),
    ("analyze op", lambda: L.analyze("sm90", "rows", op=7), r"^op: 7 is a int"),
    ("analyze pattern", lambda: L.analyze("sm90", 3), r"^pattern: 3 is a int"),
    ("layout dtype", lambda: cktile.Layout("packed((4,8))", dtype=16), r"^dtype: number 16 is out of range; expected 1, 2, 4 or 8 bytes"),
    ("catalogue name", lambda: cktile.Layout.catalogue(7), r"^name: 7 is a int"),
    ("codegen lang", lambda: L.codegen(1), r"^lang: 1 is a int"),
    ("codegen name", lambda: L.codegen("hip", name=2), r"^name: 2 is a int"),
    ("dma arch", lambda: L.dma_plan([8, 1], width=4, arch=3), r"^arch: 3 is a int"),
    ("dma order", lambda: L.dma_plan([8, 1], width=4, order=None), r"^order: None is a NoneType"),
    ("grid arch", lambda: L.grid(arch=None), r"^arch: None is a NoneType"),
    ("grid title", lambda: L.grid(title=5), r"^title: 5 is a int"),
    ("heat map op", lambda: L.heat_map("sm90", "rows", op=1), r"^op: 1 is a int"),
    ("distribution", lambda: cktile.Distribution(5), r"^encoding: 5 is a int"),
    ("transpose op", lambda: cktile.Distribution("mfma16x16x16_a").transpose_load(3), r"^op: 3 is a int"),
    ("transpose reverse", lambda: cktile.Distribution("mfma16x16x16_a").transpose_load("ds_read_b64_tr_b16", reverse=1),
     r"^reverse: 1 is a int, not a bool"),
    ("search dtype", lambda: cktile.search((64, 64), 3, "gfx942"), r"^dtype: number 3 is out of range"),
    ("search writes str", lambda: cktile.search((64, 64), "fp16", "gfx942", writes="ds_write_b128:row"),
     r"^writes: 'ds_write_b128:row' is a str, not a sequence of str \(write \['ds_write_b128:row'\] for one\)$"),
    ("search reads item", lambda: cktile.search((64, 64), "fp16", "gfx942", reads=[1]), r"^reads\[0\]: 1 is a int"),
    ("rules arch", lambda: cktile.rules(9), r"^arch: 9 is a int"),
    # Shared-memory matrix descriptors.
    ("wgmma target", lambda: L.wgmma_descriptor(90), r"^target: 90 is a int"),
    ("wgmma k_dim", lambda: L.wgmma_descriptor(k_dim=1.0), r"^k_dim: 1\.0 is a float"),
    ("wgmma base", lambda: L.wgmma_descriptor(base=-16), r"^base: -16 is out of range"),
    ("wgmma major", lambda: L.wgmma_descriptor(major="row"), r"^major: unknown name `row`"),
    ("wgmma swizzle", lambda: L.wgmma_descriptor(swizzle=128), r"^swizzle: 128 is a int"),
    ("wgmma instruction", lambda: L.wgmma_descriptor(instruction_mn=True), r"^instruction_mn: True is a bool"),
    ("tma strides", lambda: L.tma_map("8,1"), r"^global_strides: '8,1' is a str"),
    ("tma shape", lambda: L.tma_map([8, 1], global_shape=[4, -8]), r"^global_shape\[1\]: -8 is out of range"),
    ("tma base", lambda: L.tma_map([8, 1], base=1.5), r"^base: 1\.5 is a float"),
    ("hopper_plan tile", lambda: cktile.hopper_plan((128.0, 64), "fp16", [64, 1]), r"^tile\[0\]: 128\.0 is a float"),
    ("hopper_plan epilogue", lambda: cktile.hopper_plan((128, 64), "fp16", [64, 1], epilogue=1), r"^epilogue: 1 is a int"),
    ("hopper_plan strides", lambda: cktile.hopper_plan((128, 64), "fp16", [64]), r"^global_strides: 1 strides"),
    # Importers.
    ("linear bases", lambda: linear_bases_spec([[0, 1.0]]), r"^offset_bases\[0\]\[1\]: 1\.0 is a float"),
    ("linear bases None", lambda: cktile.from_linear_bases(None), r"^offset_bases: None is a NoneType, not a sequence"),
    ("cute deep text", lambda: cktile.from_cute("(" * 5000 + "4" + ")" * 5000 + ":1"),
     r"expected an integer \(modes nest at most 64 levels deep\) at character 65, found '\({12}'"),
    ("cute deep object", lambda: cktile.from_cute(Deep()), r"^shape(\[0\])+: nested more than 64 levels deep$"),
    ("cute float shape", lambda: cktile.from_cute(Deep(shape=(4.0, 8), stride=(8, 1))), r"^shape\[0\]: 4\.0 is a float"),
    # A 0-d numpy array is no sequence; '²' is a digit to str.isdigit(), not to int().
    ("0-d addresses", lambda: cktile.bank("gfx942", "ds_read_b32", np.array(5)), r"^addresses: array\(5\) is a ndarray, not a"),
    ("0-d tile", lambda: D.coverage(np.array(16)), r"^tile: array\(16\) is a ndarray, not a sequence"),
    ("0-d coordinate", lambda: L.offset(np.array([1, 2])), r"^coordinate\[0\]: array\(\[1, 2\]\) is a ndarray"),
    ("superscript tile", lambda: cktile.search("²x64", "fp16", "gfx942"), r"^tile: '²x64' is not ROWSxCOLS"),
    # A number written as text is not taken as the number.
    ("catalogue number text", lambda: cktile.Layout.catalogue("row-padded", rows="16", cols=4, pad=1),
     r"^rows: '16' is a str; write the number 16 without quotes$"),
    ("catalogue float", lambda: cktile.Layout.catalogue("row-padded", rows=16.0, cols=4, pad=1), r"^rows: 16\.0 is a float"),
    # dtypes: a width cktile has no element type for.
    ("dtype complex", lambda: cktile.Layout("packed((4,8))", dtype=np.complex128), r"^dtype: complex128 is 16 bytes wide"),
    ("dtype object", lambda: cktile.Layout("packed((4,8))", dtype=object()), r"^dtype: <object object at .*> is a object, not an"),
    # A call Python itself refuses (a missing or unknown argument) is a cktile.Error too.
    ("missing argument", lambda: cktile.bank("gfx942"), r"^bank: TypeError: .*missing 2 required positional arguments"),
    ("unknown keyword", lambda: L.analyze("gfx942", "rows", colour="red"), r"^Layout\.analyze: TypeError: .*colour"),
]


class Deep:
    """A CuTe-like object: a shape and stride nested 5,000 levels deep unless given."""

    def __init__(self, shape=None, stride=None):
        if shape is None:
            shape = 4
            for _ in range(5000):
                shape = (shape,)
            stride = shape
        self.shape, self.stride = shape, stride


@pytest.mark.parametrize("name,call,message", CASES, ids=[c[0] for c in CASES])
def test_hostile_integers_are_refused_by_name(name, call, message):
    with pytest.raises(cktile.Error) as e:
        call()
    assert re.search(message, str(e.value)), str(e.value)


def test_numpy_integers_are_integers():
    # An integer numpy scalar is an integer; a numpy float is not.
    assert L.offset(np.int64(3), np.int32(2)) == L.offset(3, 2)
    with pytest.raises(cktile.Error, match=r"^coordinate\[0\]: .*3\.0.* is a float64, not an integer$"):
        L.offset(np.float64(3), 0)


@pytest.mark.parametrize(
    "call",
    [
        lambda: L.dma_plan([8, 1], width=3),
        lambda: cktile.search((64, 64), "fp16", "gfx942", reads=["nonsense"]),
        lambda: cktile.search((0, 64), "fp16", "gfx942"),
        lambda: cktile.search((64, 64), "fp16", "gfx942", writes=["ds_write_b128:row"], vector=3),
        lambda: L.analyze("sm90", "rows", op="ds_read_q9"),
        lambda: cktile.bank("gfx942", "ds_read_b32", [0, 65536]),
    ],
)
def test_messages_name_their_argument_once(call):
    with pytest.raises(cktile.Error) as e:
        call()
    text = str(e.value)
    # No doubled prefix: "search: search:", "dma_plan: dma-plan:".
    first = re.match(r"^([\w.\[\]-]+): ([\w.\[\]-]+):", text)
    assert not (first and first.group(1).replace("_", "-") == first.group(2).replace("_", "-")), text
