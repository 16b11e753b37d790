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

import functools
import operator
from typing import List, Optional, Sequence

from . import _native

I64 = (-(1 << 63), (1 << 63) - 1)
U64 = (0, (1 << 64) - 1)
USIZE = (0, (1 << 64) - 1)
#: The largest value of a C ``int``, which Triton's parameters are.
I32_MAX = (1 << 31) - 1


def _sequence(name: str, values: object, of: str, hint: str = "") -> list:
    """The items of ``values`` when it is a sequence other than a string (a 1-D numpy array too, not a
    0-d one), else a refusal naming ``name``."""
    refusal = _native.Error(f"{name}: {values!r} is a {type(values).__name__}, not a sequence of {of}{hint}")
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise refusal
    try:
        return list(values)
    except TypeError:  # a 0-d numpy array has __iter__ but no items
        raise refusal from None


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


def sequence(name: str, values: object, of: str = "lists") -> list:
    """The items of a sequence argument (a list of lists, say), each checked by the caller.

    >>> sequence("offset_bases", [[0, 1], [1, 0]])
    [[0, 1], [1, 0]]
    >>> sequence("offset_bases", None)
    Traceback (most recent call last):
    ...
    cktile.Error: offset_bases: None is a NoneType, not a sequence of lists
    """
    return _sequence(name, values, of)


def dtype(name: str, value: object) -> Optional[str]:
    """An element type as cktile reads it, or ``None``: a name (``"fp16"``, ``"float16"``, ``"bfloat16"``,
    ``"float8_e4m3fn"``, ... the library checks it), a byte count (``2``), or a numpy, PyTorch or Triton
    dtype, given by its name where cktile knows that name and else by its width in bytes.

    >>> import numpy as np
    >>> dtype("dtype", np.float16), dtype("dtype", np.dtype("int32")), dtype("dtype", 2)
    ('float16', 'int32', '2')
    >>> dtype("dtype", np.complex128)
    Traceback (most recent call last):
    ...
    cktile.Error: dtype: complex128 is 16 bytes wide; cktile's element types are 1, 2, 4 or 8 bytes
    """
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        raise _native.Error(f"{name}: {value!r} is a bool, not an element type")
    try:
        return str(operator.index(value))  # a byte count, checked by the library
    except TypeError:
        pass
    called, bits = _dtype_width(value)
    if called is None:
        raise _native.Error(
            f"{name}: {value!r} is a {type(value).__name__}, not an element type; give a name such as 'fp16' or "
            "'float16', a byte count, or a numpy, PyTorch or Triton dtype"
        )
    if called in dict(_native.names())["dtypes"]:
        return called
    if bits % 8 or bits // 8 not in (1, 2, 4, 8):
        raise _native.Error(
            f"{name}: {called} is {bits // 8 if bits % 8 == 0 else bits / 8:g} bytes wide; cktile's element types "
            "are 1, 2, 4 or 8 bytes"
        )
    return str(bits // 8)


def _dtype_width(value: object):
    """(name, bits) of a Triton, PyTorch or numpy dtype; (None, 0) for anything else."""
    module = type(value).__module__ or ""
    if module.startswith("triton") and hasattr(value, "primitive_bitwidth"):
        return str(getattr(value, "name", value)), int(value.primitive_bitwidth)
    if module.startswith("torch") and hasattr(value, "itemsize"):
        return str(value).removeprefix("torch."), 8 * int(value.itemsize)
    import numpy as np

    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        d = np.dtype(value)
        if d.kind in "biufc" and d.itemsize:
            return d.name, 8 * d.itemsize
    return None, 0


def public(fn):
    """``fn`` as an entry point of the API: any failure that the checks above did not turn into a
    ``cktile.Error`` (a call with a missing or unknown argument, a value no check foresaw, a
    ``RecursionError`` from a hostile nesting) becomes one, naming the entry point and the original error,
    which stays chained as its cause. Only an exhausted memory passes as it is.

    >>> @public
    ... def rows(n):
    ...     return [0] * n
    >>> rows("4")
    Traceback (most recent call last):
    ...
    cktile.Error: rows: TypeError: can't multiply sequence by non-int of type 'str'
    """

    @functools.wraps(fn)
    def entry(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (_native.Error, MemoryError):
            raise
        except Exception as e:
            raise _native.Error(f"{fn.__qualname__}: {type(e).__name__}: {e}") from e

    return entry


def public_methods(cls):
    """Every public method of ``cls`` (and its constructor) as a :func:`public` entry point."""
    for key, value in list(vars(cls).items()):
        if key.startswith("_") and key != "__init__":
            continue
        if isinstance(value, classmethod):
            setattr(cls, key, classmethod(public(value.__func__)))
        elif isinstance(value, staticmethod):
            setattr(cls, key, staticmethod(public(value.__func__)))
        elif callable(value) and not isinstance(value, type):
            setattr(cls, key, public(value))
    return cls
