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
  its padding, :func:`padded_spec`; any other kind is refused by name) and
  plain linear-layout bases (:func:`from_linear_bases`).

Each importer writes cktile spec text or a catalogue entry, so the result's
:attr:`~cktile.Layout.source` pastes into any ``cktile`` command, and the
whole library accepts it. The importers read the objects' public attributes
only; neither pycute, tensor-layouts nor Triton is needed to import this
module.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from . import _native
from ._args import USIZE, integers
from ._layout import Layout

__all__ = ["from_cute", "cute_spec", "parse_cute", "from_triton", "from_linear_bases", "linear_bases_spec"]


# CuTe ----------------------------------------------------------------------


class _Printed:
    """A CuTe layout read from its printed text: the attributes the importer reads."""

    def __init__(self, shape: object, stride: object, swizzle: Optional["_Swizzle"], offset: int) -> None:
        self.shape, self.stride, self.swizzle, self.offset = shape, stride, swizzle, offset


class _Swizzle:
    def __init__(self, bits: int, base: int, shift: int) -> None:
        self.bits, self.base, self.shift = bits, base, shift


class _Reader:
    """A recursive-descent reader of CuTe's printed layouts; every refusal quotes the text and the position."""

    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def fail(self, expected: str) -> "_native.Error":
        # repr() spells out control and other unprintable characters.
        rest = self.text[self.at : self.at + 12]
        found = repr(rest) if rest else "the end"
        return _native.Error(
            f"CuTe layout text {self.text!r}: expected {expected} at character {self.at + 1}, found {found}; "
            "write it as CuTe prints it, e.g. (16,64):(64,1) or Sw<3,3,3> o _0 o (_16,_64):(_64,_1)"
        )

    def skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in " \t\n":
            self.at += 1

    def eat(self, token: str) -> bool:
        self.skip()
        if self.text.startswith(token, self.at):
            self.at += len(token)
            return True
        return False

    def expect(self, token: str) -> None:
        if not self.eat(token):
            raise self.fail(f"`{token}`")

    def integer(self) -> int:
        self.skip()
        start = self.at
        self.eat("_")  # C++ CuTe prints static integers as _16
        self.skip()
        digits = self.at
        if self.at < len(self.text) and self.text[self.at] == "-":
            self.at += 1
        while self.at < len(self.text) and self.text[self.at].isdigit():
            self.at += 1
        if self.at == digits or self.text[digits : self.at] == "-":
            self.at = start
            raise self.fail("an integer")
        return int(self.text[digits : self.at])

    def tree(self) -> object:
        """An integer or a parenthesised, comma-separated tuple of trees."""
        if self.eat("("):
            items = [self.tree()]
            while self.eat(","):
                if self.eat(")"):  # Python's one-element tuple, (4,)
                    return tuple(items)
                items.append(self.tree())
            self.expect(")")
            # CuTe prints a one-element tuple as (x): a tuple still (one mode), not grouping.
            return tuple(items)
        return self.integer()

    def swizzle(self) -> Optional[_Swizzle]:
        """``Sw<B,M,S>`` (C++), ``S<B,M,S>`` (CuTe DSL), ``SW_B_M_S`` (pycute) or ``Swizzle(B, M, S)``."""
        for opener, sep, closer in (("Sw<", ",", ">"), ("S<", ",", ">"), ("Swizzle(", ",", ")"), ("SW_", "_", "")):
            if self.eat(opener):
                bits = self.integer()
                self.expect(sep)
                base = self.integer()
                self.expect(sep)
                shift = self.integer()
                if closer:
                    self.expect(closer)
                return _Swizzle(bits, base, shift)
        return None

    def layout(self) -> "_Printed":
        """``[(]SWIZZLE[)] o [OFFSET o] [(]SHAPE:STRIDE[)]`` or ``SHAPE:STRIDE``."""
        self.skip()
        start = self.at
        wrapped = self.eat("(")
        swizzle = self.swizzle()
        if swizzle is None:
            self.at = start
        else:
            if wrapped:
                self.expect(")")
            self.expect("o")
            # The offset, when printed (tensor-layouts leaves a zero out).
            save, offset = self.at, 0
            try:
                offset = self.integer()
                self.expect("o")
            except _native.Error:
                self.at, offset = save, 0
        outer_paren = False
        if swizzle is not None:
            self.skip()
            # tensor-layouts wraps the inner layout in parentheses: ((16, 64) : (64, 1)).
            save = self.at
            if self.eat("(") and self.text[self.at :].lstrip().startswith("("):
                probe = _Reader(self.text)
                probe.at = self.at
                probe.tree()
                if probe.eat(":"):
                    outer_paren = True
                else:
                    self.at = save
            else:
                self.at = save
        shape = self.tree()
        self.expect(":")
        stride = self.tree()
        if outer_paren:
            self.expect(")")
        self.skip()
        if self.at != len(self.text):
            raise self.fail("the end of the layout")
        return _Printed(shape, stride, swizzle, offset if swizzle is not None else 0)


def parse_cute(text: str) -> "_Printed":
    """A CuTe layout from its printed text (C++ CuTe, CuTe DSL, pycute or tensor-layouts spelling).

    >>> l = parse_cute("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)")
    >>> (l.shape, l.stride, (l.swizzle.bits, l.swizzle.base, l.swizzle.shift), l.offset)
    ((16, 64), (64, 1), (3, 3, 3), 0)
    """
    if not isinstance(text, str):
        raise _native.Error(f"CuTe layout text must be a str, not {type(text).__name__}")
    return _Reader(text).layout()


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
    """(swizzle or None, offset, plain layout) of a pycute / tensor-layouts object or printed text."""
    if isinstance(obj, _Printed):
        return obj.swizzle, obj.offset, obj
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


def _tuple(values: Sequence[int]) -> str:
    """Spec text of a tuple: ``(8,2,4)``."""
    return "(" + ",".join(str(v) for v in values) + ")"


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
            b, m, sh = int(swizzle.bits), int(swizzle.base), int(swizzle.shift)
            # Checked here, before the block it spans is computed: the user's numbers, not a derived size.
            if b < 0 or m < 0 or abs(sh) < b or b + m + abs(sh) > 62:
                raise _native.Error(
                    f"Swizzle<{b},{m},{sh}>: CuTe's Swizzle<B,M,S> needs B >= 0, M >= 0, |S| >= B and "
                    f"B + M + |S| <= 62 (cktile's offsets have 63 bits); here B + M + |S| = {b + m + abs(sh)}"
                )
            block = 1 << (m + abs(sh) + b)
        space = -(-(top + 1) // block) * block
        stages.append(f"packed({space})")
        if swizzle is not None and int(swizzle.bits) > 0:
            stages.append(f"transform(swizzle({int(swizzle.bits)},{int(swizzle.base)},{int(swizzle.shift)}) on [0] -> [0])")
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
    return Layout(cute_spec(layout), dtype)


# Triton ----------------------------------------------------------------------


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
    bases = [tuple(integers(f"offset_bases[{i}]", b)) for i, b in enumerate(offset_bases)]
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


def from_linear_bases(
    offset_bases: Sequence[Sequence[int]],
    shape: Optional[Sequence[int]] = None,
    dtype: Optional[str] = None,
) -> Layout:
    """A shared linear layout from its bases (see :func:`linear_bases_spec`).

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
    return builder.to_linear_layout(layout._to_ir(builder), integers("shape", shape, USIZE))


def from_triton(layout: object, shape: Sequence[int], dtype: Optional[str] = None) -> Layout:
    """A Triton / Gluon shared layout over a tile of ``shape``, as a cktile layout.

    Triton computes the layout's linear layout itself (``to_linear_layout``,
    on the CPU); its bases become an ``xor-linear`` entry
    (:func:`linear_bases_spec`), whose offsets are Triton's at every
    coordinate. A ``SharedLinearLayout`` is read directly.
    """
    kind = type(layout).__name__
    if kind not in TRITON_SHARED:
        raise _native.Error(
            f"{kind}: cktile imports Triton's shared layouts ({', '.join(TRITON_SHARED)}); "
            "this one it cannot represent exactly"
        )
    ll = _linear(layout, shape)
    if getattr(ll, "block_bases", None) or getattr(layout, "cga_layout", None):
        raise _native.Error("block_bases: cktile imports one CTA's shared layout (no block bases)")
    pairs = getattr(layout, "interval_padding_pairs", None)
    if pairs:
        return Layout(padded_spec(ll.offset_bases, shape, pairs), dtype)
    return from_linear_bases(ll.offset_bases, shape, dtype)


# The Triton shared layouts from_triton imports exactly: the linear ones through Triton's own linear
# layout, the padded one through its linear part and its padding.
TRITON_SHARED = ("SwizzledSharedLayout", "NVMMASharedLayout", "SharedLinearLayout", "PaddedSharedLayout")


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
    if isinstance(pairs, (str, bytes)) or not hasattr(pairs, "__iter__"):
        raise _native.Error(f"interval_padding_pairs: {pairs!r} is not a list of [interval, padding] pairs")
    for i, pair in enumerate(pairs):
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
