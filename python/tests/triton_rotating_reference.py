"""Triton's ``sharedToLinearLayoutAMDRotating`` rewritten from its definition, for the tests: written apart
from cktile's ``triton-rotating`` entry, so the two are independent evaluations of one map."""

import numpy as np


def rotating_bases(vec, per_phase, max_phase, order, shape):
    """Triton's ``offset`` bases (offset bit -> coordinate, lowest bit first) of one CTA's layout."""
    rank = len(shape)
    if rank == 1:
        return [[1 << k] for k in range(shape[0].bit_length() - 1)]
    col, row = order[0], order[1]
    n_cols, n_rows = shape[col], shape[row]
    bases = []

    def at(dim_values):
        basis = [0] * rank
        for d, v in dim_values.items():
            basis[d] = v
        return basis

    c = 1
    while c < n_cols:
        bases.append(at({col: c}))
        c *= 2
    r = 1
    while r < n_rows:
        phase = (r // per_phase) % max_phase
        block = r // max_phase // per_phase % max_phase
        bases.append(at({row: r, col: (vec * (phase ^ block)) % n_cols}))
        r *= 2
    for d in order[2:]:
        k = 1
        while k < shape[d]:
            bases.append(at({d: k}))
            k *= 2
    return bases


def rotating_offsets(vec, per_phase, max_phase, order, shape):
    """Every coordinate's offset: offset ``u`` sits at the XOR of the bases of ``u``'s set bits."""
    bases = rotating_bases(vec, per_phase, max_phase, order, shape)
    out = np.full(shape, -1, dtype=np.int64)
    for u in range(1 << len(bases)):
        coordinate = [0] * len(shape)
        for bit, basis in enumerate(bases):
            if u >> bit & 1:
                coordinate = [x ^ y for x, y in zip(coordinate, basis)]
        assert out[tuple(coordinate)] == -1, "two offsets on one coordinate"
        out[tuple(coordinate)] = u
    return out
