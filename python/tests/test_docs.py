"""The guide's chapter "From Python" (docs/src/python.md), run as written.

Its ```python blocks run one after another in one namespace, as a
notebook's cells would; every claim in them is an assert. The package's
docstring examples run as doctests.
"""

import doctest
import pathlib
import re

import pytest

import cktile
from cktile import _layout, _report, importers

CHAPTER = pathlib.Path(__file__).resolve().parents[2] / "docs" / "src" / "python.md"


def blocks():
    return re.findall(r"```python\n(.*?)```", CHAPTER.read_text(encoding="utf-8"), flags=re.S)


def test_the_chapter_has_its_examples():
    # A renamed fence would silently run nothing.
    assert len(blocks()) >= 8


def test_the_chapter_runs():
    namespace = {}
    for i, block in enumerate(blocks()):
        try:
            exec(compile(block, f"{CHAPTER.name} block {i + 1}", "exec"), namespace)
        except Exception as e:  # name the block that failed
            raise AssertionError(f"{CHAPTER.name}, python block {i + 1}: {e!r}\n{block}") from e


@pytest.mark.parametrize("module", [cktile, _layout, _report, importers])
def test_docstring_examples(module):
    result = doctest.testmod(module, extraglobs={"cktile": cktile}, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if module is not cktile:
        assert result.attempted > 0
