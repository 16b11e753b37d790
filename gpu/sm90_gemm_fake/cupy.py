"""A stand-in for the part of CuPy that `gpu/sm90_gemm.py run` and `probe`
use, so that they run without a GPU (PYTHONPATH=gpu/sm90_gemm_fake; numpy
needed).

It runs no PTX: a "kernel" reads its element type, layout and C type from
sm90_gemm.py's table of kernels and its shape from its arguments, checks
the launch as the real kernel needs it (256 threads, one block per
128 x 128 tile of C, the dynamic shared memory the script computes),
refuses as the real kernels do (a K that is no multiple of the 16-byte
vector writes nothing), and writes the product of its operands as decoded
by the script. So it checks the script's plumbing, not the kernels: the
operand encodings, the launch, the poisoned and guarded C, the
comparisons and the exit status.
FAKE_CUPY_WRONG=KERNEL makes that kernel write one wrong element.
"""

import os
import sys

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import sm90_gemm  # noqa: E402

__version__ = "fake"
float32, uint16, int32, nan = numpy.float32, numpy.uint16, numpy.int32, numpy.nan


def asarray(a):
    return numpy.array(a)


def asnumpy(a):
    return numpy.array(a)


def full(n, value, dtype=None):
    return numpy.full(n, value, dtype=dtype)


class runtime:
    @staticmethod
    def deviceSynchronize():
        pass

    @staticmethod
    def getDeviceCount():
        return 1


class cuda:
    runtime = runtime


class _Function:
    def __init__(self, name):
        self.name = name
        self.kern = sm90_gemm.KERNELS[name]

    def __call__(self, grid, block, params, shared_mem=0):
        kern, dtype = self.kern, self.kern["dtype"]
        a, b, c = params[:3]
        m, n, k = (int(v) for v in params[3:6])
        ld = int(params[6]) if len(params) > 6 else k
        assert len(params) == (6 if kern.get("packed") else 8), f"{self.name}: {len(params)} arguments"
        assert block == (sm90_gemm.BLOCK,) and grid == (sm90_gemm.grid(m, n)[0],), f"{self.name}: launch {grid} x {block}"
        need = (sm90_gemm.TILE_M + sm90_gemm.TILE_N) * kern["k_tile"] * sm90_gemm.ELEMENT_BYTES[dtype]
        assert shared_mem >= max(need, kern.get("c_lds", 0)), f"{self.name}: {shared_mem} bytes of shared memory"
        if k % sm90_gemm.vector(dtype):
            return
        va, vb = sm90_gemm.values_of(numpy, a, dtype), sm90_gemm.values_of(numpy, b, dtype)
        if kern.get("transposed"):
            va, vb = va.reshape(k, -1)[:, :m].T, vb.reshape(k, -1)[:, :n].T
        else:
            va, vb = va.reshape(m, -1)[:, :k], vb.reshape(n, -1)[:, :k]
        got = (va @ vb.T).reshape(-1)
        if os.environ.get("FAKE_CUPY_WRONG") == self.name:
            got[len(got) // 2] += 1
        c_type = kern.get("c")
        if c_type == "i32":
            c[: m * n] = got.astype(numpy.int32)
        elif c_type:
            c[: m * n] = sm90_gemm.bits(numpy, got.astype(numpy.float32), c_type)
        else:
            c[: m * n] = got.astype(numpy.float32)


class RawModule:
    def __init__(self, path):
        open(path).close()

    def get_function(self, name):
        return _Function(name)
