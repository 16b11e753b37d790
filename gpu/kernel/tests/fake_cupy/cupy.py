"""A stand-in for the part of CuPy that `gpu/kernel.py run` and `probe` use,
so that gpu/ci.sh runs them without a GPU (PYTHONPATH=gpu/kernel/tests/fake_cupy).

It runs no PTX: a "kernel" looks its case up in the folder's cases.txt by
name and arguments and, thread by thread of the launched grid (each thread
of the tile writing its 8 elements, as the real kernels do), copies the
expected offsets into the output. So it checks the script's plumbing: the
launch arguments and grid, the poisoned output, the comparison, the report
and the exit status. FAKE_CUPY_WRONG=KERNEL makes that kernel write one
wrong offset; FAKE_CUPY_SKIP=KERNEL makes its last thread write nothing.
"""

import json
import os

__version__ = "fake"
int64 = "int64"
uint64 = int


class _Array:
    def __init__(self, values):
        self.values = values

    def tolist(self):
        return list(self.values)


def full(n, value, dtype=None):
    assert dtype == int64, dtype
    return _Array([value] * n)


def asnumpy(array):
    return array


class _Function:
    def __init__(self, folder, name):
        self.folder, self.name = folder, name

    def __call__(self, grid, block, args):
        out, *scalars = args
        case = None
        with open(os.path.join(self.folder, "cases.txt"), encoding="utf-8") as f:
            for line in f:
                fields = line.split(None, 7)
                if len(fields) < 8 or line.startswith("#") or self.name not in fields[1:3]:
                    continue
                wanted = [] if fields[6] == "-" else [int(a) for a in fields[6].split(",")]
                if wanted == [int(s) for s in scalars]:
                    case = fields
        if case is None:
            raise RuntimeError(f"fake cupy: no case launches {self.name} with {scalars}")
        with open(os.path.join(self.folder, "expected", case[0] + ".json"), encoding="utf-8") as f:
            report = json.load(f)
        expected = [o if v else -1 for o, v in zip(report["offsets"], report["valid"])]
        vectors = len(expected) // 8
        threads = min(grid[0] * block[0], vectors)
        if os.environ.get("FAKE_CUPY_SKIP") == self.name:
            threads -= 1
        for tid in range(threads):
            out.values[tid * 8:tid * 8 + 8] = expected[tid * 8:tid * 8 + 8]
        if os.environ.get("FAKE_CUPY_WRONG") == self.name:
            out.values[5] += 1


class RawModule:
    def __init__(self, path):
        if not os.path.exists(path):
            raise FileNotFoundError(path)
        self.folder = os.path.dirname(path)

    def get_function(self, name):
        return _Function(self.folder, name)


class _Device:
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
    def driverGetVersion():
        return 0


class cuda:  # noqa: N801 (CuPy's name)
    Device = _Device
    runtime = _Runtime
