"""Layouts and distributions, and the questions asked of them.

Every method computes its answer with the library calls of the ``cktile``
subcommand it names, so Python and the CLI always agree.
"""

from __future__ import annotations

import json
import re
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native
from ._args import U64, USIZE, integer, integers, optional_integer, optional_integers, text, texts
from ._args import dtype as element_type
from ._args import public, public_methods
from ._cute import parse_cute
from ._report import SVG, Report

__all__ = ["Layout", "Distribution", "bank", "analyze_many", "search", "equiv", "catalogue", "rules", "names"]

#: The largest grid ``_repr_svg_`` draws before clipping (rows, columns).
PREVIEW = (32, 64)


def _param(key: str, value: object) -> str:
    """A catalogue parameter as its text: an integer, a name (``dtype="fp16"``, ``major="row"``), or a list
    of integers as dot-separated values (``masks=1.2.4``). A number written as text (``rows='16'``) is
    refused, as a float or a bool is: the value is meant as the Python value it is."""
    if isinstance(value, (list, tuple)):
        return ".".join(str(v) for v in integers(key, value, USIZE))
    if key == "dtype" and not isinstance(value, (str, int)):
        value = element_type(key, value)
    if isinstance(value, str):
        if key != "dtype" and re.fullmatch(r"\s*[-+]?[0-9]+\s*", value):
            raise _native.Error(f"{key}: {value!r} is a str; write the number {value.strip()} without quotes")
        return text(key, value)
    return str(integer(key, value))


def _cute_parts(cute: str) -> Tuple[Optional[Tuple[int, int, int]], object, object]:
    """The parts of the CuTe text cktile exports (``Layout.to_cute``), read back by :func:`cktile.parse_cute`:
    the swizzle's (B, M, S) or ``None``, the shape and the stride, as nested tuples."""
    printed = parse_cute(cute)
    sw = printed.swizzle
    return (None if sw is None else (sw.bits, sw.base, sw.shift)), printed.shape, printed.stride


@public_methods
class Layout:
    """A shared-memory (LDS) layout: a CK Tile-style descriptor with its element type.

    ``spec`` is cktile's spec text or a catalogue entry (``name:k=v,...``);
    ``dtype`` gives the element type when the text names none: a name
    (``fp16``, ``float16``, ``bf16``, ``float8_e4m3fn``, ...), a byte count,
    or a numpy, PyTorch or Triton dtype (``np.float16``, ``torch.bfloat16``,
    ``gl.float16``). Bad input raises :class:`cktile.Error` with cktile's
    message.

    >>> import cktile
    >>> a = cktile.Layout("ck-universal-a:m=128,k=64")
    >>> a.shape, a.element_bytes
    ((128, 64), 2)
    >>> a.analyze("gfx942", "mfma16").max_ways
    1
    >>> int(cktile.Layout("naive((4,8),(10,1))").offsets()[3, 2])
    32
    """

    __slots__ = ("_native", "_origin")

    def __init__(self, spec: str, dtype: Optional[str] = None) -> None:
        self._origin: Optional[str] = None
        if isinstance(spec, Layout):
            # The same layout, keeping its source text, origin and element type unless dtype names another.
            dtype = element_type("dtype", dtype)
            self._native = spec._native if dtype is None else _native.NativeLayout(spec.source, dtype)
            self._origin = spec._origin
            return
        if not isinstance(spec, str):
            raise _native.Error(f"a layout is spec text or a catalogue entry, not {type(spec).__name__}")
        self._native = _native.NativeLayout(spec, element_type("dtype", dtype))

    @classmethod
    def catalogue(cls, name: str, **params: object) -> "Layout":
        """A catalogue entry by name and parameters (``dtype`` among them, as every entry takes it).

        >>> Layout.catalogue("cute-swizzle", b=3, mbase=3, s=3, rows=8, cols=64, dtype="fp16").source
        'cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64,dtype=fp16'
        """
        entry = text("name", name) + (":" + ",".join(f"{k}={_param(k, v)}" for k, v in params.items()) if params else "")
        return cls(entry)

    # What it is.

    @property
    def source(self) -> str:
        """The text the layout was built from."""
        return self._native.source

    @property
    def origin(self) -> Optional[str]:
        """The library the layout was imported from: ``"triton"`` (:func:`cktile.from_triton`,
        :func:`cktile.from_linear_bases`), ``"cute"`` or ``"tensor-layouts"``
        (:func:`cktile.from_cute`), or ``None`` for cktile's own text. :meth:`analyze` answers in its
        language.

        >>> cktile.from_cute("(8,64):(64,1)").origin, cktile.Layout("packed((8,64))").origin
        ('cute', None)
        """
        return self._origin

    def _imported_from(self, origin: str) -> "Layout":
        self._origin = origin
        return self

    @property
    def spec(self) -> str:
        """The descriptor as spec text, one stage per line; ``Layout(l.spec)`` is the same map."""
        return self._native.spec

    @property
    def shape(self) -> Tuple[int, ...]:
        """The top lengths, one per dimension."""
        return tuple(self._native.lengths)

    @property
    def element_bytes(self) -> Optional[int]:
        """The element size in bytes, or ``None`` when neither the text nor ``dtype`` gives one."""
        return self._native.element_bytes_or_none

    @property
    def element_space_size(self) -> int:
        """How many elements of storage the layout spans (CK's ``get_element_space_size``)."""
        return self._native.element_space_size

    def __repr__(self) -> str:
        return f"cktile.Layout({self.source!r})"

    def __reduce__(self):
        # Pickled (multiprocessing, joblib, copy.deepcopy) as its source text and element size: the same map,
        # the same element type. The native layout is rebuilt from them.
        width = self.element_bytes
        return (Layout, (self.source, None if width is None else str(width)))

    # Offsets.

    def offsets(self) -> np.ndarray:
        """Every coordinate's offset, as an ``int64`` array of :attr:`shape` (CK's ``calculate_offset``).

        Padded coordinates hold the offset CK computes for them; :meth:`valid` says which those are.
        The library fills the array from the compiled descriptor, with the GIL released.
        """
        return self._native.offsets()[0]

    def valid(self) -> np.ndarray:
        """Every coordinate's validity (CK's ``coordinate_has_valid_offset``), a ``bool`` array of :attr:`shape`."""
        return self._native.offsets()[1]

    def offset(self, *coordinate: int) -> int:
        """One coordinate's offset.

        >>> Layout("naive((4,8),(10,1))").offset(3, 2)
        32
        """
        return self.trace(*coordinate).offset

    def trace(self, *coordinate: int) -> Report:
        """One coordinate followed through every stage (``cktile offsets --at ... --json``)."""
        return Report("trace", self._native.trace_json(integers("coordinate", coordinate)))

    # Checks and analyses.

    def check(self) -> Report:
        """Injectivity, surjectivity, holes, collisions and vector lengths (``cktile check --json``)."""
        return Report("check", self._native.check_json())

    def analyze(
        self,
        arch: str,
        pattern: Optional[str] = None,
        *,
        distribution: Optional[str] = None,
        op: Optional[str] = None,
        lds_base: Optional[int] = None,
        answer_as: Optional[str] = None,
    ) -> Report:
        """Bank conflicts of every instruction of an access pattern (``rows``, ``mfma16``, ``ldmatrix``, ...)
        or of a CK tile window over ``distribution`` issuing ``op`` (``cktile analyze --json``).

        On gfx1250 a window's report also holds ``partitions``: the 64 KiB LDS partitions each access's
        even and odd warps reach (AMD's MI450 blog), the layout at LDS byte ``lds_base`` (default 0).

        ``answer_as`` (``"triton"`` or ``"cute"``, ``cktile analyze --as``) adds the layout in that peer's
        own terms, checked at every coordinate: ``answer.export`` (as :meth:`export` gives it) or
        ``answer.refused``. By default a layout answers in the language it came in (:attr:`origin`:
        Triton's for one from Triton, CuTe's for one from CuTe or tensor-layouts); ``"cktile"`` asks
        for no answer.

        >>> t = cktile.from_cute("(16,64):(64,1)", dtype="fp16")
        >>> t.analyze("sm90", "ldmatrix").answer.export.text
        '(16,64):(64,1)'
        >>> "answer" in t.analyze("sm90", "ldmatrix", answer_as="cktile").to_dict()
        False

        >>> cktile.Layout("cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64", "fp16").analyze(
        ...     "sm90", "ldmatrix", answer_as="cute").answer.export.text
        'Sw<3,3,3> o _0 o (16,64):(64,1)'

        The report is the library's own: its counts read without JSON, ``arrays()`` gives each
        instruction's counts as numpy arrays, and ``to_json()`` the CLI's text. The analysis runs
        with the GIL released; :func:`cktile.analyze_many` runs many layouts at once."""
        arch, pattern, op = text("arch", arch), text("pattern", pattern, True), text("op", op, True)
        base = None if lds_base is None else integer("lds_base", lds_base, U64)
        peer = text("answer_as", answer_as, True)
        if peer is None:
            peer = {"triton": "triton", "cute": "cute", "tensor-layouts": "cute"}.get(self._origin or "")
        elif peer == "cktile":
            peer = None
        return Report._from_native("analyze", self._native.analyze(arch, pattern, _text(distribution), op, base, peer))

    def dma_plan(
        self,
        global_strides: Sequence[int],
        width: int,
        arch: str = "gfx942",
        workgroup: int = 256,
        wave: int = 64,
        *,
        order: str = "wave-major",
        form: str = "global",
        m0: str = "immediate",
        lds_base: int = 0,
    ) -> Report:
        """Direct global-to-LDS loads that fill the layout and their instructions (``m0`` writes and immediate
        offsets), simulated byte for byte (``cktile dma-plan --json``). ``order``: ``wave-major`` or
        ``issue-major`` (CK's async copies); ``form``: ``global`` or ``buffer``; ``m0``: ``ck`` (as CK's
        ``async_load_raw`` sets it) or ``immediate``; ``lds_base``: the tile's first LDS byte."""
        strides = integers("global_strides", global_strides)
        width, workgroup, wave = (integer(n, v, USIZE) for n, v in (("width", width), ("workgroup", workgroup), ("wave", wave)))
        arch, order, form, m0 = (text(n, v) for n, v in (("arch", arch), ("order", order), ("form", form), ("m0", m0)))
        native = self._native.dma_plan_json(
            strides, width, arch, workgroup, wave, order, form, m0, integer("lds_base", lds_base, U64)
        )
        return Report("dma-plan", native)

    def to_triton(self) -> object:
        """The layout as Gluon's own layout object (``cktile export --as triton``): a ``SharedLinearLayout``
        when it is a bijection linear over GF(2) (every swizzle of a power-of-two tile, the packed layouts),
        else a ``PaddedSharedLayout`` (a linear layout over the elements in offset order and one
        ``[interval:+padding]`` pair), checked at every coordinate; :class:`Error` naming what Triton lacks
        otherwise. ``cktile.from_triton(layout.to_triton(), shape)`` reads it back.

        >>> cktile.Layout("cute-swizzle:b=3,mbase=3,s=3,rows=8,cols=64").to_triton().offset_bases[6]
        [1, 8]
        """
        e = json.loads(self._native.export_json("triton"))
        try:
            from triton.experimental.gluon import language as gl
        except ImportError as err:  # pragma: no cover - depends on what is installed
            raise _native.Error(f"to_triton builds Gluon's layout objects and needs Triton ({err}); export() gives the bases") from None
        if e["kind"] == "padded":
            return gl.PaddedSharedLayout(e["interval_padding_pairs"], e["offset_bases"], [], e["shape"])
        return gl.SharedLinearLayout(e["offset_bases"])

    def to_cute(self) -> str:
        """The layout as CuTe's text (``cktile export --as cute``): ``(d0,d1):(s0,s1)`` for a strided layout (a
        dimension of several modes as their tuple, ``(64,(64,2)):(64,(1,4096))``), ``Sw<B,M,S> o _0 o`` one for a
        swizzle of it; :class:`Error` otherwise.
        ``cktile.from_cute(text)`` reads it back.

        >>> cktile.Layout("row-padded:rows=4,cols=8,pad=1").to_cute()
        '(4,8):(9,1)'
        """
        return json.loads(self._native.export_json("cute"))["text"]

    def to_pycute(self) -> object:
        """The layout as pycute's own object: ``pycute.Layout(shape, stride)`` for a strided layout, or
        ``pycute.ComposedLayout(pycute.Swizzle(B, M, S), 0, pycute.Layout(shape, stride))`` for a swizzle
        (:meth:`to_cute`'s layout, checked at every coordinate; :class:`Error` where CuTe has no such layout, or
        without pycute). ``cktile.from_cute`` reads it back.

        >>> sw = cktile.Layout("cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64").to_pycute()
        >>> sw(1, 8)
        64
        """
        swizzle, shape, stride = _cute_parts(self.to_cute())
        try:
            import pycute
        except ImportError as err:  # pragma: no cover - depends on what is installed
            raise _native.Error(f"to_pycute builds pycute's objects and needs pycute ({err}); to_cute() gives the text") from None
        layout = pycute.Layout(shape, stride)
        return layout if swizzle is None else pycute.ComposedLayout(pycute.Swizzle(*swizzle), 0, layout)

    def to_tensor_layouts(self) -> object:
        """The layout as the tensor-layouts package's object: ``Layout(shape, stride)``, or
        ``ComposedLayout(Swizzle(B, M, S), Layout(shape, stride))`` for a swizzle (:meth:`to_cute`'s layout;
        :class:`Error` where CuTe has no such layout, or without tensor-layouts). ``cktile.from_cute`` reads it
        back.

        >>> cktile.Layout("row-padded:rows=4,cols=8,pad=1").to_tensor_layouts()(3, 2)
        29
        """
        swizzle, shape, stride = _cute_parts(self.to_cute())
        try:
            import tensor_layouts
        except ImportError as err:  # pragma: no cover - depends on what is installed
            raise _native.Error(
                f"to_tensor_layouts builds tensor-layouts' objects and needs it ({err}); to_cute() gives the text"
            ) from None
        layout = tensor_layouts.Layout(shape, stride)
        return layout if swizzle is None else tensor_layouts.ComposedLayout(tensor_layouts.Swizzle(*swizzle), layout)

    def export(self, peer: str) -> Report:
        """``cktile export --as PEER --json`` (``triton`` or ``cute``): the peer, the kind of layout, the shape,
        Triton's ``offset_bases`` and ``interval_padding_pairs`` where it has them, and the peer's own text."""
        return Report("export", self._native.export_json(text("peer", peer)))

    def tdm_plan(self, global_strides: Sequence[int]) -> Report:
        """Whether gfx1250's Tensor Data Mover (``tensor_load_to_lds``) fills the layout in one load, with its
        hardware row padding and the descriptor's group 1 dword 0 (``cktile dma-plan --arch gfx1250 --json``),
        replayed byte for byte; :class:`Error` naming the first element out of place otherwise.

        >>> cktile.Layout("row-padded:rows=64,cols=64,pad=4", "fp16").tdm_plan([4096, 1]).padding.interval_bytes
        128
        """
        return Report("dma-plan", self._native.tdm_plan_json(integers("global_strides", global_strides)))

    def async_plan(self, global_strides: Sequence[int], width: int, workgroup: int = 256) -> Report:
        """gfx1250's asynchronous loads (``global_load_async_to_lds_b8/b32/b64/b128``, ``width`` 1, 4, 8 or 16
        bytes per lane) that fill the layout: every lane's load and the LDS writes' worst bank ways
        (``cktile dma-plan --arch gfx1250 --path async --json``), replayed byte for byte.

        >>> cktile.Layout("cute-swizzle:b=3,mbase=3,s=3,rows=64,cols=64", "fp16").async_plan([4096, 1], 16).worst_ways
        1
        """
        width, workgroup = (integer(n, v, USIZE) for n, v in (("width", width), ("workgroup", workgroup)))
        native = self._native.async_plan_json(integers("global_strides", global_strides), width, workgroup)
        return Report("dma-plan", native)

    def wgmma_descriptor(
        self,
        target: str = "sm90",
        operand: str = "a",
        *,
        major: Optional[str] = None,
        swizzle: Optional[str] = None,
        k_dim: int = 1,
        instruction_mn: Optional[int] = None,
        base: int = 0,
    ) -> Report:
        """Whether Hopper's ``wgmma`` (``target="sm90"``) or Blackwell's ``tcgen05.mma`` (``"sm100"``) reads the
        layout as an operand through a shared-memory matrix descriptor (``cktile matrix-desc --json``): the swizzle
        mode, LBO, SBO, each instruction's start and 64-bit descriptor (``readable``), or for every mode the first
        element that breaks it and the nearest canonical layout (``breaks``, ``nearest``). ``k_dim``: which
        dimension is K; ``major``: ``"k"`` or ``"mn"`` (default: K, then MN); ``swizzle``: ``"none"``, ``"32b"``,
        ``"64b"``, ``"128b"`` or ``"128b-base32b"`` (default: every mode, widest first); ``base``: the tile's first
        shared-memory byte."""
        native = self._native.matrix_desc_json(
            text("target", target),
            text("operand", operand),
            text("major", major, True),
            text("swizzle", swizzle, True),
            integer("k_dim", k_dim, USIZE),
            optional_integer("instruction_mn", instruction_mn, USIZE),
            integer("base", base, U64),
        )
        return Report("matrix-desc", native)

    def tma_map(
        self,
        global_strides: Sequence[int],
        target: str = "sm90",
        *,
        global_shape: Optional[Sequence[int]] = None,
        swizzle: Optional[str] = None,
        base: int = 0,
    ) -> Report:
        """Whether one TMA copy (``cp.async.bulk.tensor``) writes the layout, read as a box of a global tensor
        with ``global_strides`` (elements, one per dimension), and the tensor map that does (``cktile tma
        --json``): ``writes``, ``swizzle``, ``map`` (``box_dim``, ``global_strides_bytes``, ``dims``, ...,
        innermost first) or, for every mode, the element or rule that breaks it (``breaks``). ``target``:
        ``"sm90"`` or ``"sm100"`` (its 128B modes with 32- and 64-byte atoms); ``swizzle``: ``"none"``,
        ``"32b"``, ``"64b"``, ``"128b"``, ``"128b-atom-32b"``, ``"128b-atom-64b"``; ``base``: the box's first
        shared-memory byte."""
        shape = None if global_shape is None else integers("global_shape", global_shape, U64)
        native = self._native.tma_json(
            integers("global_strides", global_strides),
            text("target", target),
            shape,
            text("swizzle", swizzle, True),
            integer("base", base, U64),
        )
        return Report("tma", native)

    def codegen(self, lang: str = "hip", name: Optional[str] = None) -> str:
        """CUDA or HIP ``__device__`` offset functions for the layout (``cktile codegen``)."""
        return self._native.codegen(text("lang", lang), text("name", name, True))

    # Pictures.

    def _title(self, title: Optional[str]) -> str:
        return text("title", title) if title is not None else _native.title_of(self.source)

    def grid(
        self,
        arch: str = "gfx942",
        op: Optional[str] = None,
        rows: Optional[int] = None,
        cols: Optional[int] = None,
        title: Optional[str] = None,
    ) -> SVG:
        """Every coordinate's offset, coloured by bank (``cktile render --view grid``)."""
        rows, cols = optional_integer("rows", rows, USIZE), optional_integer("cols", cols, USIZE)
        return SVG(self._native.grid_svg(self._title(title), text("arch", arch), text("op", op, True), rows, cols))

    def heat_map(
        self,
        arch: str,
        pattern: Optional[str] = None,
        *,
        distribution: Optional[str] = None,
        op: Optional[str] = None,
        instruction: Optional[int] = None,
        title: Optional[str] = None,
    ) -> SVG:
        """One instruction (the worst, or ``instruction``): lanes against banks per phase
        (``cktile render --view banks``)."""
        t = self._title(title)
        instruction = optional_integer("instruction", instruction, USIZE)
        arch, pattern, op = text("arch", arch), text("pattern", pattern, True), text("op", op, True)
        return SVG(self._native.banks_svg(t, arch, pattern, _text(distribution), op, instruction))

    def chain(self, title: Optional[str] = None) -> SVG:
        """The transform stages from the top coordinate down to the offset (``cktile render --view chain``)."""
        return SVG(self._native.chain_svg(self._title(title)))

    def _repr_svg_(self) -> Optional[str]:
        if len(self.shape) > 2 or self.element_bytes is None:
            return self.chain()
        rows = min(self.shape[0], PREVIEW[0]) if len(self.shape) == 2 else None
        return self.grid(rows=rows, cols=min(self.shape[-1], PREVIEW[1]))


def _text(distribution: object) -> Optional[str]:
    if distribution is None or isinstance(distribution, str):
        return distribution
    if isinstance(distribution, Distribution):
        return distribution.encoding
    raise _native.Error(f"distribution: expected text or a cktile.Distribution, not {type(distribution).__name__}")


@public_methods
class Distribution:
    """A CK Tile tile distribution: CK's ``tile_distribution_encoding<...>`` spelling, cktile's
    ``distribution(...)`` or a catalogue name (``mfma16x16x16_a``, ``wmma16x16x16_gfx11_a``, one of CK's
    raked patterns such as ``warp_raked_256x128x32_v8``, ...).

    >>> d = cktile.Distribution("mfma16x16x16_a")
    >>> d.table().x_lengths
    [16, 16]
    """

    __slots__ = ("encoding", "_table")

    def __init__(self, encoding: str) -> None:
        self.encoding = text("encoding", encoding)
        self._table = Report("distribution", _native.distribution_json(encoding))

    def table(self) -> Report:
        """Lengths, both spellings, and every thread's coordinates (``cktile distribution --json``)."""
        return self._table

    def coverage(self, tile: Optional[Sequence[int]] = None) -> Report:
        """Whether every element of ``tile`` (X's own lengths if not given) is held, how many times and through
        which R components, and the first element missing or outside (``cktile distribution --tile ... --json``'s
        ``coverage``).

        >>> c = cktile.Distribution("thread_raked_256x16x256_v2_g2").coverage((16, 256))
        >>> c.complete, c.missing, c.first_missing, c.replication
        (False, 2048, [8, 0], 2)
        """
        lengths = None if tile is None else integers("tile", tile)
        full = Report("distribution", _native.distribution_json(self.encoding, lengths))
        return full.coverage

    def transpose_load(self, op: str, reverse: bool = False) -> Report:
        """Whether CK's ``load_tile_transpose`` accepts this distribution for gfx950's transposing read ``op``
        (``ds_read_b64_tr_b16``, ``_b8``, ``_b4``), the lane group size and the registers it returns, or each lane
        group size's broken rule (``cktile transpose-load --json``). ``reverse``: the distribution to read with, for
        these registers.

        >>> r = cktile.Distribution("gemm_b_tr_128x32_w2x2_mfma32x32x8_fp16").transpose_load("ds_read_b64_tr_b16")
        >>> r.accepted, r.lane_group, r.output.x_lengths
        (True, 32, [128, 32])
        """
        if not isinstance(reverse, bool):
            raise _native.Error(f"reverse: {reverse!r} is a {type(reverse).__name__}, not a bool")
        return Report("transpose-load", _native.transpose_json(self.encoding, text("op", op), reverse))

    def owners(self, rows: Optional[int] = None, cols: Optional[int] = None, title: Optional[str] = None) -> SVG:
        """The owner grid of a 2-D X (``cktile render --view distribution``)."""
        t = text("title", title) if title is not None else _native.title_of(self.encoding)
        rows, cols = optional_integer("rows", rows, USIZE), optional_integer("cols", cols, USIZE)
        return SVG(_native.distribution_svg(self.encoding, t, rows, cols))

    def __repr__(self) -> str:
        return f"cktile.Distribution({self.encoding!r})"

    def __reduce__(self):
        return (Distribution, (self.encoding,))

    def _repr_svg_(self) -> str:
        return self.owners(rows=PREVIEW[0], cols=PREVIEW[1])


@public
def bank(arch: str, op: str, addresses: Sequence[Optional[int]]) -> Report:
    """One instruction's bank conflicts from one byte address per lane (``None``: inactive), as ``cktile bank``.

    >>> cktile.bank("gfx90a", "ds_read_b32", [0, 128]).max_ways
    2
    """
    if type(arch) is str and type(op) is str:
        # The library reads a list, tuple or numpy array of plain addresses itself.
        native = _native.bank(arch, op, addresses)
        if native is not None:
            return Report._from_native("bank", native)
    lanes = optional_integers("addresses", addresses, U64)
    return Report._from_native("bank", _native.bank(text("arch", arch), text("op", op), lanes))


@public
def analyze_many(
    layouts: Sequence["Layout"],
    arch: str,
    pattern: Optional[str] = None,
    *,
    distribution: Optional[str] = None,
    op: Optional[str] = None,
) -> List[Report]:
    """:meth:`Layout.analyze` of every layout in ``layouts`` under the same accesses, run on every core
    with the GIL released: the reports in order, or the error of the first layout that has one.

    >>> rs = cktile.analyze_many([cktile.Layout("packed((128,64))", "fp16"),
    ...                           cktile.Layout("ck-universal-a:m=128,k=64")], "gfx942", "mfma16")
    >>> [r.max_ways for r in rs]
    [4, 1]
    """
    if isinstance(layouts, (str, Layout)) or not hasattr(layouts, "__iter__"):
        raise _native.Error(f"layouts: {layouts!r} is a {type(layouts).__name__}, not a sequence of cktile.Layout")
    natives = []
    for i, l in enumerate(layouts):
        if not isinstance(l, Layout):
            raise _native.Error(f"layouts[{i}]: {l!r} is a {type(l).__name__}, not a cktile.Layout")
        natives.append(l._native)
    arch, pattern, op = text("arch", arch), text("pattern", pattern, True), text("op", op, True)
    reports = _native.analyze_many(natives, arch, pattern, _text(distribution), op)
    return [Report._from_native("analyze", r) for r in reports]


def _tile(tile: object) -> Tuple[int, int]:
    """A tile as ``(rows, cols)`` or ``"ROWSxCOLS"``, checked as the argument ``tile``."""
    if isinstance(tile, str):
        # ASCII digits only: str.isdigit() also takes '²', which int() refuses.
        m = re.fullmatch(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*", tile)
        if m is None:
            raise _native.Error(f"tile: {tile!r} is not ROWSxCOLS; write e.g. '128x64' or (128, 64)")
        rows, cols = (integer("tile", int(g), USIZE) for g in m.groups())
        return rows, cols
    dims = integers("tile", tile, USIZE)
    if len(dims) != 2:
        raise _native.Error(f"tile: {tuple(tile)!r} has {len(dims)} lengths; give (rows, cols)")
    return dims[0], dims[1]


@public
def hopper_plan(
    tile: Union[str, Tuple[int, int]],
    dtype: object,
    global_strides: Sequence[int],
    target: str = "sm90",
    operand: str = "a",
    *,
    epilogue: bool = False,
    accesses: Sequence[str] = (),
) -> list:
    """The canonical layouts of a Hopper or Blackwell tile (``(mn, k)`` or ``"MNxK"``) that TMA writes from a
    global tensor with ``global_strides`` (elements, rows then columns) and ``wgmma`` / ``tcgen05.mma`` reads
    (not with ``epilogue=True``), best first: fewest bank conflicts of ``accesses`` (``"stmatrix.x4"``, ...),
    then fewest TMA copies, then the widest swizzle (``cktile hopper-plan --json``'s ``candidates``).

    >>> best = cktile.hopper_plan((128, 64), "fp16", [4096, 1])[0]
    >>> best.major, best.swizzle, best.tma_copies
    ('k', '128b', 1)
    """
    rows, cols = _tile(tile)
    if not isinstance(epilogue, bool):
        raise _native.Error(f"epilogue: {epilogue!r} is a {type(epilogue).__name__}, not a bool")
    native = _native.hopper_plan_json(
        rows,
        cols,
        text("dtype", element_type("dtype", dtype)),
        integers("global_strides", global_strides),
        text("target", target),
        text("operand", operand),
        epilogue,
        texts("accesses", accesses),
    )
    return [Report("hopper-plan", json.dumps(c, separators=(",", ":"))) for c in json.loads(native)["candidates"]]


@public
def search(
    tile: Union[str, Tuple[int, int]],
    dtype: str,
    arch: str,
    writes: Sequence[str] = (),
    reads: Sequence[str] = (),
    max_padding_bytes: Optional[int] = None,
    vector: Optional[int] = None,
    model: Optional[str] = None,
    answer_as: Optional[str] = None,
) -> Report:
    """The layouts of a row-major tile costing the fewest bank passes over its writes and reads
    (``cktile search --json``). ``tile`` is ``(rows, cols)`` or ``"ROWSxCOLS"``; each access is written as
    ``cktile search`` takes it (``ds_write_b128:row``, ``mfma16x16x16:a``, ``ldmatrix.x4``, ...).
    ``cktile.Layout(report.best.entry)`` builds the best layout found. ``model`` (a public model of AMD's LDS,
    :func:`cktile.names`' ``models``) also judges the first 12 equally good layouts under it (``report.model``).
    ``answer_as`` (``"triton"`` or ``"cute"``, ``cktile search --as``) gives every listed layout in that peer's
    own terms too, checked at every coordinate: ``answer.export`` (as :meth:`Layout.export` gives it, with the
    peer's ``text`` to paste) or ``answer.refused``.

    >>> r = cktile.search((64, 64), "fp16", "gfx942", writes=["ds_write_b128:row"], reads=["mfma16x16x16:a"])
    >>> r.conflict_free, cktile.Layout(r.best.entry).analyze("gfx942", "mfma16").max_ways
    (True, 1)
    >>> cktile.search((64, 64), "fp16", "gfx942", reads=["mfma16x16x16:a"], answer_as="cute").best.answer.export.text
    'Sw<2,4,2> o _0 o (64,64):(64,1)'
    """
    rows, cols = _tile(tile)
    padding = optional_integer("max_padding_bytes", max_padding_bytes, U64)
    return Report(
        "search",
        _native.search_json(
            rows,
            cols,
            text("dtype", element_type("dtype", dtype)),
            text("arch", arch),
            texts("writes", writes),
            texts("reads", reads),
            padding,
            optional_integer("vector", vector, USIZE),
            text("model", model, True),
            text("answer_as", answer_as, True),
        ),
    )


@public
def equiv(a: Union[str, "Layout", "Distribution"], b: Union[str, "Layout", "Distribution"], kind: str = "layout") -> Report:
    """Whether two layouts, or two distributions, are the same map (``cktile equiv --json``).

    ``report.same`` is ``True`` (with ``report.proof``: ``exhaustion``, every coordinate compared, or
    ``linear``, both chains linear over GF(2) and equal on every single-bit coordinate), ``False`` (with
    ``report.difference``, the first coordinate where they differ, or ``report.lengths``), or ``None``
    when undecided (``report.undecided`` says why). Layouts and distributions may be given as objects
    or text; text is read as ``kind`` (``layout`` or ``distribution``).

    >>> r = cktile.equiv("ck-universal-a:m=128,k=64", "cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=64")
    >>> r.same, r.proof
    (True, 'linear')
    >>> cktile.equiv(cktile.Distribution("mfma16x16x16_c"), cktile.Distribution("mfma16x16x16_c_transposed")).difference.y
    [0, 1]
    """
    if isinstance(a, Distribution) or isinstance(b, Distribution):
        kind = "distribution"
    elif isinstance(a, Layout) or isinstance(b, Layout):
        kind = "layout"
    if kind not in ("layout", "distribution"):
        raise _native.Error(f"kind: {kind!r} is neither 'layout' nor 'distribution'")

    def text(x: object, name: str) -> str:
        if isinstance(x, Layout) and kind == "layout":
            return x.spec
        if isinstance(x, Distribution) and kind == "distribution":
            return x.encoding
        if isinstance(x, str):
            return x
        raise _native.Error(f"{name}: expected text or a cktile.{kind.title()}, not {type(x).__name__}")

    call = _native.equiv_layouts_json if kind == "layout" else _native.equiv_distributions_json
    return Report("equiv", call(text(a, "a"), text(b, "b")))


@public
def catalogue() -> list:
    """Every catalogue entry with its parameters and example (``cktile catalogue --json``)."""
    return [Report("catalogue", json.dumps(e, separators=(",", ":"))) for e in json.loads(_native.catalogue_json())]


@public
def rules(arch: Optional[str] = None) -> list:
    """The analyzer's rule table, per chip and instruction, with its sources (``cktile rules --json``)."""
    arch = text("arch", arch, optional=True)
    return [Report("rules", json.dumps(r, separators=(",", ":"))) for r in json.loads(_native.rules_json(arch))]


@public
def model_answer(model: str, arch: str, op: str, addresses: Sequence[Optional[int]]) -> Report:
    """A public model of AMD's LDS (``rocke``, ``rocroller``, ``triton-9662``, ``triton-11365``, ``iree``,
    ``amd-shark``, ``hipkittens`` or ``cktile``) answering one instruction, as ``cktile bank --model``:
    its ``max_ways``, ``phases``, ``banks``, ``broadcast`` and ``source``; :class:`Error` where its source
    is silent.

    >>> cktile.model_answer("rocke", "gfx942", "ds_read_b128", [0] * 64).max_ways
    1
    """
    lanes = optional_integers("addresses", addresses, U64)
    native = _native.model_answer_json(text("model", model), text("arch", arch), text("op", op), lanes)
    return Report("model", native)


@public
def disagreements(arch: Optional[str] = None) -> list:
    """The access patterns on which the public models of AMD's LDS disagree, each with every lane's address
    and each model's answer (``cktile rules --disagreements --json``), for ``arch`` or every AMD chip.

    >>> d = cktile.disagreements("gfx942")
    >>> d[0].pattern, [a.ways for a in d[0].answers][:3]
    ('every lane at byte 0', [1, 1, 16])
    """
    arch = text("arch", arch, optional=True)
    rows = json.loads(_native.disagreements_json(arch))
    return [Report("disagreement", json.dumps(r, separators=(",", ":"))) for r in rows]


@public
def names() -> dict:
    """The names the arguments accept, each a list of names: ``archs``, ``patterns``, ``dtypes``, ``layouts``,
    ``ops`` (every instruction; the read2/write2 forms also take offsets, ``ds_read2_b32(0,16)``),
    ``distributions`` (each family's form, its members in braces: ``mfma16x16x16_{a,b,c,c_transposed}``) and
    ``models`` (the public models of AMD's LDS: ``model_answer``, ``search(model=...)``).

    >>> n = cktile.names()
    >>> "ds_read_b128" in n["ops"] and "float16" in n["dtypes"] and "gfx942" in n["archs"]
    True
    """
    return dict(_native.names())
