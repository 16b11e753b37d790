"""Reports and pictures: what cktile's queries return.

A :class:`Report` reads one of cktile's reports as an object: every key of the
JSON the ``cktile`` command prints with ``--json`` for the same question is an
attribute (``report.max_ways``), nested objects are reports again, and
``to_json()`` gives that text, byte for byte. The reports of ``analyze`` and
``bank`` are the library's own objects (``cktile._native``): their counts are
read from them directly, per-instruction and per-lane data come as numpy
arrays (:meth:`Report.arrays`), and the JSON is written only when something
asks for a key they do not hold natively (the phase and lane details) or for
``to_json()``. Jupyter shows a report as HTML tables. An :class:`SVG` is a
picture cktile drew; Jupyter shows it inline.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from typing import Any, Dict, Iterator, Optional

from . import _native

__all__ = ["Report", "SVG"]


def _wrap(value: Any, kind: str) -> Any:
    """JSON objects as reports, lists element by element; scalars as they are."""
    if isinstance(value, dict):
        return Report._from_value(value, kind)
    if isinstance(value, list):
        return [_wrap(v, kind) for v in value]
    return value


class Report(Mapping):
    """One of cktile's reports, read-only.

    Keys read as attributes or items; ``to_json()`` returns the text of
    ``cktile <command> --json`` byte for byte, ``to_dict()`` a plain copy.

    >>> import cktile
    >>> r = cktile.Layout("packed((4,8))").check()
    >>> r.bijective, r.hole_count
    (True, 0)
    >>> r.to_json().startswith('{"bijective":true')
    True
    """

    __slots__ = ("_kind", "_text", "_parsed", "_native", "_arrays")

    def __init__(self, kind: str, text: str, arrays: Optional[Dict[str, Any]] = None) -> None:
        self._kind = kind
        self._text = text
        self._parsed = json.loads(text)
        self._native = None
        self._arrays = arrays

    @classmethod
    def _made(cls, kind: str, parsed: Optional[dict] = None, native: Any = None) -> "Report":
        """A report from parsed values or over a native one, with no JSON text yet."""
        r = cls.__new__(cls)
        r._kind, r._text, r._parsed, r._native, r._arrays = kind, None, parsed, native, None
        return r

    @classmethod
    def _from_value(cls, value: dict, kind: str) -> "Report":
        return cls._made(kind, parsed=value)

    @classmethod
    def _from_native(cls, kind: str, native: Any) -> "Report":
        """A report over one of the library's report objects (``_native.Tile``, ``_native.Instruction``)."""
        return cls._made(kind, native=native)

    @property
    def _data(self) -> dict:
        """The report as Python values, parsed from its JSON when first needed."""
        data = self._parsed
        if data is None:
            data = self._parsed = json.loads(self.to_json())
        return data

    def _field(self, name: str) -> Any:
        """Key ``name``: from the native report when it holds it, else from the JSON."""
        native = self._native
        if native is not None:
            try:
                value = native.get(name)
            except KeyError:
                pass
            else:
                if isinstance(value, _native.Instruction):
                    return Report._from_native(self._kind, value)
                return value
        return _wrap(self._data[name], self._kind)

    @property
    def kind(self) -> str:
        """The report's key ``kind`` where it has one, as every key reads as an attribute (an export's
        ``linear``, ``padded`` or ``layout``; an equivalence's ``layout`` or ``distribution``); else what
        the report answers, :attr:`report_kind`.

        >>> import cktile
        >>> e = cktile.Layout("packed((4,8))", "fp16").export("triton")
        >>> e.kind, e.report_kind, cktile.Layout("packed((4,8))").check().kind
        ('linear', 'export', 'check')
        """
        data = self._parsed if self._native is None else None
        if isinstance(data, dict) and "kind" in data:
            return self._field("kind")
        return self._kind

    @property
    def report_kind(self) -> str:
        """What the report answers: ``check``, ``analyze``, ``bank``, ``search``, ``export``, ..."""
        return self._kind

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._field(name)
        except KeyError:
            keys = ", ".join(sorted(self._data))
            raise AttributeError(f"this {self._kind} report has no `{name}`; it has: {keys}") from None

    def __getitem__(self, key: str) -> Any:
        if not isinstance(key, str):
            raise KeyError(key)
        return self._field(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __dir__(self) -> list:
        return sorted(set(super().__dir__()) | set(self._data))

    def to_json(self) -> str:
        """The report as one line of JSON: for a whole report, exactly what the CLI's ``--json`` prints."""
        if self._text is not None:
            return self._text
        if self._native is not None:
            self._text = self._native.to_json()
            return self._text
        return json.dumps(self._data, separators=(",", ":"), sort_keys=True)

    def __reduce__(self):
        # Pickled (for multiprocessing, copy.copy, copy.deepcopy) as its JSON text and its arrays: the same
        # keys, values and arrays() (the library's report object itself stays behind).
        return (Report, (self._kind, self.to_json(), self.arrays() or None))

    def arrays(self) -> Dict[str, Any]:
        """The report's per-instruction or per-lane data as numpy arrays, filled by the library.

        ``analyze``: each instruction's ``phases``, ``cycles``, ``conflict_cycles``, ``max_ways``,
        ``worst_phase`` and ``active_lanes`` (``uint32``, in issue order; the JSON's ``per_instruction``).
        ``bank``: each lane's ``addresses`` (``uint64``, 0 where inactive) and ``active`` (``bool``).
        Other reports have none (an empty dict).

        >>> import cktile
        >>> r = cktile.Layout("packed((128,64))", dtype="fp16").analyze("gfx942", "mfma16")
        >>> a = r.arrays()
        >>> a["conflict_cycles"].dtype, int(a["conflict_cycles"].sum()) == r.conflict_cycles
        (dtype('uint32'), True)
        """
        if self._native is not None:
            return dict(self._native.arrays())
        return {} if self._arrays is None else {k: v.copy() for k, v in self._arrays.items()}

    def to_dict(self) -> dict:
        """A plain (deep) copy of the report as Python values."""
        return json.loads(self.to_json())

    def __repr__(self) -> str:
        # The headline metrics first, then the other scalars in the report's order.
        keys = [k for k in _HEADLINE if k in self._data] + [k for k in self._data if k not in _HEADLINE]
        scalars = [f"{k}={self._data[k]!r}" for k in keys if _is_scalar(self._data[k])]
        shown = ", ".join(scalars[:10]) + (", ..." if len(scalars) > 10 else "")
        return f"<cktile {self._kind} report: {shown}>"

    def _repr_html_(self) -> str:
        return _html(self._data, f"cktile {self._kind}")


#: What a report's repr names first, where it has them.
_HEADLINE = ("max_ways", "cycles", "conflict_cycles", "bijective", "conflict_free", "entry", "offset", "valid")


def _is_scalar(v: Any) -> bool:
    return v is None or isinstance(v, (bool, int, float, str))


def _cell(v: Any) -> str:
    if isinstance(v, list) and all(_is_scalar(x) for x in v):
        text = ", ".join("null" if x is None else str(x) for x in v[:16]) + (", ..." if len(v) > 16 else "")
        return f"<code>[{html.escape(text)}]</code>"
    if isinstance(v, (list, dict)):
        return f"<i>{len(v)} {'items' if isinstance(v, list) else 'fields'}</i>"
    if isinstance(v, str) and "\n" in v:
        return f"<pre>{html.escape(v)}</pre>"
    return html.escape("null" if v is None else str(v))


def _table_of_rows(name: str, rows: list, limit: int = 64) -> str:
    """A list of objects as one table: a column per key."""
    keys: list = []
    for r in rows[:limit]:
        keys.extend(k for k in r if k not in keys)
    head = "".join(f"<th>{html.escape(k)}</th>" for k in keys)
    body = "".join(
        "<tr>" + "".join(f"<td>{_cell(r.get(k))}</td>" for k in keys) + "</tr>" for r in rows[:limit]
    )
    more = f"<p>({len(rows) - limit} more rows)</p>" if len(rows) > limit else ""
    return f"<h4>{html.escape(name)}</h4><table><tr>{head}</tr>{body}</table>{more}"


def _html(data: dict, title: str) -> str:
    """Scalars in a two-column table, lists of objects as tables, nested objects below."""
    rows = "".join(
        f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{_cell(v)}</td></tr>"
        for k, v in data.items()
        if not (isinstance(v, dict) or (isinstance(v, list) and v and isinstance(v[0], dict)))
    )
    parts = [f"<div class='cktile-report'><h3>{html.escape(title)}</h3><table>{rows}</table>"]
    for k, v in data.items():
        if isinstance(v, list) and v and isinstance(v[0], dict):
            parts.append(_table_of_rows(k, v))
        elif isinstance(v, dict):
            parts.append(_html(v, k))
    parts.append("</div>")
    return "".join(parts)


class SVG(str):
    """A picture cktile drew, as SVG text; Jupyter shows it inline.

    >>> import cktile
    >>> svg = cktile.Layout("packed((4,8))", dtype="fp16").grid()
    >>> svg.startswith("<svg")
    True
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        # A summary, not the whole document: its title and size (``str(svg)`` is the text).
        m = re.search(r"<title>(.*?)</title>", self, re.S)
        title = html.unescape(m.group(1)) if m else "picture"
        return f"<cktile.SVG {title!r}: {len(self)} bytes of SVG; .save(path) writes it, str() is its text>"

    def save(self, path: str) -> None:
        """Writes the picture to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self)
