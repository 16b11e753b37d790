"""The guide's chapter "From Python" (docs/src/python.md) and its pages
from CuTe, Triton and tensor-layouts, run as written.

Each page's ```python blocks run one after another in one namespace of its
own, as a notebook's cells would; every claim in them is an assert. The
package's docstring examples run as doctests.
"""

import doctest
import pathlib
import re

import pytest

import cktile
from cktile import _args, _layout, _report, importers

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "src"
# Each page a notebook, with the least number of examples it has (a
# renamed fence would silently run nothing).
PAGES = {"python.md": 8, "from-cute.md": 3, "from-triton.md": 4, "from-tensor-layouts.md": 5, "hopper.md": 1}


def blocks(page):
    return re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_page_has_its_examples(page):
    assert len(blocks(page)) >= PAGES[page]


def test_every_python_page_is_run():
    # A new page with python examples must be listed here.
    pages = {p.name for p in DOCS.glob("*.md") if "```python" in p.read_text(encoding="utf-8")}
    assert pages == set(PAGES)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_page_runs(page):
    namespace = {}
    for i, block in enumerate(blocks(page)):
        try:
            exec(compile(block, f"{page} block {i + 1}", "exec"), namespace)
        except Exception as e:  # name the block that failed
            raise AssertionError(f"{page}, python block {i + 1}: {e!r}\n{block}") from e


@pytest.mark.parametrize("module", [cktile, _args, _layout, _report, importers])
def test_docstring_examples(module):
    result = doctest.testmod(module, extraglobs={"cktile": cktile}, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if module is not cktile:
        assert result.attempted > 0
