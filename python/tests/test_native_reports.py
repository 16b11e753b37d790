"""The native reports (`analyze`, `bank`): every field read from the library's report equals the same key of
the CLI's JSON, before and after the JSON is written; numpy inputs and outputs; `analyze_many` equals
`analyze` one layout at a time."""

import json
import random
import subprocess

import numpy as np
import pytest

import cktile

from test_cli_agreement import ACCESSES, ENTRIES, typed


def native_fields_equal(report, data, path="report"):
    """Every key the native report holds equals the JSON's value there, with the JSON's Python type."""
    native = report._native
    assert native is not None, path
    held = 0
    for key, want in data.items():
        try:
            got = native.get(key)
        except KeyError:
            continue
        held += 1
        if isinstance(got, cktile._native.Instruction):
            native_fields_equal(getattr(report, key), want, f"{path}.{key}")
            continue
        assert type(got) is type(want) and got == want, (path, key, got, want)
        assert getattr(report, key) == want and report[key] == want, (path, key)
    assert held >= 8, (path, held)


@pytest.mark.parametrize("example", ENTRIES)
@pytest.mark.parametrize("arch,pattern,distribution,op", ACCESSES)
def test_analyze_fields_are_the_jsons(cli, example, arch, pattern, distribution, op):
    layout, dtype = typed(example)
    try:
        report = layout.analyze(arch, pattern, distribution=distribution, op=op)
    except cktile.Error:
        return  # test_cli_agreement holds the refusal equal to the CLI's
    # The fields are read before the report has any JSON...
    data = json.loads(cli.json("analyze", example, "--arch", arch, *(["--dtype", dtype] if dtype else []),
                               *(["--pattern", pattern] if pattern else ["--distribution", distribution]),
                               *(["--op", op] if op else [])))
    native_fields_equal(report, data)
    arrays = report.arrays()
    for key in ("phases", "cycles", "conflict_cycles", "max_ways", "worst_phase"):
        assert arrays[key].dtype == np.uint32 and arrays[key].tolist() == [i[key] for i in data["per_instruction"]]
    assert len(arrays["active_lanes"]) == data["instructions"]
    # ...and the JSON, written afterwards, is the CLI's.
    assert json.loads(report.to_json()) == data and set(report) == set(data)


def test_analyze_many_is_analyze_one_by_one():
    layouts = [typed(e)[0] for e in ENTRIES]
    for arch, pattern, distribution, op in ACCESSES:
        one = []
        for l in layouts:
            try:
                one.append(l.analyze(arch, pattern, distribution=distribution, op=op).to_json())
            except cktile.Error as e:
                one.append(str(e))
        good = [l for l, r in zip(layouts, one) if not r.startswith(("pattern", "op", "arch")) and r.startswith("{")]
        many = cktile.analyze_many(good, arch, pattern, distribution=distribution, op=op)
        assert [r.to_json() for r in many] == [r for r in one if r.startswith("{")]
        bad = [(l, r) for l, r in zip(layouts, one) if not r.startswith("{")]
        if bad:
            # The first refused layout's error, as analyze raises it.
            with pytest.raises(cktile.Error) as e:
                cktile.analyze_many(good[:1] + [bad[0][0]] + layouts, arch, pattern, distribution=distribution, op=op)
            assert str(e.value) == bad[0][1]
    assert cktile.analyze_many([], "gfx942", "mfma16") == []
    with pytest.raises(cktile.Error, match=r"^layouts\[1\]: 'packed\(\(4,8\)\)' is a str, not a cktile.Layout$"):
        cktile.analyze_many([layouts[0], "packed((4,8))"], "gfx942", "mfma16")
    with pytest.raises(cktile.Error, match=r"^layouts: "):
        cktile.analyze_many(layouts[0], "gfx942", "mfma16")


# (arch, op, lanes): instructions of both vendors, reads and writes, with inactive lanes.
BANKS = [
    ("gfx942", "ds_read_b128", 64),
    ("gfx942", "ds_read_b32", 64),
    ("gfx90a", "ds_write_b64", 64),
    ("gfx950", "ds_read_b64_tr_b16", 64),
    ("sm90", "ld.shared.b32", 32),
    ("sm90", "ldmatrix.x4", 32),
    ("sm80", "cp.async.b128", 32),
]


@pytest.mark.parametrize("arch,op,lanes", BANKS)
def test_bank_fields_are_the_clis(cli, arch, op, lanes):
    rng = random.Random(f"{arch}/{op}")
    for trial in range(6):
        align = 16 if "128" in op or "ldmatrix" in op else 8 if "64" in op else 4
        addresses = [rng.randrange(0, 4096 // align) * align for _ in range(lanes)]
        if trial % 2:
            addresses[rng.randrange(lanes)] = None
        request = json.dumps({"arch": arch, "op": op, "addresses": addresses})
        p = subprocess.run([cli.path, "bank"], input=request, capture_output=True, text=True)
        try:
            report = cktile.bank(arch, op, addresses)
        except cktile.Error as e:
            assert p.returncode == 2 and p.stderr.rstrip("\n").endswith(str(e).split(": ", 1)[1]), (p.stderr, str(e))
            continue
        assert p.returncode == 0, p.stderr
        native_fields_equal(report, json.loads(p.stdout))
        assert report.to_json() == p.stdout.rstrip("\n")
        a = report.arrays()
        assert a["active"].tolist() == [x is not None for x in addresses]
        assert a["addresses"].dtype == np.uint64 and a["addresses"].tolist() == [x or 0 for x in addresses]


def test_bank_takes_tuples_and_numpy_arrays():
    addresses = [t * 64 for t in range(64)]
    want = cktile.bank("gfx942", "ds_read_b128", addresses).to_json()
    for dtype in (np.int64, np.uint64, np.int32, np.uint32, np.uint16):
        assert cktile.bank("gfx942", "ds_read_b128", np.array(addresses, dtype=dtype)).to_json() == want
    assert cktile.bank("gfx942", "ds_read_b128", tuple(addresses)).to_json() == want
    assert cktile.bank("gfx942", "ds_read_b128", np.array(addresses)[::-1][::-1]).to_json() == want  # a view
    assert cktile.bank("gfx942", "ds_read_b128", (np.int64(a) for a in addresses)).to_json() == want  # any iterable
    # What the library cannot read itself is checked one by one, as before.
    with pytest.raises(cktile.Error, match=r"^addresses\[2\]: -16 is out of range"):
        cktile.bank("gfx942", "ds_read_b128", np.array([0, 16, -16]))
    with pytest.raises(cktile.Error, match=r"^addresses\[0\]: np.float64\(1\.5\) is a float64, not an integer"):
        cktile.bank("gfx942", "ds_read_b128", np.array([1.5]))
    with pytest.raises(cktile.Error, match=r"^addresses\[1\]: True is a bool"):
        cktile.bank("gfx942", "ds_read_b128", (0, True))


@pytest.mark.parametrize(
    "spec",
    [
        "naive((3),(1)) | transform(pad(3,1,0) on [0] -> [0])",
        "naive((4,10),(16,1)) | transform(pass_through(4) on [0] -> [0], pad(10,2,3) on [1] -> [1])",
        "packed((3,5,7))",
        "packed((2,3,2,5))",
        "packed((2,1,3,1,2,1,2,3))",
        "naive((5,7),(1,5))",
        "naive((4097),(3))",
    ],
)
def test_offsets_equal_the_clis_on_padding_and_every_rank(cli, spec):
    layout = cktile.Layout(spec)
    want = json.loads(cli.json("offsets", spec))
    assert layout.offsets().shape == layout.valid().shape == tuple(want["lengths"])
    assert layout.offsets().ravel().tolist() == want["offsets"]
    assert layout.valid().ravel().tolist() == want["valid"]
    # Each call returns arrays of its own.
    o = layout.offsets()
    o[...] = -7
    assert layout.offsets().ravel().tolist() == want["offsets"]


def test_native_reports_pickle_and_copy_as_their_json():
    import copy
    import pickle

    r = cktile.Layout("packed((16,64))", dtype="fp16").analyze("gfx942", "mfma16")
    for again in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r), copy.copy(r)):
        assert again.to_json() == r.to_json() and again.kind == "analyze"
        assert again.worst.phase_detail[0].ways == r.worst.phase_detail[0].ways
    b = cktile.bank("gfx942", "ds_read_b128", [t * 64 for t in range(64)])
    assert pickle.loads(pickle.dumps(b)).to_json() == b.to_json()
    nested = pickle.loads(pickle.dumps(r.worst))
    assert nested.to_dict() == r.to_dict()["worst"]
