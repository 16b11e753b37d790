"""Importers: the layouts people already have, as cktile layouts.

- :func:`from_cute`: CuTe layouts from pycute (the ``nvidia-cutlass``
  wheel) or Meta's ``tensor-layouts``: ``Layout`` (nested shapes and
  strides), ``Swizzle`` and ``ComposedLayout`` (a swizzle over a layout,
  with an offset); or a layout as CuTe prints it (C++ CuTe's ``print``, CuTe
  DSL's ``cute.printf`` / ``print`` inside a ``@cute.jit`` function, pycute,
  tensor-layouts), such as ``Sw<3,3,3> o _0 o (_16,_64):(_64,_1)``.
- :func:`from_triton`: Triton / Gluon shared layouts
  (``SwizzledSharedLayout``, ``NVMMASharedLayout``, ``SharedLinearLayout``
  through Triton's own ``to_linear_layout``; ``PaddedSharedLayout`` with
  its padding, :func:`padded_spec`; AMD's rotating layout, which Gluon has
  no class for, as Triton prints it, ``#ttg.amd_rotating_shared<{...}>``,
  through the catalogue's ``triton-rotating`` entry; any other kind is
  refused by name) and plain linear-layout bases (:func:`from_linear_bases`).

Each importer writes cktile spec text or a catalogue entry, so the result's
:attr:`~cktile.Layout.source` pastes into any ``cktile`` command, and the
whole library accepts it. The importers read the objects' public attributes
only; neither pycute, tensor-layouts nor Triton is needed to import this
module.
"""

from __future__ import annotations

import json
import math
import re
import threading
from typing import Any, List, Optional, Sequence, Tuple

from . import _native
from ._args import I32_MAX, USIZE, integer, integers, public, sequence
from ._cute import MAX_DEPTH, _Printed, parse_cute
from ._layout import Layout

__all__ = ["from_cute", "cute_spec", "parse_cute", "from_triton", "from_linear_bases", "linear_bases_spec"]


# CuTe ----------------------------------------------------------------------


def _tree(value: object, where: str, depth: int = 0) -> object:
    """A shape or stride as plain Python: integers (numpy's and CuTe DSL's too, anything ``operator.index``
    reads) as ``int``, tuples and lists of them as tuples, at most :data:`MAX_DEPTH` levels deep."""
    if isinstance(value, (tuple, list)):
        if depth >= MAX_DEPTH:
            raise _native.Error(f"{where}: nested more than {MAX_DEPTH} levels deep")
        return tuple(_tree(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value))
    return integer(where, value)


def _flatten(shape: object, stride: object, where: str) -> Tuple[List[int], List[int]]:
    """One mode's (sub)shape and stride (as :func:`_tree` gives them), flattened colexicographically (first
    sub-mode fastest)."""
    if isinstance(shape, int):
        if not isinstance(stride, int):
            raise _native.Error(f"{where}: shape {shape} has stride {stride!r}; a CuTe layout's stride matches its shape")
        return [shape], [stride]
    if not isinstance(shape, tuple) or not isinstance(stride, tuple) or len(shape) != len(stride):
        raise _native.Error(f"{where}: shape {shape!r} and stride {stride!r} are not congruent")
    shapes: List[int] = []
    strides: List[int] = []
    for i, (s, d) in enumerate(zip(shape, stride)):
        a, b = _flatten(s, d, f"{where}[{i}]")
        shapes += a
        strides += b
    return shapes, strides


def _parts(obj: object) -> Tuple[Optional[object], int, object]:
    """(swizzle or None, offset, plain layout) of a pycute / tensor-layouts object or printed text."""
    if isinstance(obj, _Printed):
        return obj.swizzle, obj.offset, obj
    # pycute: ComposedLayout(layoutB, offset, layoutA) evaluates layoutB(offset + layoutA(c)).
    if hasattr(obj, "layoutB") and hasattr(obj, "layoutA"):
        return obj.layoutB, integer("offset", obj.offset), obj.layoutA
    # tensor-layouts: ComposedLayout(outer, offset, inner), the same map.
    if hasattr(obj, "outer") and hasattr(obj, "inner"):
        return obj.outer, integer("offset", getattr(obj, "offset", 0) or 0), obj.inner
    swizzle = getattr(obj, "swizzle", None)
    return swizzle, 0, obj


def _is_swizzle(obj: object) -> bool:
    return all(hasattr(obj, a) for a in ("bits", "base", "shift")) and not hasattr(obj, "stride")


def _tuple(values: Sequence[int]) -> str:
    """Spec text of a tuple: ``(8,2,4)``."""
    return "(" + ",".join(str(v) for v in values) + ")"


@public
def cute_spec(layout: object) -> str:
    """The cktile spec text of a CuTe layout (pycute or tensor-layouts).

    The top dimensions are the layout's top-level modes; a mode with
    sub-modes is merged colexicographically, as CuTe indexes it; a swizzle
    (with the composition's offset) acts on the offset the layout computes.

    >>> import pycute
    >>> cute_spec(pycute.Layout((8, (2, 4)), (4, (1, 32))))
    'naive((8,2,4),(4,1,32)) | transform(pass_through(8) on [0] -> [0], merge((4,2)) on [2,1] -> [1])'
    """
    if isinstance(layout, str):
        layout = parse_cute(layout)
    if _is_swizzle(layout):
        raise _native.Error(
            "a bare Swizzle has no shape; compose it with a layout first "
            "(pycute.ComposedLayout(swizzle, 0, layout), or tensor_layouts.compose(swizzle, layout))"
        )
    swizzle, offset, inner = _parts(layout)
    if swizzle is not None and not _is_swizzle(swizzle):
        raise _native.Error(f"only a Swizzle can be composed over a layout here, not {type(swizzle).__name__}")
    shape, stride = getattr(inner, "shape", None), getattr(inner, "stride", None)
    if shape is None or stride is None:
        raise _native.Error(f"{type(layout).__name__} is not a CuTe layout (it has no shape and stride)")
    shape, stride = _tree(shape, "shape"), _tree(stride, "stride")
    # Congruent at the top too: zip() below would drop the extra modes of either side.
    if isinstance(shape, tuple) != isinstance(stride, tuple) or (
        isinstance(shape, tuple) and len(shape) != len(stride)
    ):
        raise _native.Error(
            f"shape {shape!r} and stride {stride!r} are not congruent: a CuTe layout's stride has one mode per "
            f"mode of its shape ({len(shape) if isinstance(shape, tuple) else 1} here), each of the same form"
        )
    modes = list(shape) if isinstance(shape, tuple) else [shape]
    mode_strides = list(stride) if isinstance(stride, tuple) else [stride]
    flat: List[int] = []
    flat_strides: List[int] = []
    groups: List[List[int]] = []
    for k, (s, d) in enumerate(zip(modes, mode_strides)):
        a, b = _flatten(s, d, f"mode {k}")
        groups.append(list(range(len(flat), len(flat) + len(a))))
        flat += a
        flat_strides += b

    stages: List[str] = []
    if swizzle is None and offset == 0:
        stages.append(f"naive({_tuple(flat)},{_tuple(flat_strides)})")
    else:
        # The offsets the layout reaches, then the block the swizzle permutes.
        top = offset + sum((n - 1) * d for n, d in zip(flat, flat_strides) if d > 0)
        low = offset + sum((n - 1) * d for n, d in zip(flat, flat_strides) if d < 0)
        if low < 0:
            raise _native.Error(f"the layout reaches offset {low}: a swizzled layout's offsets must be non-negative")
        block = 1
        if swizzle is not None:
            b, m, sh = (integer(f"Swizzle.{k}", getattr(swizzle, k)) for k in ("bits", "base", "shift"))
            # Checked here, before the block it spans is computed: the user's numbers, not a derived size.
            if b < 0 or m < 0 or abs(sh) < b or b + m + abs(sh) > 62:
                raise _native.Error(
                    f"Swizzle<{b},{m},{sh}>: CuTe's Swizzle<B,M,S> needs B >= 0, M >= 0, |S| >= B and "
                    f"B + M + |S| <= 62 (cktile's offsets have 63 bits); here B + M + |S| = {b + m + abs(sh)}"
                )
            block = 1 << (m + abs(sh) + b)
        space = -(-(top + 1) // block) * block
        stages.append(f"packed({space})")
        if swizzle is not None and b > 0:
            stages.append(f"transform(swizzle({b},{m},{sh}) on [0] -> [0])")
        if offset != 0:
            stages.append(f"transform(offset({space - offset},{offset}) on [0] -> [0])")
        ids = ",".join(str(i) for i in range(len(flat)))
        stages.append(f"transform(embed({_tuple(flat)},{_tuple(flat_strides)}) on [0] -> [{ids}])")
    if any(len(g) > 1 for g in groups):
        items = []
        for k, g in enumerate(groups):
            if len(g) == 1:
                items.append(f"pass_through({flat[g[0]]}) on [{g[0]}] -> [{k}]")
            else:
                # CuTe's colexicographic order: the first sub-mode is the fastest, CK's merge's last.
                rev = list(reversed(g))
                items.append(f"merge({_tuple(flat[i] for i in rev)}) on [{','.join(str(i) for i in rev)}] -> [{k}]")
        stages.append("transform(" + ", ".join(items) + ")")
    return " | ".join(stages)


@public
def from_cute(layout: object, dtype: Optional[str] = None) -> Layout:
    """A CuTe layout (pycute or tensor-layouts ``Layout`` / ``ComposedLayout``, or the text CuTe
    prints for one) as a cktile layout.

    Every coordinate's offset equals the source's ``layout(*coordinate)``.

    >>> import pycute
    >>> sw = pycute.ComposedLayout(pycute.Swizzle(3, 3, 3), 0, pycute.Layout((16, 64), (64, 1)))
    >>> a = from_cute(sw, dtype="fp16")
    >>> a.offset(1, 8) == sw(1, 8)
    True
    >>> a.analyze("sm90", "ldmatrix").max_ways
    1
    >>> from_cute("(8,(2,4)):(4,(1,32))").offset(1, 5)   # as C++ CuTe or CuTe DSL prints a layout
    69
    """
    origin = "tensor-layouts" if type(layout).__module__.split(".")[0] == "tensor_layouts" else "cute"
    return Layout(cute_spec(layout), dtype)._imported_from(origin)


# Triton ----------------------------------------------------------------------


@public
def linear_bases_spec(offset_bases: Sequence[Sequence[int]], shape: Optional[Sequence[int]] = None) -> str:
    """The cktile text of a shared linear layout given as Triton's ``offset_bases``.

    Basis ``i`` is the coordinate offset bit ``i`` maps to (Triton's
    ``LinearLayout`` from ``offset`` to ``dim0, dim1, ...``); a coordinate's
    offset is the inverse of that XOR-linear map. cktile imports every layout
    in which each basis adds one new coordinate bit, XOR bits that earlier
    offset bits already placed, and the XORed bits all lie below the bits
    that feed them: Triton's swizzled and NVMMA encodings (of any rank, in
    either order, with their atoms tiled), CuTe's swizzles of a tile, and
    most hand-written swizzles. The 2-D layouts that walk one dimension and
    then the other are written as an ``xor-linear`` catalogue entry; the rest
    as spec text (a packed buffer, its swizzles, then the bits sorted out by
    an unmerge and merges). Other layouts are refused, naming the first basis
    at fault.

    >>> linear_bases_spec([[0, 1], [0, 2], [0, 4], [1, 2], [2, 4]])
    'xor-linear:rows=4,cols=8,vec=2,masks=1.2,major=row'
    """
    bases = [tuple(integers(f"offset_bases[{i}]", b)) for i, b in enumerate(sequence("offset_bases", offset_bases))]
    if not bases:
        raise _native.Error("offset_bases: empty; a shared layout of n elements has log2(n) bases")
    rank = len(bases[0])
    if rank == 0 or any(len(b) != rank for b in bases):
        bad = next((b for b in bases if len(b) != rank), bases[0])
        raise _native.Error(f"offset_bases: basis {list(bad)} has not the {rank} coordinates the first one has")
    if any(x < 0 for b in bases for x in b):
        bad = next(b for b in bases if any(x < 0 for x in b))
        raise _native.Error(f"offset_bases: basis {list(bad)} has a negative coordinate")
    # unit[i] = (dim, bit): the coordinate bit offset bit i adds; owner[(dim, bit)] = i.
    unit: List[Tuple[int, int]] = []
    owner = {}
    xors: List[List[int]] = []  # the earlier offset bits each basis XORs in
    for i, b in enumerate(bases):
        new = [(d, k) for d in range(rank) for k in range(b[d].bit_length()) if b[d] >> k & 1 and (d, k) not in owner]
        if len(new) != 1:
            what = "adds no new coordinate bit" if not new else f"adds {len(new)} new coordinate bits"
            raise _native.Error(
                f"offset_bases[{i}] = {list(b)} {what}; cktile imports layouts in which each offset bit "
                "adds exactly one coordinate bit (XOR bits that earlier offset bits placed)"
            )
        unit.append(new[0])
        owner[new[0]] = i
        xors.append(
            [owner[(d, k)] for d in range(rank) for k in range(b[d].bit_length()) if b[d] >> k & 1 and (d, k) != new[0]]
        )
    lengths = [1 << sum(1 for d, _ in unit if d == dim) for dim in range(rank)]
    if any(k >= (lengths[d]).bit_length() - 1 for d, k in unit):
        d, k = next((d, k) for d, k in unit if k >= lengths[d].bit_length() - 1)
        raise _native.Error(f"offset_bases: bit {k} of dimension {d} is placed, but not every bit below it is")
    if shape is not None and integers("shape", shape, USIZE) != lengths:
        raise _native.Error(f"shape {list(shape)} differs from the {'x'.join(map(str, lengths))} the bases cover")
    sources = [i for i, x in enumerate(xors) if x]
    targets = sorted({t for x in xors for t in x})
    if sources and targets[-1] >= sources[0]:
        raise _native.Error(
            f"offset_bases[{sources[0]}] = {list(bases[sources[0]])} is XORed into by or into offset bit "
            f"{targets[-1]} above it; cktile imports layouts whose XORed bits all lie below the bits feeding them"
        )
    xor_linear = _as_xor_linear(unit, xors, lengths)
    if xor_linear is not None:
        return xor_linear
    return _bit_spec(unit, xors, lengths, sources, targets)


def _as_xor_linear(unit: List[Tuple[int, int]], xors: List[List[int]], lengths: List[int]) -> Optional[str]:
    """The ``xor-linear`` entry of a 2-D layout that walks one dimension, then the other; else ``None``."""
    if len(lengths) != 2:
        return None
    fast = unit[0][0]
    inner_bits = lengths[fast].bit_length() - 1
    walk = [(fast, k) for k in range(inner_bits)] + [(1 - fast, k) for k in range(len(unit) - inner_bits)]
    # The XORs must move only the contiguous dimension's bits, fed only by the other's.
    if unit != walk or any(xors[:inner_bits]) or any(t >= inner_bits for x in xors for t in x):
        return None
    masks = [sum(1 << t for t in x) for x in xors[inner_bits:]]
    vec = lengths[fast]
    for m in masks:
        while m % vec:
            vec //= 2
    while masks and masks[-1] == 0:  # bits without a mask need none
        masks.pop()
    major = "row" if fast == 1 else "col"
    text = ".".join(str(m // vec) for m in masks)
    return f"xor-linear:rows={lengths[0]},cols={lengths[1]},vec={vec},masks={text},major={major}"


def _bit_spec(
    unit: List[Tuple[int, int]], xors: List[List[int]], lengths: List[int], sources: List[int], targets: List[int]
) -> str:
    """Spec text: packed buffer, swizzles of the offset, an unmerge into runs of bits, merges into the dimensions."""
    n = len(unit)
    stages = [f"packed({1 << n})"]
    if sources:
        low, column = targets[0], sources[0]
        masks = [sum(1 << (t - low) for t in xors[i]) for i in range(column, n)]
        for bits, base, shift in _native.swizzle_runs(masks, column - low, low):
            stages.append(f"transform(swizzle({bits},{base},{shift}) on [0] -> [0])")
    # Runs of offset bits that place consecutive bits of one dimension, lowest first.
    pieces: List[List[int]] = []  # [dim, lowest coordinate bit, bit count]
    for d, k in unit:
        if pieces and pieces[-1][0] == d and pieces[-1][1] + pieces[-1][2] == k:
            pieces[-1][2] += 1
        else:
            pieces.append([d, k, 1])
    # The unmerge lists the runs slowest first; run r (offset order) becomes hidden dimension len(pieces)-1-r.
    order = list(range(len(pieces)))[::-1]
    lens = ",".join(str(1 << pieces[r][2]) for r in order)
    ids = ",".join(str(i) for i in range(len(pieces)))
    stages.append(f"transform(unmerge(({lens})) on [0] -> [{ids}])")
    items = []
    for dim, length in enumerate(lengths):
        mine = sorted((r for r in range(len(pieces)) if pieces[r][0] == dim), key=lambda r: -pieces[r][1])
        hidden = [len(pieces) - 1 - r for r in mine]
        if not mine:
            items.append(f"insert(1) on [] -> [{dim}]")
        elif len(mine) == 1:
            items.append(f"pass_through({length}) on [{hidden[0]}] -> [{dim}]")
        else:
            merged = ",".join(str(1 << pieces[r][2]) for r in mine)
            items.append(f"merge(({merged})) on [{','.join(map(str, hidden))}] -> [{dim}]")
    stages.append("transform(" + ", ".join(items) + ")")
    return " | ".join(stages)


@public
def from_linear_bases(
    offset_bases: Sequence[Sequence[int]],
    shape: Optional[Sequence[int]] = None,
    dtype: Optional[str] = None,
) -> Layout:
    """A shared linear layout from its bases (see :func:`linear_bases_spec`).

    >>> from_linear_bases([[0, 1], [0, 2], [1, 2]]).offsets().tolist()
    [[0, 1, 2, 3], [6, 7, 4, 5]]
    """
    return Layout(linear_bases_spec(offset_bases, shape), dtype)._imported_from("triton")


#: The largest dimension handed to Triton: its linear layouts hold offsets and lengths in 32-bit integers,
#: and a dimension of 2^31 already breaks them.
TRITON_MAX_DIM = 1 << 30


def _pow2_shape(shape: Sequence[int]) -> List[int]:
    """``shape`` as Triton's linear layouts take it: at least one dimension, each a power of two up to
    :data:`TRITON_MAX_DIM` (Triton asserts this, aborting the process, rather than raising)."""
    dims = integers("shape", shape, USIZE)
    if not dims:
        raise _native.Error("shape: [] has no dimension; a Triton shared layout covers a tile of rank 1 or more")
    for i, d in enumerate(dims):
        if d < 1 or d & (d - 1) or d > TRITON_MAX_DIM:
            raise _native.Error(
                f"shape[{i}]: {d} is not a power of two from 1 to 2^30; Triton's shared layouts cover "
                "power-of-two tiles (pad the tile to the next power of two)"
            )
    return dims


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _native.Error(f"{name}: {value!r} is a {type(value).__name__}, not a bool")
    return value


def _phases(layout: object) -> tuple:
    """A swizzled or rotating layout's name and its ``vec``, ``per_phase`` and ``max_phase``, each an integer
    in the range Triton's 32-bit arithmetic takes (``vec`` from 0, the phases from 1)."""
    name = type(layout).__name__
    vec = integer(f"{name}.vec", getattr(layout, "vec", None), (0, I32_MAX))
    per_phase = integer(f"{name}.per_phase", getattr(layout, "per_phase", None), (1, I32_MAX))
    max_phase = integer(f"{name}.max_phase", getattr(layout, "max_phase", None), (1, I32_MAX))
    return name, vec, per_phase, max_phase


def _order(layout: object, name: str, shape: Sequence[int]) -> list:
    """The layout's ``order``: a permutation of the shape's dimensions, else :class:`cktile.Error`."""
    order = integers(f"{name}.order", getattr(layout, "order", None), USIZE)
    if sorted(order) != list(range(len(shape))):
        raise _native.Error(
            f"{name}.order: {order} is not a permutation of 0..{len(shape) - 1}, one entry per dimension of "
            f"shape {shape}"
        )
    return order


def _swizzled_ir(layout: object, shape: List[int], builder: object) -> object:
    """A ``SwizzledSharedLayout``'s IR from its checked parameters: what Triton needs to compute its linear
    layout without dividing by zero, overflowing its 32-bit arithmetic or indexing past ``order``."""
    name, vec, per_phase, max_phase = _phases(layout)
    if vec * (max_phase - 1) > I32_MAX:
        raise _native.Error(
            f"{name}: vec {vec} times max_phase - 1 = {max_phase - 1} passes 2^31 - 1; Triton computes a row's "
            "swizzle (vec * phase) in 32 bits"
        )
    order = _order(layout, name, shape)
    return builder.get_swizzled_shared_layout(vec, per_phase, max_phase, order, [])


def _nvmma_ir(layout: object, shape: List[int], builder: object) -> object:
    """An ``NVMMASharedLayout``'s IR from its checked parameters, for a shape its swizzle fits: Triton's
    ``getTMABlockShape`` and NVMMA conversion end the process on a contiguous dimension narrower than the
    swizzle or fewer than 8 rows."""
    name = type(layout).__name__
    swizzle = integer(f"{name}.swizzle_byte_width", getattr(layout, "swizzle_byte_width", None))
    bits = integer(f"{name}.element_bitwidth", getattr(layout, "element_bitwidth", None))
    rank = integer(f"{name}.rank", getattr(layout, "rank", None))
    transposed = _flag(f"{name}.transposed", getattr(layout, "transposed", None))
    fp4 = _flag(f"{name}.fp4_padded", getattr(layout, "fp4_padded", None))
    if swizzle not in (0, 32, 64, 128):
        raise _native.Error(f"{name}.swizzle_byte_width: {swizzle}; NVMMA swizzles 0, 32, 64 or 128 bytes")
    if bits not in (8, 16, 32, 64):
        raise _native.Error(f"{name}.element_bitwidth: {bits}; NVMMA elements are 8, 16, 32 or 64 bits wide")
    if fp4 and (swizzle, bits) != (128, 8):
        raise _native.Error(f"{name}.fp4_padded: needs swizzle_byte_width 128 and element_bitwidth 8, "
                            f"not {swizzle} and {bits}")
    if rank != len(shape):
        raise _native.Error(f"{name}.rank: {rank}, but shape {shape} has {len(shape)} dimensions")
    if swizzle:
        if rank < 2:
            raise _native.Error(f"shape: {shape}; an NVMMA layout with a {swizzle}-byte swizzle is 2-D or more")
        # One swizzle row: 8 * swizzle / bits elements along the contiguous dimension (the first when
        # transposed, else the last; an fp4-padded element counts twice), each TMA box side at most 256.
        contiguous = 0 if transposed else rank - 1
        span = 8 * swizzle // bits
        have = min(shape[contiguous] * (2 if fp4 else 1), 256)
        if have < span:
            raise _native.Error(
                f"shape: {shape}: dimension {contiguous}, the contiguous one, holds {shape[contiguous]} elements; "
                f"a {swizzle}-byte swizzle of {bits}-bit elements spans {span // (2 if fp4 else 1)}"
            )
        # Eight such rows: the other dimensions together (each at most 256), or the last when transposed.
        rows = min(shape[-1], 256) if transposed else math.prod(min(d, 256) for d in shape[:-1])
        if rows < 8:
            what = f"dimension {rank - 1}" if transposed else "the dimensions before the last"
            raise _native.Error(
                f"shape: {shape}: {what} hold {rows} rows; an NVMMA swizzle repeats every 8 rows, so it needs 8"
            )
    return builder.get_nvmma_shared_layout(swizzle, bits, transposed, fp4, [], rank)


def _linear(layout: object, shape: Sequence[int]) -> object:
    """Triton's own linear layout of a Gluon shared layout, computed by Triton on the CPU from parameters
    checked here first: Triton asserts on what it cannot handle, ending the whole process."""
    if hasattr(layout, "offset_bases"):
        return layout
    dims = _pow2_shape(shape)
    try:
        from triton._C.libtriton import gluon_ir, ir
    except ImportError as e:  # pragma: no cover - depends on what is installed
        raise _native.Error(f"importing a Gluon layout needs Triton ({e}); or pass its offset_bases") from None
    make = _nvmma_ir if type(layout).__name__ == "NVMMASharedLayout" else _swizzled_ir
    with _TRITON_LOCK:
        builder = _triton_builder(ir, gluon_ir)
        attribute = make(layout, dims, builder)
        try:
            return builder.to_linear_layout(attribute, dims)
        except Exception as e:  # what Triton raises rather than asserts, named as Triton's
            raise _native.Error(f"Triton cannot compute the linear layout of {layout!r} over shape {dims}: {e}") from None


# One MLIR context and Gluon builder for every import: creating a context and loading its dialects
# costs about a millisecond, the layout itself tens of microseconds. MLIR contexts are not to be used
# from two threads at once, so the builder is used under a lock.
_TRITON_LOCK = threading.Lock()
_TRITON_BUILDER: list = []


def _triton_builder(ir: Any, gluon_ir: Any) -> Any:
    if not _TRITON_BUILDER:
        context = ir.context()
        ir.load_dialects(context)
        _TRITON_BUILDER.append((context, gluon_ir.GluonOpBuilder(context)))
    return _TRITON_BUILDER[0][1]


class _IRLayout:
    """A shared layout read from Triton's IR text: the attributes its Gluon class has (``vec``,
    ``per_phase``, ``max_phase``, ``order``). Subclasses carry the Gluon class's name."""

    def __init__(self, fields: dict) -> None:
        self.__dict__.update(fields)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"


#: The encodings :func:`from_triton` reads from Triton's IR text: mnemonic -> the Gluon class's name, and the
#: IR's keys -> the class's attributes. ``tl.dot`` on AMD targets prints these two for its operands.
_IR_KINDS = {
    "amd_rotating_shared": type("AMDRotatingSharedLayout", (_IRLayout,), {}),
    "swizzled_shared": type("SwizzledSharedLayout", (_IRLayout,), {}),
}
_IR_KEYS = {"vec": "vec", "perPhase": "per_phase", "maxPhase": "max_phase", "order": "order"}
_IR_TEXT = re.compile(r"\s*(?:#[\w.$-]+\s*=\s*)?#?ttg\.(\w+)\s*<\s*\{(.*)\}\s*>\s*", re.S)
_IR_FIELD = re.compile(r"\s*(\w+)\s*=\s*(\[[^\]]*\]|[^,\[\]]*)\s*(?:,|$)")
#: The longest IR text read (an attribute is a line; the bound keeps the work bounded).
_IR_MAX = 4096


def _parse_ir(text: str) -> _IRLayout:
    """A shared encoding as Triton's IR prints it (``#ttg.amd_rotating_shared<{vec = 4, perPhase = 1,
    maxPhase = 16, order = [0, 1]}>``, with or without an alias ``#shared = `` before it), or why not."""
    quoted = repr(text) if len(text) <= 80 else repr(text[:60]) + f" (... {len(text)} characters)"
    example = "write it as Triton prints it, e.g. #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>"
    if len(text) > _IR_MAX:
        raise _native.Error(f"Triton layout text {quoted}: longer than {_IR_MAX} characters; {example}")
    whole = _IR_TEXT.fullmatch(text)
    if whole is None:
        raise _native.Error(f"Triton layout text {quoted}: not `#ttg.NAME<{{key = value, ...}}>`; {example}")
    mnemonic, body = whole.groups()
    if mnemonic not in _IR_KINDS:
        raise _native.Error(
            f"Triton layout text {quoted}: cktile reads {', '.join('#ttg.' + k for k in _IR_KINDS)} from text; "
            f"pass Gluon's own object for the other shared layouts (#ttg.{mnemonic} is not one of them)"
        )
    fields: dict = {}
    at = 0
    while at < len(body) and body[at:].strip():
        field = _IR_FIELD.match(body, at)
        if field is None or field.end() == at:
            raise _native.Error(f"Triton layout text {quoted}: expected `key = value` at {body[at:at + 12]!r}; {example}")
        key, value = field.group(1), field.group(2).strip()
        if key not in _IR_KEYS:
            raise _native.Error(
                f"Triton layout text {quoted}: key `{key}`; cktile reads one CTA's {', '.join(_IR_KEYS)} "
                "(a CGA layout is not imported)"
            )
        try:
            parsed = [int(v) for v in value[1:-1].split(",") if v.strip()] if value.startswith("[") else int(value)
        except ValueError:
            raise _native.Error(f"Triton layout text {quoted}: `{key}` = {value!r} is not an integer"
                                f"{' list' if value.startswith('[') else ''}") from None
        fields[_IR_KEYS[key]] = parsed
        at = field.end()
    missing = [k for k, a in _IR_KEYS.items() if a not in fields]
    if missing:
        raise _native.Error(f"Triton layout text {quoted}: no {', '.join(missing)}; {example}")
    return _IR_KINDS[mnemonic](fields)


def _rotating(layout: object, shape: Sequence[int], dtype: Optional[str]) -> Layout:
    """AMD's rotating layout from its checked parameters: the catalogue's ``triton-rotating`` entry (one
    definition of the map, in the library) over the two fastest dimensions, and Triton's identity over the
    others (``order[2:]``, slowest last), as ``sharedToLinearLayoutAMDRotating`` extends it."""
    dims = _pow2_shape(shape)
    name, vec, per_phase, max_phase = _phases(layout)
    # phase ^ block stays below the next power of two past max_phase - 1.
    largest = (1 << (max_phase - 1).bit_length()) - 1
    if vec * largest > I32_MAX:
        raise _native.Error(
            f"{name}: vec {vec} times the largest phase {largest} passes 2^31 - 1; Triton computes a row's shift "
            "(vec * (phase ^ block)) in 32 bits"
        )
    order = _order(layout, name, dims)
    if len(dims) == 1:
        return Layout(f"packed({dims[0]})", dtype)
    col, row = order[0], order[1]
    entry = f"triton-rotating:vec={vec},perphase={per_phase},maxphase={max_phase}"
    if len(dims) == 2:
        return Layout(f"{entry},order={col}{row},rows={dims[0]},cols={dims[1]}", dtype)
    # Rank 3 and more: the 2-D entry's bases at (row, col), then each slower dimension's own bits.
    plane = json.loads(Layout(f"{entry},order=10,rows={dims[row]},cols={dims[col]}")._native.export_json("triton"))
    bases = []
    for r, c in plane["offset_bases"]:
        basis = [0] * len(dims)
        basis[row], basis[col] = r, c
        bases.append(basis)
    for d in order[2:]:
        for k in range(dims[d].bit_length() - 1):
            basis = [0] * len(dims)
            basis[d] = 1 << k
            bases.append(basis)
    return from_linear_bases(bases, dims, dtype)


@public
def from_triton(layout: object, shape: Sequence[int], dtype: Optional[str] = None) -> Layout:
    """A Triton / Gluon shared layout over a tile of ``shape``, as a cktile layout.

    Triton computes the layout's linear layout itself (``to_linear_layout``,
    on the CPU); its bases become an ``xor-linear`` entry
    (:func:`linear_bases_spec`), whose offsets are Triton's at every
    coordinate. A ``SharedLinearLayout`` is read directly. Everything handed
    to Triton is checked first (a power-of-two shape of the layout's rank, an
    ``order`` that permutes it, a shape the NVMMA swizzle fits), since Triton
    ends the process where it cannot compute a layout; each such input is a
    :class:`cktile.Error` naming the value.

    ``layout`` may also be the text Triton's IR prints for a shared
    encoding, ``#ttg.amd_rotating_shared<{...}>`` or
    ``#ttg.swizzled_shared<{...}>`` (what ``tl.dot`` picks for its operands
    on AMD targets). Gluon has no class for AMD's rotating layout, and
    Triton's Python cannot evaluate it, so it becomes the catalogue's
    ``triton-rotating`` entry, which writes Triton's
    ``sharedToLinearLayoutAMDRotating`` (the swizzled layout whose phase is
    also XORed with the row's block number, ``row / (perPhase * maxPhase) %
    maxPhase``); an object named ``AMDRotatingSharedLayout`` with ``vec``,
    ``per_phase``, ``max_phase`` and ``order`` is read the same way.

    >>> t = from_triton("#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>", [64, 128])
    >>> t.source
    'triton-rotating:vec=4,perphase=1,maxphase=16,order=01,rows=64,cols=128'
    """
    return _from_triton(layout, shape, dtype)._imported_from("triton")


def _from_triton(layout: object, shape: Sequence[int], dtype: Optional[str]) -> Layout:
    if isinstance(layout, str):
        layout = _parse_ir(layout)
    kind = type(layout).__name__
    if kind not in TRITON_SHARED:
        raise _native.Error(
            f"{kind}: cktile imports Triton's shared layouts ({', '.join(TRITON_SHARED)}); "
            "this one it cannot represent exactly"
        )
    if getattr(layout, "cga_layout", None) or getattr(layout, "block_bases", None):
        raise _native.Error(f"{kind}: cktile imports one CTA's shared layout (no cga_layout or block_bases)")
    if kind == "AMDRotatingSharedLayout":
        return _rotating(layout, shape, dtype)
    ll = _linear(layout, shape)
    if getattr(ll, "block_bases", None):
        raise _native.Error("block_bases: cktile imports one CTA's shared layout (no block bases)")
    pairs = getattr(layout, "interval_padding_pairs", None)
    if pairs:
        return Layout(padded_spec(ll.offset_bases, shape, pairs), dtype)
    if kind == "NVMMASharedLayout":
        # The layout carries its element width: the element type unless dtype names one, which must agree.
        width = layout.element_bitwidth // 8
        imported = from_linear_bases(ll.offset_bases, shape, dtype if dtype is not None else str(width))
        if imported.element_bytes != width:
            raise _native.Error(
                f"dtype: {dtype!r} has {imported.element_bytes}-byte elements, but the NVMMA layout's "
                f"element_bitwidth is {layout.element_bitwidth}; drop dtype or make them agree"
            )
        return imported
    return from_linear_bases(ll.offset_bases, shape, dtype)


# The Triton shared layouts from_triton imports exactly: the linear ones through Triton's own linear
# layout, the padded one through its linear part and its padding, AMD's rotating one through the catalogue.
TRITON_SHARED = (
    "SwizzledSharedLayout",
    "NVMMASharedLayout",
    "SharedLinearLayout",
    "PaddedSharedLayout",
    "AMDRotatingSharedLayout",
)


@public
def padded_spec(offset_bases: Sequence[Sequence[int]], shape: Sequence[int], pairs: Sequence[Sequence[int]]) -> str:
    """The cktile text of Triton's ``PaddedSharedLayout``: its linear part (``offset_bases``, as
    :func:`linear_bases_spec`), then ``padding`` elements after every ``interval`` of each
    ``interval_padding_pairs`` entry: a linear offset ``u`` is stored at ``u + sum(u // interval *
    padding)``. The intervals must divide one another (Triton's are powers of two).

    >>> b = [[0, 1], [0, 2], [1, 0], [2, 0]]
    >>> Layout(padded_spec(b, [4, 4], [[4, 1]])).offsets().tolist()
    [[0, 1, 2, 3], [5, 6, 7, 8], [10, 11, 12, 13], [15, 16, 17, 18]]
    """
    n = 1
    for d in integers("shape", shape, USIZE):
        n *= d
    padding: dict = {}
    for i, pair in enumerate(sequence("interval_padding_pairs", pairs, "[interval, padding] pairs")):
        values = integers(f"interval_padding_pairs[{i}]", pair, USIZE)
        if len(values) != 2 or values[0] < 1:
            raise _native.Error(
                f"interval_padding_pairs[{i}]: {list(pair)!r}; each entry is [interval, padding], interval >= 1"
            )
        interval, pad = values
        if interval < n and pad > 0:  # an interval of the whole tile or more never pads
            padding[interval] = padding.get(interval, 0) + pad
    linear = Layout(linear_bases_spec(offset_bases, shape)).spec
    head, _, rest = linear.partition("\n")
    if head != f"packed({n})":  # pragma: no cover - linear_bases_spec always starts so
        raise _native.Error(f"the linear part starts `{head}`, not a packed buffer of {n} elements")
    if not padding:
        return linear
    intervals = sorted(padding)
    for lo, hi in zip(intervals, intervals[1:] + [n]):
        if hi % lo:
            raise _native.Error(
                f"interval_padding_pairs: interval {lo} does not divide {hi}"
                f"{' (the tile size)' if hi == n else ''}; cktile imports paddings whose intervals divide one another"
            )
    # u in mixed radix: digit j counts intervals[j] elements; one step of it moves past its elements and every
    # smaller interval's padding inside them, plus its own.
    units = [i + sum(i // k * padding[k] for k in intervals if k <= i) for i in intervals]
    lengths = [n // intervals[-1]] + [hi // lo for lo, hi in reversed(list(zip(intervals, intervals[1:])))]
    lengths.append(intervals[0])
    strides = list(reversed(units)) + [1]
    dims = ",".join(str(d) for d in range(len(lengths)))
    base = f"naive({_tuple(lengths)},{_tuple(strides)})\n| transform(merge({_tuple(lengths)}) on [{dims}] -> [0])"
    return base + ("\n" + rest if rest else "")
