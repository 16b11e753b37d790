"""cktile for Python: exact shared-memory (LDS) bank-conflict analysis for AMD and NVIDIA GPUs,
CK Tile's descriptors and tile distributions, a layout search, and importers for CuTe, Triton and
tensor-layouts layouts.

>>> import cktile
>>> a = cktile.Layout("packed((128,64))", dtype="fp16")
>>> a.analyze("gfx942", "mfma16").max_ways
4
>>> cktile.Layout("ck-universal-a:m=128,k=64").analyze("gfx942", "mfma16").max_ways
1

Every answer is computed by the Rust library behind the ``cktile`` command, with the same calls, so a
report's ``to_json()`` is the text ``cktile ... --json`` prints. Bad input raises :class:`Error`, a
``ValueError`` whose message names the value at fault.
"""

from ._native import Error, __version__
from ._layout import (
    Distribution,
    Layout,
    analyze_many,
    bank,
    catalogue,
    disagreements,
    equiv,
    hopper_plan,
    model_answer,
    names,
    rules,
    search,
)
from ._report import SVG, Report
from .importers import from_cute, from_linear_bases, from_triton

__all__ = [
    "Error",
    "Layout",
    "Distribution",
    "Report",
    "SVG",
    "bank",
    "analyze_many",
    "search",
    "hopper_plan",
    "equiv",
    "catalogue",
    "rules",
    "model_answer",
    "disagreements",
    "names",
    "from_cute",
    "from_triton",
    "from_linear_bases",
    "__version__",
]
