"""Importers: the layouts people already have, as cktile layouts.

- :func:`from_cute`: CuTe layouts from pycute (the ``nvidia-cutlass``
  wheel) or Meta's ``tensor-layouts``: ``Layout`` (nested shapes and
  strides), ``Swizzle`` and ``ComposedLayout`` (a swizzle over a layout,
  with an offset).
- :func:`from_triton`: Triton / Gluon shared layouts
  (``SwizzledSharedLayout``, ``NVMMASharedLayout``, ``SharedLinearLayout``,
  anything ``to_linear_layout`` turns into one) and plain linear-layout
  bases (:func:`from_linear_bases`).

Each importer writes cktile spec text or a catalogue entry, so the result's
:attr:`~cktile.Layout.source` pastes into any ``cktile`` command, and the
whole library accepts it. The importers read the objects' public attributes
only; neither pycute, tensor-layouts nor Triton is needed to import this
module.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from . import _native
from ._layout import Layout

__all__ = ["from_cute", "cute_spec", "from_triton", "from_linear_bases", "linear_bases_spec"]


# CuTe ----------------------------------------------------------------------


def _flatten(shape: object, stride: object, where: str) -> Tuple[List[int], List[int]]:
    """One mode's (sub)shape and stride, flattened colexicographically (first sub-mode fastest)."""
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
    """(swizzle or None, offset, plain layout) of a pycute / tensor-layouts object."""
    # pycute: ComposedLayout(layoutB, offset, layoutA) evaluates layoutB(offset + layoutA(c)).
    if hasattr(obj, "layoutB") and hasattr(obj, "layoutA"):
        return obj.layoutB, int(obj.offset), obj.layoutA
    # tensor-layouts: ComposedLayout(outer, offset, inner), the same map.
    if hasattr(obj, "outer") and hasattr(obj, "inner"):
        return obj.outer, int(getattr(obj, "offset", 0) or 0), obj.inner
    swizzle = getattr(obj, "swizzle", None)
    return swizzle, 0, obj


def _is_swizzle(obj: object) -> bool:
    return all(hasattr(obj, a) for a in ("bits", "base", "shift")) and not hasattr(obj, "stride")


def cute_spec(layout: object) -> str:
    """The cktile spec text of a CuTe layout (pycute or tensor-layouts).

    The top dimensions are the layout's top-level modes; a mode with
    sub-modes is merged colexicographically, as CuTe indexes it; a swizzle
    (with the composition's offset) acts on the offset the layout computes.

    >>> import pycute
    >>> cute_spec(pycute.Layout((8, (2, 4)), (4, (1, 32))))
    'naive((8,2,4),(4,1,32)) | transform(pass_through(8) on [0] -> [0], merge((4,2)) on [2,1] -> [1])'
    """
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

    def tup(values: Sequence[int]) -> str:
        return "(" + ",".join(str(v) for v in values) + ")"

    stages: List[str] = []
    if swizzle is None and offset == 0:
        stages.append(f"naive({tup(flat)},{tup(flat_strides)})")
    else:
        # The offsets the layout reaches, then the block the swizzle permutes.
        top = offset + sum((n - 1) * d for n, d in zip(flat, flat_strides) if d > 0)
        low = offset + sum((n - 1) * d for n, d in zip(flat, flat_strides) if d < 0)
        if low < 0:
            raise _native.Error(f"the layout reaches offset {low}: a swizzled layout's offsets must be non-negative")
        block = 1
        if swizzle is not None:
            block = 1 << (int(swizzle.base) + abs(int(swizzle.shift)) + int(swizzle.bits))
        space = -(-(top + 1) // block) * block
        stages.append(f"packed({space})")
        if swizzle is not None and int(swizzle.bits) > 0:
            stages.append(f"transform(swizzle({int(swizzle.bits)},{int(swizzle.base)},{int(swizzle.shift)}) on [0] -> [0])")
        if offset != 0:
            stages.append(f"transform(offset({space - offset},{offset}) on [0] -> [0])")
        ids = ",".join(str(i) for i in range(len(flat)))
        stages.append(f"transform(embed({tup(flat)},{tup(flat_strides)}) on [0] -> [{ids}])")
    if any(len(g) > 1 for g in groups):
        items = []
        for k, g in enumerate(groups):
            if len(g) == 1:
                items.append(f"pass_through({flat[g[0]]}) on [{g[0]}] -> [{k}]")
            else:
                # CuTe's colexicographic order: the first sub-mode is the fastest, CK's merge's last.
                rev = list(reversed(g))
                items.append(f"merge({tup(flat[i] for i in rev)}) on [{','.join(str(i) for i in rev)}] -> [{k}]")
        stages.append("transform(" + ", ".join(items) + ")")
    return " | ".join(stages)


def from_cute(layout: object, dtype: Optional[str] = None) -> Layout:
    """A CuTe layout (pycute or tensor-layouts ``Layout`` / ``ComposedLayout``) as a cktile layout.

    Every coordinate's offset equals the source's ``layout(*coordinate)``.

    >>> import pycute
    >>> sw = pycute.ComposedLayout(pycute.Swizzle(3, 3, 3), 0, pycute.Layout((16, 64), (64, 1)))
    >>> a = from_cute(sw, dtype="fp16")
    >>> a.offset(1, 8) == sw(1, 8)
    True
    >>> a.analyze("sm90", "ldmatrix").max_ways
    1
    """
    return Layout(cute_spec(layout), dtype)


# Triton ----------------------------------------------------------------------


def _power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def linear_bases_spec(offset_bases: Sequence[Sequence[int]], shape: Optional[Sequence[int]] = None) -> str:
    """The catalogue entry of a 2-D shared linear layout given as Triton's ``offset_bases``.

    Basis ``i`` is the coordinate offset bit ``i`` maps to; a coordinate's
    offset is the inverse of that XOR-linear map. cktile writes the map as an
    ``xor-linear`` entry, which holds every such layout in which the low
    offset bits walk the contiguous dimension in order and each higher bit
    adds one bit of the other dimension, XOR a vector of the contiguous one:
    Triton's swizzled and NVMMA encodings and most hand-written swizzles.
    Other layouts are refused, naming the first basis that leaves the form.

    >>> linear_bases_spec([[0, 1], [0, 2], [0, 4], [1, 2], [2, 4]])
    'xor-linear:rows=4,cols=8,vec=2,masks=1.2,major=row'
    """
    bases = [tuple(int(x) for x in b) for b in offset_bases]
    if not bases:
        raise _native.Error("offset_bases: empty; a shared layout of n elements has log2(n) bases")
    if any(len(b) != 2 for b in bases):
        bad = next(b for b in bases if len(b) != 2)
        raise _native.Error(f"offset_bases: basis {list(bad)} is not 2-D; cktile imports 2-D shared layouts")
    first = bases[0]
    if (first[0] == 0) == (first[1] == 0) or not _power_of_two(max(first)):
        raise _native.Error(f"offset_bases[0] = {list(first)}: offset bit 0 must step one dimension by 1")
    fast = 1 if first[1] else 0
    slow = 1 - fast
    # Offset bits 0..k-1 walk the contiguous dimension: 1, 2, 4, ...
    k = 0
    while k < len(bases) and bases[k][slow] == 0 and bases[k][fast] == 1 << k:
        k += 1
    inner = 1 << k
    masks: List[int] = []
    for j, b in enumerate(bases[k:]):
        if b[slow] != 1 << j or not 0 <= b[fast] < inner:
            want = [0, 0]
            want[slow] = 1 << j
            raise _native.Error(
                f"offset_bases[{k + j}] = {list(b)}: cktile imports layouts whose offset bit {k + j} adds "
                f"{want} XOR a vector below {inner} along dimension {fast}; this basis leaves that form"
            )
        masks.append(b[fast])
    outer = 1 << len(masks)
    # The vector: the largest power of two dividing every mask (the contiguous run the XOR keeps whole).
    vec = inner
    for m in masks:
        while m % vec:
            vec //= 2
    lengths = [0, 0]
    lengths[fast], lengths[slow] = inner, outer
    if shape is not None and [int(s) for s in shape] != lengths:
        raise _native.Error(f"shape {list(shape)} differs from the {lengths[0]}x{lengths[1]} the bases cover")
    major = "row" if fast == 1 else "col"
    while masks and masks[-1] == 0:  # bits without a mask need none
        masks.pop()
    mask_text = ".".join(str(m // vec) for m in masks)
    return f"xor-linear:rows={lengths[0]},cols={lengths[1]},vec={vec},masks={mask_text},major={major}"


def from_linear_bases(
    offset_bases: Sequence[Sequence[int]],
    shape: Optional[Sequence[int]] = None,
    dtype: Optional[str] = None,
) -> Layout:
    """A 2-D shared linear layout from its bases (see :func:`linear_bases_spec`).

    >>> from_linear_bases([[0, 1], [0, 2], [1, 2]]).offsets().tolist()
    [[0, 1, 2, 3], [6, 7, 4, 5]]
    """
    return Layout(linear_bases_spec(offset_bases, shape), dtype)


def _linear(layout: object, shape: Sequence[int]) -> object:
    """Triton's own linear layout of a Gluon shared layout, computed by Triton on the CPU."""
    if hasattr(layout, "offset_bases"):
        return layout
    try:
        from triton._C.libtriton import gluon_ir, ir
    except ImportError as e:  # pragma: no cover - depends on what is installed
        raise _native.Error(f"importing a Gluon layout needs Triton ({e}); or pass its offset_bases") from None
    context = ir.context()
    ir.load_dialects(context)
    builder = gluon_ir.GluonOpBuilder(context)
    return builder.to_linear_layout(layout._to_ir(builder), [int(s) for s in shape])


def from_triton(layout: object, shape: Sequence[int], dtype: Optional[str] = None) -> Layout:
    """A Triton / Gluon shared layout over a tile of ``shape``, as a cktile layout.

    Triton computes the layout's linear layout itself (``to_linear_layout``,
    on the CPU); its bases become an ``xor-linear`` entry
    (:func:`linear_bases_spec`), whose offsets are Triton's at every
    coordinate. A ``SharedLinearLayout`` is read directly.
    """
    ll = _linear(layout, shape)
    if getattr(ll, "block_bases", None):
        raise _native.Error("block_bases: cktile imports one CTA's shared layout (no block bases)")
    return from_linear_bases(ll.offset_bases, shape, dtype)
