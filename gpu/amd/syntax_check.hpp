// Just enough of HIP for a host C++ compiler to check lds_probe.hip's syntax
// where no HIP toolchain is installed (CI: `c++ -std=c++17 -fsyntax-only
// -DCKTILE_PROBE_SYNTAX_CHECK`). Nothing here runs: the probe itself is built
// with hipcc on the machine with the GPU.
#pragma once

#include <cstddef>

#define __global__
#define __device__
#define __shared__ static

struct u32x2 { unsigned x, y; };
struct u32x3 { unsigned x, y, z; };
struct u32x4 { unsigned x, y, z, w; };

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
static const struct { unsigned x, y, z; } threadIdx = {0, 0, 0};

typedef int hipError_t;
static const hipError_t hipSuccess = 0;
enum hipMemcpyKind { hipMemcpyHostToDevice, hipMemcpyDeviceToHost };
struct hipDeviceProp_t { int warpSize; char gcnArchName[256]; };
hipError_t hipGetDevice(int*);
hipError_t hipGetDeviceProperties(hipDeviceProp_t*, int);
template <typename T> hipError_t hipMalloc(T**, size_t);
hipError_t hipFree(void*);
hipError_t hipMemcpy(void*, const void*, size_t, hipMemcpyKind);
hipError_t hipGetLastError();
hipError_t hipDeviceSynchronize();
const char* hipGetErrorString(hipError_t);
#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...) \
    ((void)(grid), (void)(block), (void)(shared), (void)(stream), kernel(__VA_ARGS__))
