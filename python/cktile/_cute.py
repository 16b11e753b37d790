"""CuTe's printed layouts read back: :func:`parse_cute` (C++ CuTe's ``print``, CuTe DSL's, pycute's and
tensor-layouts' spellings), beneath both the layouts (:meth:`cktile.Layout.to_pycute` reads its own CuTe
export back with it) and the importers (:func:`cktile.from_cute` reads a user's text with it)."""

from __future__ import annotations

from typing import Optional, Tuple

from . import _native
from ._args import public

#: The deepest nesting of modes the importers read (CuTe's layouts nest a few levels; the bound keeps a hostile
#: text or object from exhausting Python's stack).
MAX_DEPTH = 64


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
        # A long text is quoted by its start: the position says where the fault is.
        quoted = repr(self.text) if len(self.text) <= 80 else repr(self.text[:60]) + f" (... {len(self.text)} characters)"
        return _native.Error(
            f"CuTe layout text {quoted}: expected {expected} at character {self.at + 1}, found {found}; "
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

    def tree(self, depth: int = 0) -> object:
        """An integer or a parenthesised, comma-separated tuple of trees."""
        if self.eat("("):
            if depth >= MAX_DEPTH:
                self.at -= 1
                raise self.fail(f"an integer (modes nest at most {MAX_DEPTH} levels deep)")
            items = [self.tree(depth + 1)]
            while self.eat(","):
                if self.eat(")"):  # Python's one-element tuple, (4,)
                    return tuple(items)
                items.append(self.tree(depth + 1))
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

    def offset(self) -> int:
        """A composition's offset and the ``o`` after it, when printed: ``_0 o`` (C++ CuTe), ``32 o``, or
        ``{32} o`` (tensor-layouts, which leaves a zero out); 0 when absent."""
        save = self.at
        try:
            braced = self.eat("{")
            offset = self.integer()
            if braced:
                self.expect("}")
            self.expect("o")
            return offset
        except _native.Error:
            self.at = save
            return 0

    def plain(self) -> Tuple[object, object]:
        """``SHAPE:STRIDE``, or ``(SHAPE:STRIDE)`` as tensor-layouts wraps a composition's inner layout
        (``((16, 64) : (64, 1))``, and ``(8 : 1)`` at rank 1)."""
        self.skip()
        save = self.at
        if self.eat("("):
            probe = _Reader(self.text)
            probe.at = self.at
            try:
                shape = probe.tree()
                probe.expect(":")
                stride = probe.tree()
                probe.expect(")")
                self.at = probe.at
                return shape, stride
            except _native.Error:
                self.at = save
        shape = self.tree()
        self.expect(":")
        return shape, self.tree()

    def layout(self) -> "_Printed":
        """``[(]SWIZZLE[)] o [OFFSET o] LAYOUT`` or ``SHAPE:STRIDE``."""
        self.skip()
        start = self.at
        wrapped = self.eat("(")
        swizzle = self.swizzle()
        offset = 0
        if swizzle is None:
            self.at = start
            shape, stride = self.tree(), None
            self.expect(":")
            stride = self.tree()
        else:
            if wrapped:
                self.expect(")")
            self.expect("o")
            offset = self.offset()
            shape, stride = self.plain()
        self.skip()
        if self.at != len(self.text):
            raise self.fail("the end of the layout")
        return _Printed(shape, stride, swizzle, offset)


@public
def parse_cute(text: str) -> "_Printed":
    """A CuTe layout from its printed text (C++ CuTe, CuTe DSL, pycute or tensor-layouts spelling).

    >>> l = parse_cute("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)")
    >>> (l.shape, l.stride, (l.swizzle.bits, l.swizzle.base, l.swizzle.shift), l.offset)
    ((16, 64), (64, 1), (3, 3, 3), 0)
    """
    if not isinstance(text, str):
        raise _native.Error(f"CuTe layout text must be a str, not {type(text).__name__}")
    return _Reader(text).layout()
