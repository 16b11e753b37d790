"""Argument checks for the public API: every integer argument is an integer,
every text argument a ``str``.

``int(x)`` would read ``1.5`` as 1, ``"1"`` as 1 and ``True`` as 1, a value
past the native layer's range would fail with "Python int too large to
convert to C long", a number where text is meant with "'int' object is not
an instance of 'str'" (no argument named), and a bare string where a list of
strings is meant would be read letter by letter. These checks refuse each
of those with a ``cktile.Error`` naming the argument, the value as given and
what is valid.
"""

import operator
from typing import List, Optional, Sequence

from . import _native

I64 = (-(1 << 63), (1 << 63) - 1)
U64 = (0, (1 << 64) - 1)
USIZE = (0, (1 << 64) - 1)


def _sequence(name: str, values: object, of: str, hint: str = "") -> object:
    """``values`` when it is a sequence other than a string, else a refusal naming ``name``."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise _native.Error(f"{name}: {values!r} is a {type(values).__name__}, not a sequence of {of}{hint}")
    return values


def integer(name: str, value: object, bounds=I64) -> int:
    """``value`` as an ``int`` (an ``int`` or an integer numpy scalar), inside ``bounds`` (inclusive).

    >>> integer("rows", 4)
    4
    >>> integer("rows", 1.5)
    Traceback (most recent call last):
    ...
    cktile.Error: rows: 1.5 is a float, not an integer
    """
    if isinstance(value, bool):
        raise _native.Error(f"{name}: {value!r} is a bool, not an integer")
    try:
        n = operator.index(value)
    except TypeError:
        raise _native.Error(f"{name}: {value!r} is a {type(value).__name__}, not an integer") from None
    lo, hi = bounds
    if not lo <= n <= hi:
        raise _native.Error(f"{name}: {n} is out of range; expected an integer from {lo} to {hi}")
    return n


def integers(name: str, values: object, bounds=I64) -> List[int]:
    """Each of ``values`` checked as ``name[i]``; ``values`` itself a sequence, not a string.

    >>> integers("tile", (16, 64))
    [16, 64]
    """
    return [integer(f"{name}[{i}]", v, bounds) for i, v in enumerate(_sequence(name, values, "integers"))]


def optional_integers(name: str, values: Sequence[object], bounds=I64) -> List[Optional[int]]:
    """:func:`integers`, where ``None`` stays ``None`` (an inactive lane).

    >>> optional_integers("addresses", [0, None, 4], U64)
    [0, None, 4]
    """
    return [
        None if v is None else integer(f"{name}[{i}]", v, bounds)
        for i, v in enumerate(_sequence(name, values, "integers"))
    ]


def optional_integer(name: str, value: object, bounds=I64) -> Optional[int]:
    """:func:`integer`, or ``None``.

    >>> optional_integer("vector", None) is None
    True
    """
    return None if value is None else integer(name, value, bounds)


def text(name: str, value: object, optional: bool = False) -> Optional[str]:
    """``value`` as a ``str`` (``None`` too, when ``optional``); anything else is refused by name.

    >>> text("arch", "gfx942")
    'gfx942'
    >>> text("arch", 42)
    Traceback (most recent call last):
    ...
    cktile.Error: arch: 42 is a int, not a str
    """
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _native.Error(f"{name}: {value!r} is a {type(value).__name__}, not a str")
    return value


def texts(name: str, values: object) -> List[str]:
    """Each of ``values`` checked as ``name[i]``; a bare string is refused (it is not a list of one).

    >>> texts("writes", ["ds_write_b128:row"])
    ['ds_write_b128:row']
    """
    hint = f" (write [{values!r}] for one)"
    return [text(f"{name}[{i}]", v) for i, v in enumerate(_sequence(name, values, "str", hint))]
