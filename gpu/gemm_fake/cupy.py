"""A stand-in for the part of CuPy that `gpu/gemm.py run`, `time` and
`probe` use, so that they run without a GPU (PYTHONPATH=gpu/gemm_fake;
numpy needed).

It runs no PTX: a "kernel" reads its configuration, form and probe-ness
from its name and its shape from its arguments (the host form's from the
descriptor slots: rows, K, stride), refuses as the real kernels do (the
validating forms write nothing when K or the stride is not a multiple of 8),
and writes what gemm.py's reference says. So it checks the script's
plumbing, not the kernels: the launch arguments and grid, the poisoned and
guarded output, the comparisons, the reports and the exit status (the
timing shape's kernels write zeros).
FAKE_CUPY_WRONG=KERNEL makes that kernel write one wrong value.
"""

import os
import sys

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gemm  # noqa: E402

__version__ = "fake"
uint16 = numpy.uint16


def asarray(a):
    return numpy.array(a)


def empty(n, dtype=None):
    return numpy.zeros(n, dtype=dtype)


def full(n, value, dtype=None):
    return numpy.full(n, value, dtype=dtype)


def asnumpy(a):
    return numpy.array(a)


def count_nonzero(a):
    return numpy.count_nonzero(a)


class _Function:
    def __init__(self, name):
        self.name = name
        probe = name.startswith("probe_")
        side, config, form = name.split("_")[1:] if probe else (name.split("_")[0], *name.split("_")[2:])
        self.config, self.form, self.side, self.probe = config, form, side, probe

    def __call__(self, grid, block, params, shared_mem=0):
        c = gemm.CONFIGS[self.config]
        if self.form == "host" and self.side == "typed":
            a_slots, b_slots, a, _, b, _, n_blocks, out = params
            m, k, stride, n = int(a_slots[0]), int(a_slots[1]), int(a_slots[2]), int(b_slots[0])
        else:
            a, b, m, n, k, stride, n_blocks, out = params
            m, n, k, stride = int(m), int(n), int(k), int(stride)
        if block != (c["block"],) or shared_mem != (c["m"] + c["n"]) * c["k"] * 2:
            raise RuntimeError(f"fake cupy: {self.name}: block {block}, {shared_mem} bytes of shared memory")
        extra = int(n_blocks) - -(-n // c["n"])
        if grid != (gemm.grid(self.config, m, n, extra)[0],):
            raise RuntimeError(f"fake cupy: {self.name}: grid {grid}")
        if (k | stride) % 8:
            if self.form == "unwrap":
                raise RuntimeError("fake cupy: the unwrap kernel traps")
            if self.side == "typed" or self.form == "u64":
                return
        if grid[0] > 256:  # the timing shape: too large for the reference on a CPU; every form writes zeros
            want = numpy.zeros(grid[0] * c["block"] * c["mi"] * c["ni"] * 8, dtype=numpy.uint16)
        else:
            regs, acc = gemm.reference(numpy, self.config, (m, n, k, stride, extra), a, b)
            want = regs if self.probe else acc
        out[: len(want)] = want
        if os.environ.get("FAKE_CUPY_WRONG") == self.name:
            out[3] += 1


class RawModule:
    def __init__(self, path):
        if not os.path.exists(path):
            raise FileNotFoundError(path)

    def get_function(self, name):
        return _Function(name)


class _Event:
    def record(self):
        pass

    def synchronize(self):
        pass


class _Runtime:
    @staticmethod
    def getDeviceCount():
        return 1

    @staticmethod
    def getDeviceProperties(_device):
        return {"name": b"fake device (no GPU)", "major": 9, "minor": 0}

    @staticmethod
    def deviceSynchronize():
        pass


class cuda:  # noqa: N801 (CuPy's name)
    runtime = _Runtime
    Event = _Event

    @staticmethod
    def get_elapsed_time(_start, _stop):
        return 1.0
