// cktile hardware-truth harness: replays cktile's shared-memory cases on an
// NVIDIA GPU so Nsight Compute can count their bank conflicts.
//
// Input: the case file `cktile gpu-cases` writes (see gpu/README.md). Each
// case is one warp issuing N instructions of one kind (ld.shared.b8..b128,
// st.shared.b8..b128, ldmatrix / stmatrix .x1/.x2/.x4 [.trans]); per
// instruction, per lane, a byte offset into shared memory ('-' = the lane
// does not take part).
//
// What each case's kernel does, and why Nsight Compute's per-kernel sums
// are exactly the case's totals:
//   * one kernel launch per case, one block of one warp (32 threads);
//   * one kernel per instruction kind (extern "C" cktile_<op>, e.g.
//     cktile_ld_shared_b128), whose only shared-memory instructions are the
//     N inline-PTX accesses of the case, issued in order, each exactly once
//     per warp (inactive lanes are predicated off inside the same
//     instruction, so the instruction count never depends on them);
//   * the lane addresses are loaded from global memory into registers
//     before the first shared access, and a branch on their XOR (never
//     taken; the host picks a key no lane produces) makes the warp wait for
//     every one of those loads first, so no global (L1) traffic overlaps the
//     measured accesses; the kernel writes nothing to global memory (the
//     loaded values feed a store behind `n < 0`, which never holds);
//   * shared memory is the dynamic allocation of the case's size, nothing
//     else: the kernel declares no static __shared__ data.
// So l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st} sums the
// wavefronts of exactly these N instructions, and
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st} their excess
// wavefronts (wavefronts beyond one per phase), which is what cktile
// predicts as conflicts.
//
// How one instruction counts (cktile's sm90 model, which the dry run below
// re-implements independently from the documented rules):
//   * 8/16/32-bit ld/st.shared: one phase of all 32 lanes;
//   * 64-bit: two phases (lanes 0-15, 16-31); 128-bit: four (0-7, ..., 24-31);
//   * ldmatrix / stmatrix .xM: M phases, phase j = matrix j = the eight
//     16-byte rows whose addresses lanes 8j..8j+7 give (an .x4 therefore
//     costs at least 4 wavefronts; lanes past 8M give no address); .trans
//     changes registers, not the shared-memory access;
//   * a phase costs max over the 32 4-byte banks of the distinct words that
//     bank serves (lanes touching the same word share it: broadcast for
//     loads, one write lands for stores); a phase with no active lane costs
//     nothing; ideal = phases with an active lane; conflicts = wavefronts -
//     ideal.
//
// Build: nvcc -std=c++17 -O2 -arch=sm_90 -o harness gpu/harness.cu (stmatrix
// needs sm_90). Dry run without a GPU: g++ -std=c++17 -O1 -DCKTILE_HOST_DRYRUN
// -x c++ gpu/harness.cu -o harness-dryrun; it parses and validates the same
// file, walks every address list with a host emulation of the model above,
// checks it against cktile's predictions, and can write a synthetic Nsight
// Compute CSV (--emit-ncu-csv FILE) for testing gpu/table.py.
//
// Usage: harness CASES.txt [--only ID] [--emit-ncu-csv FILE (dry run only)]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#ifndef CKTILE_HOST_DRYRUN
#include <cuda_runtime.h>
#endif

namespace {

constexpr int kWarp = 32;
constexpr int kMaxInstructions = 64;  // cktile::codegen::gpu_cases::MAX_INSTRUCTIONS
constexpr uint32_t kInactive = 0xFFFFFFFFu;

// The instruction kinds, one kernel each.
enum Kind : int {
  LD8, LD16, LD32, LD64, LD128,
  ST8, ST16, ST32, ST64, ST128,
  LDM1, LDM2, LDM4, LDM1T, LDM2T, LDM4T,
  STM1, STM2, STM4, STM1T, STM2T, STM4T,
  CP32, CP64, CP128,
  KIND_COUNT
};

struct OpInfo {
  const char* name;    // as cktile writes it
  const char* kernel;  // extern "C" kernel name (cktile::codegen::gpu_cases::kernel_name)
  Kind kind;
  int bytes;           // bytes per lane (ldmatrix: one 16-byte row per address lane)
  bool load;
  int matrices;        // ldmatrix / stmatrix: 1, 2 or 4; 0 otherwise
  bool async = false;  // cp.async: copies from global memory (the case's `g` lines)
};

const OpInfo kOps[KIND_COUNT] = {
    {"ld.shared.b8", "cktile_ld_shared_b8", LD8, 1, true, 0},
    {"ld.shared.b16", "cktile_ld_shared_b16", LD16, 2, true, 0},
    {"ld.shared.b32", "cktile_ld_shared_b32", LD32, 4, true, 0},
    {"ld.shared.b64", "cktile_ld_shared_b64", LD64, 8, true, 0},
    {"ld.shared.b128", "cktile_ld_shared_b128", LD128, 16, true, 0},
    {"st.shared.b8", "cktile_st_shared_b8", ST8, 1, false, 0},
    {"st.shared.b16", "cktile_st_shared_b16", ST16, 2, false, 0},
    {"st.shared.b32", "cktile_st_shared_b32", ST32, 4, false, 0},
    {"st.shared.b64", "cktile_st_shared_b64", ST64, 8, false, 0},
    {"st.shared.b128", "cktile_st_shared_b128", ST128, 16, false, 0},
    {"ldmatrix.x1", "cktile_ldmatrix_x1", LDM1, 16, true, 1},
    {"ldmatrix.x2", "cktile_ldmatrix_x2", LDM2, 16, true, 2},
    {"ldmatrix.x4", "cktile_ldmatrix_x4", LDM4, 16, true, 4},
    {"ldmatrix.x1.trans", "cktile_ldmatrix_x1_trans", LDM1T, 16, true, 1},
    {"ldmatrix.x2.trans", "cktile_ldmatrix_x2_trans", LDM2T, 16, true, 2},
    {"ldmatrix.x4.trans", "cktile_ldmatrix_x4_trans", LDM4T, 16, true, 4},
    {"stmatrix.x1", "cktile_stmatrix_x1", STM1, 16, false, 1},
    {"stmatrix.x2", "cktile_stmatrix_x2", STM2, 16, false, 2},
    {"stmatrix.x4", "cktile_stmatrix_x4", STM4, 16, false, 4},
    {"stmatrix.x1.trans", "cktile_stmatrix_x1_trans", STM1T, 16, false, 1},
    {"stmatrix.x2.trans", "cktile_stmatrix_x2_trans", STM2T, 16, false, 2},
    {"stmatrix.x4.trans", "cktile_stmatrix_x4_trans", STM4T, 16, false, 4},
    {"cp.async.b32", "cktile_cp_async_b32", CP32, 4, false, 0, true},
    {"cp.async.b64", "cktile_cp_async_b64", CP64, 8, false, 0, true},
    {"cp.async.b128", "cktile_cp_async_b128", CP128, 16, false, 0, true},
};

struct Case {
  int id = 0;
  const OpInfo* op = nullptr;
  int instructions = 0;
  uint32_t shared_bytes = 0;
  long long wavefronts = 0, ideal = 0, conflicts = 0;  // cktile's prediction (totals)
  std::string name;
  std::vector<uint32_t> addresses;  // instructions * 32, kInactive for a lane not taking part
  std::vector<uint32_t> sources;    // cp.async: the global offsets copied from (same shape); else empty
};

constexpr uint32_t kSourceBytes = 1u << 20;  // cp.async's global source buffer
constexpr uint32_t kSourceWord = 0x5a5a5a5au;  // every word of it (cudaMemset with 0x5a)

[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "harness: %s\n", message.c_str());
  std::exit(2);
}

const OpInfo* op_by_name(const std::string& name) {
  for (const OpInfo& op : kOps) {
    if (name == op.name) return &op;
  }
  return nullptr;
}

// Reads and checks the case file (format: cktile::codegen::gpu_cases::case_file).
std::vector<Case> read_cases(const char* path) {
  std::ifstream in(path);
  if (!in) die(std::string("cannot open ") + path);
  std::vector<Case> cases;
  std::string line;
  int line_no = 0;
  bool header = false, ended = false;
  long long declared = -1;
  auto bad = [&](const std::string& what) { die(std::string(path) + ":" + std::to_string(line_no) + ": " + what); };
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string tag;
    words >> tag;
    if (!header) {
      int version = 0;
      if (tag != "cktile-gpu-cases" || !(words >> version) || version != 2) bad("expected `cktile-gpu-cases 2`");
      header = true;
    } else if (tag == "cases") {
      if (!(words >> declared)) bad("expected `cases N`");
    } else if (tag == "case") {
      Case c;
      std::string op;
      if (!(words >> c.id >> op >> c.instructions >> c.shared_bytes >> c.wavefronts >> c.ideal >> c.conflicts >> c.name))
        bad("expected `case ID OP INSTRUCTIONS SHARED_BYTES WAVEFRONTS IDEAL CONFLICTS NAME`");
      c.op = op_by_name(op);
      if (!c.op) bad("unknown instruction `" + op + "`");
      if (c.instructions < 1 || c.instructions > kMaxInstructions)
        bad("a case issues 1 to " + std::to_string(kMaxInstructions) + " instructions");
      if (c.id != static_cast<int>(cases.size())) bad("case ids must count up from 0");
      cases.push_back(c);
    } else if (tag == "a" || tag == "g") {
      if (cases.empty()) bad("addresses before the first case");
      Case& c = cases.back();
      std::vector<uint32_t>& out = tag == "a" ? c.addresses : c.sources;
      if (tag == "g" && !c.op->async) bad("`g` lines (global sources) are for cp.async cases only");
      if (tag == "g" && c.sources.size() + kWarp != c.addresses.size()) bad("a `g` line must follow its `a` line");
      for (int lane = 0; lane < kWarp; ++lane) {
        std::string w;
        if (!(words >> w)) bad("expected 32 lane addresses");
        if (w == "-") {
          out.push_back(kInactive);
        } else {
          char* end = nullptr;
          unsigned long long a = std::strtoull(w.c_str(), &end, 10);
          if (*end != '\0' || a >= kInactive) bad("bad address `" + w + "`");
          out.push_back(static_cast<uint32_t>(a));
        }
      }
      std::string extra;
      if (words >> extra) bad("more than 32 lane addresses");
    } else if (tag == "end") {
      ended = true;
      break;
    } else {
      bad("unknown line `" + tag + "`");
    }
  }
  if (!header || !ended) die(std::string(path) + ": incomplete case file (no header or no `end`)");
  if (declared != static_cast<long long>(cases.size())) die(std::string(path) + ": `cases` does not match the cases given");
  for (const Case& c : cases) {
    if (c.addresses.size() != static_cast<size_t>(c.instructions) * kWarp)
      die("case " + std::to_string(c.id) + ": expected " + std::to_string(c.instructions) + " address lines");
    if (c.op->async && c.sources.size() != c.addresses.size())
      die("case " + std::to_string(c.id) + ": cp.async needs a `g` line after every `a` line");
    for (int i = 0; i < c.instructions; ++i) {
      bool any = false;
      for (int lane = 0; lane < kWarp; ++lane) {
        uint32_t a = c.addresses[i * kWarp + lane];
        if (a == kInactive) continue;
        any = true;
        if (c.op->matrices && lane >= 8 * c.op->matrices)
          die("case " + std::to_string(c.id) + ": lane " + std::to_string(lane) + " gives no ldmatrix/stmatrix address");
        if (a % static_cast<uint32_t>(c.op->bytes) != 0)
          die("case " + std::to_string(c.id) + ": misaligned address " + std::to_string(a));
        if (static_cast<uint64_t>(a) + c.op->bytes > c.shared_bytes)
          die("case " + std::to_string(c.id) + ": address " + std::to_string(a) + " outside the shared allocation");
        if (c.op->async) {
          const uint32_t g = c.sources[i * kWarp + lane];
          if (g == kInactive || g % static_cast<uint32_t>(c.op->bytes) != 0 ||
              static_cast<uint64_t>(g) + c.op->bytes > kSourceBytes)
            die("case " + std::to_string(c.id) + ": bad global source for lane " + std::to_string(lane));
        }
      }
      if (!any) die("case " + std::to_string(c.id) + ": instruction " + std::to_string(i) + " has no active lane");
    }
  }
  return cases;
}

// What the kernel's address registers XOR to per lane (inactive and unused
// slots hold kInactive; cp.async adds each source offset and the source
// word read at it), and a key none of them equals.
uint32_t never_key(const Case& c) {
  std::set<uint32_t> seen;
  for (int lane = 0; lane < kWarp; ++lane) {
    uint32_t x = 0;
    for (int i = 0; i < kMaxInstructions; ++i) x ^= i < c.instructions ? c.addresses[i * kWarp + lane] : kInactive;
    for (int i = 0; c.op->async && i < c.instructions; ++i) x ^= c.sources[i * kWarp + lane] ^ kSourceWord;
    seen.insert(x);
  }
  uint32_t key = 0x9E3779B9u;
  while (seen.count(key)) ++key;
  return key;
}

}  // namespace

#ifndef CKTILE_HOST_DRYRUN
// ---------------------------------------------------------------- device ---

namespace {

#define CKTILE_CHECK(call)                                                                 \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) die(std::string(#call) + ": " + cudaGetErrorString(err_));    \
  } while (0)

// One instruction of kind K at shared address `base + raw` (raw == kInactive:
// the lane does not take part; for ld/st it is predicated off, for
// ldmatrix/stmatrix, whose lanes past 8M give no address, it points at base).
template <int K>
__device__ __forceinline__ void access(uint32_t raw, uint32_t base, const unsigned char* from, uint32_t (&r)[4]) {
  const uint32_t addr = base + (raw == kInactive ? 0u : raw);
#define CKTILE_PRED "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %4, %5;\n\t"
  if constexpr (K == LD8) {
    asm volatile(CKTILE_PRED "@p ld.shared.u8 %0, [%6];\n\t}" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(raw), "r"(kInactive), "r"(addr) : "memory");
  } else if constexpr (K == LD16) {
    asm volatile(CKTILE_PRED "@p ld.shared.u16 %0, [%6];\n\t}" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(raw), "r"(kInactive), "r"(addr) : "memory");
  } else if constexpr (K == LD32) {
    asm volatile(CKTILE_PRED "@p ld.shared.u32 %0, [%6];\n\t}" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(raw), "r"(kInactive), "r"(addr) : "memory");
  } else if constexpr (K == LD64) {
    asm volatile(CKTILE_PRED "@p ld.shared.v2.u32 {%0, %1}, [%6];\n\t}" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(raw), "r"(kInactive), "r"(addr) : "memory");
  } else if constexpr (K == LD128) {
    asm volatile(CKTILE_PRED "@p ld.shared.v4.u32 {%0, %1, %2, %3}, [%6];\n\t}" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(raw), "r"(kInactive), "r"(addr) : "memory");
  } else if constexpr (K == ST8) {
    asm volatile(CKTILE_PRED "@p st.shared.u8 [%6], %0;\n\t}" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(raw), "r"(kInactive), "r"(addr) : "memory");
  } else if constexpr (K == ST16) {
    asm volatile(CKTILE_PRED "@p st.shared.u16 [%6], %0;\n\t}" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(raw), "r"(kInactive), "r"(addr) : "memory");
  } else if constexpr (K == ST32) {
    asm volatile(CKTILE_PRED "@p st.shared.u32 [%6], %0;\n\t}" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(raw), "r"(kInactive), "r"(addr) : "memory");
  } else if constexpr (K == ST64) {
    asm volatile(CKTILE_PRED "@p st.shared.v2.u32 [%6], {%0, %1};\n\t}" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(raw), "r"(kInactive), "r"(addr) : "memory");
  } else if constexpr (K == ST128) {
    asm volatile(CKTILE_PRED "@p st.shared.v4.u32 [%6], {%0, %1, %2, %3};\n\t}" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(raw), "r"(kInactive), "r"(addr) : "memory");
  } else if constexpr (K == LDM1) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "+r"(r[0]) : "r"(addr) : "memory");
  } else if constexpr (K == LDM2) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "+r"(r[0]), "+r"(r[1]) : "r"(addr) : "memory");
  } else if constexpr (K == LDM4) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(addr) : "memory");
  } else if constexpr (K == LDM1T) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "+r"(r[0]) : "r"(addr) : "memory");
  } else if constexpr (K == LDM2T) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "+r"(r[0]), "+r"(r[1]) : "r"(addr) : "memory");
  } else if constexpr (K == LDM4T) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];" : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(addr) : "memory");
  } else if constexpr (K == STM1) {
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(addr), "r"(r[0]) : "memory");
  } else if constexpr (K == STM2) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(addr), "r"(r[0]), "r"(r[1]) : "memory");
  } else if constexpr (K == STM4) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" :: "r"(addr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
  } else if constexpr (K == STM1T) {
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(addr), "r"(r[0]) : "memory");
  } else if constexpr (K == STM2T) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" :: "r"(addr), "r"(r[0]), "r"(r[1]) : "memory");
  } else if constexpr (K == STM4T) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" :: "r"(addr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
  } else if constexpr (K == CP32) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, %1;\n\t@p cp.async.ca.shared.global [%2], [%3], 4;\n\t}" :: "r"(raw), "r"(kInactive), "r"(addr), "l"(from) : "memory");
  } else if constexpr (K == CP64) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, %1;\n\t@p cp.async.ca.shared.global [%2], [%3], 8;\n\t}" :: "r"(raw), "r"(kInactive), "r"(addr), "l"(from) : "memory");
  } else if constexpr (K == CP128) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, %1;\n\t@p cp.async.ca.shared.global [%2], [%3], 16;\n\t}" :: "r"(raw), "r"(kInactive), "r"(addr), "l"(from) : "memory");
  }
#undef CKTILE_PRED
}

template <int K>
__device__ __forceinline__ void run_case(const uint32_t* __restrict__ addresses, int n, uint32_t key,
                                         const uint32_t* __restrict__ sources, const unsigned char* __restrict__ src,
                                         uint32_t* __restrict__ sink) {
  constexpr bool kAsync = K == CP32 || K == CP64 || K == CP128;
  extern __shared__ __align__(16) unsigned char cktile_smem[];
  const uint32_t lane = threadIdx.x % kWarp;
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(cktile_smem));
  // Every address into registers first (global loads)...
  uint32_t a[kMaxInstructions];
#pragma unroll
  for (int i = 0; i < kMaxInstructions; ++i) a[i] = i < n ? addresses[i * kWarp + lane] : kInactive;
  // ...and wait for all of them: the branch needs their XOR (never equal to key).
  uint32_t all = 0;
#pragma unroll
  for (int i = 0; i < kMaxInstructions; ++i) all ^= a[i];
  // cp.async: its global sources too, and one word of each source sector
  // read through L1 first (ld.global.ca), so the copies hit L1 and their
  // data is there at once instead of arriving from L2 in pieces.
  uint32_t g[kAsync ? kMaxInstructions : 1];
  if constexpr (kAsync) {
#pragma unroll
    for (int i = 0; i < kMaxInstructions; ++i) g[i] = i < n ? sources[i * kWarp + lane] : kInactive;
#pragma unroll
    for (int i = 0; i < kMaxInstructions; ++i) {
      if (i < n && g[i] != kInactive) {
        uint32_t v;
        asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(src + g[i]) : "memory");
        all ^= v ^ g[i];
      }
    }
  }
  if (all == key) return;
  uint32_t r[4] = {lane, lane ^ 1u, lane ^ 2u, lane ^ 3u};
  uint32_t acc = 0;
  // The measured accesses: exactly n instructions of kind K, in order.
#pragma unroll
  for (int i = 0; i < kMaxInstructions; ++i) {
    if (i < n) {
      access<K>(a[i], base, kAsync ? src + (g[kAsync ? i : 0] == kInactive ? 0u : g[kAsync ? i : 0]) : src, r);
      acc ^= r[0] ^ r[1] ^ r[2] ^ r[3];
    }
  }
  if constexpr (kAsync) asm volatile("cp.async.wait_all;" ::: "memory");
  if (n < 0) sink[lane] = acc;  // never: keeps loaded values live without global traffic
}

#define CKTILE_KERNEL(NAME, K)                                                                       \
  extern "C" __global__ void __launch_bounds__(32)                                                  \
      NAME(const uint32_t* __restrict__ addresses, int n, uint32_t key,                               \
           const uint32_t* __restrict__ sources, const unsigned char* __restrict__ src,                \
           uint32_t* __restrict__ sink) {                                                             \
    run_case<K>(addresses, n, key, sources, src, sink);                                              \
  }

}  // namespace

CKTILE_KERNEL(cktile_ld_shared_b8, LD8)
CKTILE_KERNEL(cktile_ld_shared_b16, LD16)
CKTILE_KERNEL(cktile_ld_shared_b32, LD32)
CKTILE_KERNEL(cktile_ld_shared_b64, LD64)
CKTILE_KERNEL(cktile_ld_shared_b128, LD128)
CKTILE_KERNEL(cktile_st_shared_b8, ST8)
CKTILE_KERNEL(cktile_st_shared_b16, ST16)
CKTILE_KERNEL(cktile_st_shared_b32, ST32)
CKTILE_KERNEL(cktile_st_shared_b64, ST64)
CKTILE_KERNEL(cktile_st_shared_b128, ST128)
CKTILE_KERNEL(cktile_ldmatrix_x1, LDM1)
CKTILE_KERNEL(cktile_ldmatrix_x2, LDM2)
CKTILE_KERNEL(cktile_ldmatrix_x4, LDM4)
CKTILE_KERNEL(cktile_ldmatrix_x1_trans, LDM1T)
CKTILE_KERNEL(cktile_ldmatrix_x2_trans, LDM2T)
CKTILE_KERNEL(cktile_ldmatrix_x4_trans, LDM4T)
CKTILE_KERNEL(cktile_stmatrix_x1, STM1)
CKTILE_KERNEL(cktile_stmatrix_x2, STM2)
CKTILE_KERNEL(cktile_stmatrix_x4, STM4)
CKTILE_KERNEL(cktile_stmatrix_x1_trans, STM1T)
CKTILE_KERNEL(cktile_stmatrix_x2_trans, STM2T)
CKTILE_KERNEL(cktile_stmatrix_x4_trans, STM4T)
CKTILE_KERNEL(cktile_cp_async_b32, CP32)
CKTILE_KERNEL(cktile_cp_async_b64, CP64)
CKTILE_KERNEL(cktile_cp_async_b128, CP128)

namespace {

using KernelFn = void (*)(const uint32_t*, int, uint32_t, const uint32_t*, const unsigned char*, uint32_t*);

// Indexed by Kind, in kOps order.
const KernelFn kKernels[KIND_COUNT] = {
    cktile_ld_shared_b8, cktile_ld_shared_b16, cktile_ld_shared_b32, cktile_ld_shared_b64, cktile_ld_shared_b128,
    cktile_st_shared_b8, cktile_st_shared_b16, cktile_st_shared_b32, cktile_st_shared_b64, cktile_st_shared_b128,
    cktile_ldmatrix_x1, cktile_ldmatrix_x2, cktile_ldmatrix_x4,
    cktile_ldmatrix_x1_trans, cktile_ldmatrix_x2_trans, cktile_ldmatrix_x4_trans,
    cktile_stmatrix_x1, cktile_stmatrix_x2, cktile_stmatrix_x4,
    cktile_stmatrix_x1_trans, cktile_stmatrix_x2_trans, cktile_stmatrix_x4_trans,
    cktile_cp_async_b32, cktile_cp_async_b64, cktile_cp_async_b128,
};

void run_on_gpu(const std::vector<Case>& cases, int only) {
  int device = 0;
  cudaDeviceProp prop{};
  CKTILE_CHECK(cudaGetDevice(&device));
  CKTILE_CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("device %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  if (prop.major < 9) die("stmatrix and the sm90 model need compute capability 9.0 or later");
  uint32_t* d_addresses = nullptr;
  uint32_t* d_sink = nullptr;
  CKTILE_CHECK(cudaMalloc(&d_addresses, sizeof(uint32_t) * kMaxInstructions * kWarp));
  CKTILE_CHECK(cudaMalloc(&d_sink, sizeof(uint32_t) * kWarp));
  // cp.async's global source buffer, and its per-lane offsets.
  unsigned char* d_src = nullptr;
  uint32_t* d_sources = nullptr;
  CKTILE_CHECK(cudaMalloc(&d_src, kSourceBytes));
  CKTILE_CHECK(cudaMemset(d_src, kSourceWord & 0xff, kSourceBytes));
  CKTILE_CHECK(cudaMalloc(&d_sources, sizeof(uint32_t) * kMaxInstructions * kWarp));
  for (const KernelFn k : kKernels) {
    CKTILE_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(k), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(prop.sharedMemPerBlockOptin)));
  }
  for (const Case& c : cases) {
    if (only >= 0 && c.id != only) continue;
    if (c.shared_bytes > prop.sharedMemPerBlockOptin) die("case " + std::to_string(c.id) + ": too much shared memory");
    CKTILE_CHECK(cudaMemcpy(d_addresses, c.addresses.data(), sizeof(uint32_t) * c.addresses.size(),
                            cudaMemcpyHostToDevice));
    if (c.op->async)
      CKTILE_CHECK(cudaMemcpy(d_sources, c.sources.data(), sizeof(uint32_t) * c.sources.size(),
                              cudaMemcpyHostToDevice));
    kKernels[c.op->kind]<<<1, kWarp, c.shared_bytes>>>(d_addresses, c.instructions, never_key(c), d_sources, d_src, d_sink);
    CKTILE_CHECK(cudaGetLastError());
    CKTILE_CHECK(cudaDeviceSynchronize());
    std::printf("launched case %d %s instructions=%d shared_bytes=%u predicted wavefronts=%lld conflicts=%lld %s\n",
                c.id, c.op->kernel, c.instructions, c.shared_bytes, c.wavefronts, c.conflicts, c.name.c_str());
  }
  CKTILE_CHECK(cudaFree(d_addresses));
  CKTILE_CHECK(cudaFree(d_sink));
  CKTILE_CHECK(cudaFree(d_src));
  CKTILE_CHECK(cudaFree(d_sources));
}

}  // namespace

#else
// ------------------------------------------------------------ host dry run ---

namespace {

struct Emulated {
  long long wavefronts = 0, ideal = 0;
};

// The documented model (see the top of the file), written independently of
// cktile's Rust analyzer: phases of lanes, distinct 4-byte words per bank.
Emulated emulate(const Case& c) {
  Emulated e;
  const int bytes = c.op->bytes;
  int phases = 1, per_phase = kWarp;
  if (c.op->matrices) {
    phases = c.op->matrices;
    per_phase = 8;
  } else if (bytes == 16) {
    phases = 4;
    per_phase = 8;
  } else if (bytes == 8) {
    phases = 2;
    per_phase = 16;
  }
  // The most 4-byte words one bank serves in a phase. `distinct`: lanes
  // touching one word share it (every instruction but cp.async, whose
  // lanes each write their own copy).
  auto busiest = [&](const std::vector<uint32_t>& lanes, int i, int p, bool distinct) {
    std::multiset<uint32_t> words;
    for (int lane = p * per_phase; lane < (p + 1) * per_phase; ++lane) {
      const uint32_t a = lanes[i * kWarp + lane];
      if (a == kInactive) continue;
      for (uint32_t w = a / 4; w <= (a + bytes - 1) / 4; ++w) {
        if (!distinct || !words.count(w)) words.insert(w);
      }
    }
    int per_bank[32] = {0};
    int ways = 0;
    for (uint32_t w : words) ways = std::max(ways, ++per_bank[w % 32]);
    return ways;
  };
  for (int i = 0; i < c.instructions; ++i) {
    for (int p = 0; p < phases; ++p) {
      int ways = busiest(c.addresses, i, p, !c.op->async);
      // cp.async also reads its source from L1's banks: the phase costs the more.
      if (c.op->async) ways = std::max(ways, busiest(c.sources, i, p, true));
      if (ways == 0) continue;  // an idle phase costs nothing
      e.wavefronts += ways;
      e.ideal += 1;
    }
  }
  return e;
}

// A synthetic Nsight Compute CSV (its default "details" layout, one row per
// metric) with the emulated counts, filed as an H100 files them: ld.shared
// and ldmatrix under op_ld, st.shared and stmatrix under op_st, cp.async's
// conflicts under op_ldgsts; the totals, with one op_misc wavefront.
void write_csv_row(std::FILE* f, int launch, const Case& c, const char* metric, long long value) {
  std::fprintf(f,
               "\"%d\",\"4242\",\"harness\",\"localhost\",\"%s\",\"1\",\"7\",\"(32, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\","
               "\"Command line profiler metrics\",\"%s\",\"\",\"%lld\"\n",
               launch, c.op->kernel, metric, value);
}

void run_dry(const std::vector<Case>& cases, int only, const char* csv_path) {
  std::FILE* csv = nullptr;
  if (csv_path) {
    csv = std::fopen(csv_path, "w");
    if (!csv) die(std::string("cannot write ") + csv_path);
    std::fprintf(csv, "==PROF== Connected to process 4242 (synthetic: harness dry run)\n");
    std::fprintf(csv,
                 "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
                 "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\","
                 "\"Metric Value\"\n");
  }
  int mismatches = 0, launch = 0;
  for (const Case& c : cases) {
    if (only >= 0 && c.id != only) continue;
    const Emulated e = emulate(c);
    const long long conflicts = e.wavefronts - e.ideal;
    const bool agree = e.wavefronts == c.wavefronts && e.ideal == c.ideal && conflicts == c.conflicts;
    if (!agree) ++mismatches;
    std::printf("dry-run case %d %s instructions=%d wavefronts=%lld ideal=%lld conflicts=%lld (cktile: %lld %lld %lld) %s %s\n",
                c.id, c.op->kernel, c.instructions, e.wavefronts, e.ideal, conflicts, c.wavefronts, c.ideal,
                c.conflicts, agree ? "ok" : "MISMATCH", c.name.c_str());
    if (csv) {
      const long long ld_wf = c.op->load ? e.wavefronts : 0, ld_bc = c.op->load ? conflicts : 0;
      const long long st_wf = c.op->load || c.op->async ? 0 : e.wavefronts;
      const long long st_bc = c.op->load || c.op->async ? 0 : conflicts;
      const char* kW = "l1tex__data_pipe_lsu_wavefronts_mem_shared";
      const char* kB = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared";
      const std::pair<std::string, long long> rows[] = {
          {std::string(kB) + "_op_ld.sum", ld_bc},
          {std::string(kB) + "_op_st.sum", st_bc},
          {std::string(kB) + "_op_ldgsts.sum", c.op->async ? conflicts : 0},
          {std::string(kB) + ".sum", conflicts},
          {std::string(kW) + "_op_ld.sum", ld_wf},
          {std::string(kW) + "_op_st.sum", st_wf},
          {std::string(kW) + "_op_misc.sum", 1},
          {std::string(kW) + ".sum", e.wavefronts + 1},
      };
      for (const auto& [metric, value] : rows) write_csv_row(csv, launch, c, metric.c_str(), value);
    }
    ++launch;
    (void)never_key(c);  // exercised here too, so the dry run covers the host code the GPU path runs
  }
  if (csv) std::fclose(csv);
  std::printf("dry run: %d case(s), %d disagreement(s) between the host emulation and cktile's predictions\n", launch,
              mismatches);
  if (mismatches) std::exit(1);
}

}  // namespace

#endif

int main(int argc, char** argv) {
  if (argc < 2) die("usage: harness CASES.txt [--only ID] [--emit-ncu-csv FILE (dry run)]");
  int only = -1;
  const char* csv = nullptr;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
      only = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--emit-ncu-csv") && i + 1 < argc) {
      csv = argv[++i];
    } else {
      die(std::string("unknown argument `") + argv[i] + "`");
    }
  }
  const std::vector<Case> cases = read_cases(argv[1]);
  std::printf("%zu cases from %s\n", cases.size(), argv[1]);
#ifndef CKTILE_HOST_DRYRUN
  if (csv) die("--emit-ncu-csv is for the dry run (-DCKTILE_HOST_DRYRUN)");
  run_on_gpu(cases, only);
#else
  run_dry(cases, only, csv);
#endif
  return 0;
}
