// cktile's AMD LDS probe: one wave issues one LDS instruction kind over and
// over from the lanes a case makes active, each at the byte address the case
// gives it; rocprofv3 counts the bank-conflict cycles (SQ_LDS_BANK_CONFLICT)
// and the instructions (SQ_INSTS_LDS) of each dispatch.
//
// Input (stdin), one case per line:
//   OP ITERATIONS ADDR_0 ADDR_1 ... ADDR_{wave-1}
// where OP is an instruction name (ds_read_b32, ...), and ADDR_t is lane t's
// byte address or -1 (the lane does not take part: it leaves before the loop,
// so the instruction runs with that lane masked off).
// Output (stdout): one line per dispatch, in order, `dispatch K OP`, which
// gpu/amd/collect.py joins with rocprofv3's per-dispatch counters.
//
// Build: hipcc -O2 --offload-arch=gfx942 gpu/amd/lds_probe.hip -o lds_probe
// (run.sh does it for the GPU it finds).

#if defined(CKTILE_PROBE_SYNTAX_CHECK)
// No HIP toolchain: a host compiler checks the syntax (gpu/amd/syntax_check.hpp).
#include "syntax_check.hpp"
#else
#include <hip/hip_runtime.h>
typedef unsigned int u32x2 __attribute__((ext_vector_type(2)));
typedef unsigned int u32x3 __attribute__((ext_vector_type(3)));
typedef unsigned int u32x4 __attribute__((ext_vector_type(4)));
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// RDNA (gfx11, gfx12) spells the LDS instructions ds_load_* / ds_store_*.
#if defined(__GFX11__) || defined(__GFX12__)
#define CKTILE_LOAD(w) "ds_load_" w
#define CKTILE_STORE(w) "ds_store_" w
#else
#define CKTILE_LOAD(w) "ds_read_" w
#define CKTILE_STORE(w) "ds_write_" w
#endif

// The LDS the addresses index: 64 KiB, the smallest LDS of the chips probed.
constexpr unsigned kLdsBytes = 65536;

// The instruction kinds, in the order of kOps below.
enum Kind {
    kReadU8,
    kReadU16,
    kReadB32,
    kReadB64,
    kReadB96,
    kReadB128,
    kWriteB8,
    kWriteB16,
    kWriteB32,
    kWriteB64,
    kWriteB96,
    kWriteB128,
    kReadTrB4,
    kReadTrB8,
    kReadTrB16,
    kKinds
};

// cktile's names for them (gfx9 spelling, as `cktile rules` prints them).
static const char* const kOps[kKinds] = {
    "ds_read_u8",     "ds_read_u16",    "ds_read_b32",       "ds_read_b64",       "ds_read_b96",
    "ds_read_b128",   "ds_write_b8",    "ds_write_b16",      "ds_write_b32",      "ds_write_b64",
    "ds_write_b96",   "ds_write_b128",  "ds_read_b64_tr_b4", "ds_read_b64_tr_b8", "ds_read_b64_tr_b16",
};

// One instruction of kind K at LDS byte `addr`, folded into `acc` so that the
// loop has a result the compiler must keep; `volatile` keeps every issue.
template <int K>
__device__ inline unsigned issue(unsigned addr, unsigned acc)
{
    if constexpr(K == kReadU8) {
        unsigned v;
        asm volatile(CKTILE_LOAD("u8") " %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
        return acc ^ v;
    } else if constexpr(K == kReadU16) {
        unsigned v;
        asm volatile(CKTILE_LOAD("u16") " %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
        return acc ^ v;
    } else if constexpr(K == kReadB32) {
        unsigned v;
        asm volatile(CKTILE_LOAD("b32") " %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
        return acc ^ v;
    } else if constexpr(K == kReadB64) {
        u32x2 v;
        asm volatile(CKTILE_LOAD("b64") " %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
        return acc ^ v.x ^ v.y;
    } else if constexpr(K == kReadB96) {
        u32x3 v;
        asm volatile(CKTILE_LOAD("b96") " %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
        return acc ^ v.x ^ v.z;
    } else if constexpr(K == kReadB128) {
        u32x4 v;
        asm volatile(CKTILE_LOAD("b128") " %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
        return acc ^ v.x ^ v.w;
    } else if constexpr(K == kWriteB8) {
        asm volatile(CKTILE_STORE("b8") " %0, %1\n s_waitcnt lgkmcnt(0)" : : "v"(addr), "v"(acc) : "memory");
        return acc + 1;
    } else if constexpr(K == kWriteB16) {
        asm volatile(CKTILE_STORE("b16") " %0, %1\n s_waitcnt lgkmcnt(0)" : : "v"(addr), "v"(acc) : "memory");
        return acc + 1;
    } else if constexpr(K == kWriteB32) {
        asm volatile(CKTILE_STORE("b32") " %0, %1\n s_waitcnt lgkmcnt(0)" : : "v"(addr), "v"(acc) : "memory");
        return acc + 1;
    } else if constexpr(K == kWriteB64) {
        u32x2 v = {acc, acc};
        asm volatile(CKTILE_STORE("b64") " %0, %1\n s_waitcnt lgkmcnt(0)" : : "v"(addr), "v"(v) : "memory");
        return acc + 1;
    } else if constexpr(K == kWriteB96) {
        u32x3 v = {acc, acc, acc};
        asm volatile(CKTILE_STORE("b96") " %0, %1\n s_waitcnt lgkmcnt(0)" : : "v"(addr), "v"(v) : "memory");
        return acc + 1;
    } else if constexpr(K == kWriteB128) {
        u32x4 v = {acc, acc, acc, acc};
        asm volatile(CKTILE_STORE("b128") " %0, %1\n s_waitcnt lgkmcnt(0)" : : "v"(addr), "v"(v) : "memory");
        return acc + 1;
    } else {
        // gfx950's transposing reads: 8 bytes per lane, exchanged in groups of 16 lanes.
#if defined(__gfx950__)
        u32x2 v;
        if constexpr(K == kReadTrB4)
            asm volatile("ds_read_b64_tr_b4 %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
        else if constexpr(K == kReadTrB8)
            asm volatile("ds_read_b64_tr_b8 %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
        else
            asm volatile("ds_read_b64_tr_b16 %0, %1\n s_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
        return acc ^ v.x ^ v.y;
#else
        return acc;
#endif
    }
}

// Each lane whose address is not 0xffffffff issues `iterations` instructions.
template <int K>
__global__ void probe(const unsigned* addresses, unsigned* sink, int iterations)
{
    __shared__ unsigned char lds[kLdsBytes];
    const unsigned lane = threadIdx.x;
    const unsigned addr = addresses[lane];
    if(addr == 0xffffffffu)
        return;
    // The array's LDS byte offset: the low 32 bits of its flat address (the
    // shared aperture lies in the high bits); addresses are offsets from it.
    const unsigned base = static_cast<unsigned>(reinterpret_cast<uintptr_t>(lds));
    unsigned acc = lane;
    for(int i = 0; i < iterations; ++i)
        acc = issue<K>(base + addr, acc);
    sink[lane] = acc;
}

typedef void (*Launcher)(const unsigned*, unsigned*, int, int);

template <int K>
static void launch(const unsigned* addresses, unsigned* sink, int iterations, int wave)
{
    hipLaunchKernelGGL(probe<K>, dim3(1), dim3(wave), 0, 0, addresses, sink, iterations);
}

static const Launcher kLaunchers[kKinds] = {
    launch<kReadU8>,   launch<kReadU16>,  launch<kReadB32>,   launch<kReadB64>,  launch<kReadB96>,
    launch<kReadB128>, launch<kWriteB8>,  launch<kWriteB16>,  launch<kWriteB32>, launch<kWriteB64>,
    launch<kWriteB96>, launch<kWriteB128>, launch<kReadTrB4>, launch<kReadTrB8>, launch<kReadTrB16>,
};

static void check(hipError_t e, const char* what)
{
    if(e != hipSuccess) {
        std::fprintf(stderr, "lds_probe: %s: %s\n", what, hipGetErrorString(e));
        std::exit(1);
    }
}

int main()
{
    int device = 0;
    hipDeviceProp_t prop;
    check(hipGetDevice(&device), "hipGetDevice");
    check(hipGetDeviceProperties(&prop, device), "hipGetDeviceProperties");
    const int wave = prop.warpSize;
    unsigned* addresses = nullptr;
    unsigned* sink = nullptr;
    check(hipMalloc(&addresses, 64 * sizeof(unsigned)), "hipMalloc");
    check(hipMalloc(&sink, 64 * sizeof(unsigned)), "hipMalloc");
    std::vector<unsigned> host(64);
    char op[64];
    int iterations = 0;
    long dispatch = 0;
    while(std::scanf("%63s %d", op, &iterations) == 2) {
        int kind = -1;
        for(int k = 0; k < kKinds; ++k)
            if(std::strcmp(op, kOps[k]) == 0)
                kind = k;
        for(int t = 0; t < wave; ++t) {
            long a = 0;
            if(std::scanf("%ld", &a) != 1) {
                std::fprintf(stderr, "lds_probe: case %ld: expected %d addresses\n", dispatch, wave);
                return 1;
            }
            if(a >= static_cast<long>(kLdsBytes)) {
                std::fprintf(stderr, "lds_probe: case %ld: address %ld past the %u LDS bytes\n", dispatch, a,
                             kLdsBytes);
                return 1;
            }
            host[t] = a < 0 ? 0xffffffffu : static_cast<unsigned>(a);
        }
        if(kind < 0 || iterations <= 0) {
            std::fprintf(stderr, "lds_probe: case %ld: unknown instruction `%s` or no iterations\n", dispatch, op);
            return 1;
        }
        check(hipMemcpy(addresses, host.data(), 64 * sizeof(unsigned), hipMemcpyHostToDevice), "hipMemcpy");
        kLaunchers[kind](addresses, sink, iterations, wave);
        check(hipGetLastError(), "launch");
        check(hipDeviceSynchronize(), "hipDeviceSynchronize");
        std::printf("dispatch %ld %s\n", dispatch, op);
        ++dispatch;
    }
    check(hipFree(addresses), "hipFree");
    check(hipFree(sink), "hipFree");
    return 0;
}
