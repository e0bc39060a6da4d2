// Issue 37's remaining misses: what limits each, measured in one program beside CUB and the lab's own kernels
// (main's PTX, loaded through the driver API), so that no ratio crosses two processes.
//
//   4,096 floats     CUB's default sum takes one block there. `tile_plain` is that shape in plain floats (one block
//                    of 256, four 128-bit loads a thread, a warp butterfly, one barrier, a store); `tile_checked`
//                    the same loads with the lab's exact-sum arithmetic (every float added in f64, each addition
//                    checked by s - a == b and s - b == a, the checked butterflies, one barrier, one rounding).
//                    tile_plain / CUB is the harness's floor for one block; tile_checked / tile_plain is what
//                    exactness costs a block; the lab's small entry / tile_checked what the lab's entry adds.
//   16,384 - 65,536  A deterministic sum must meet every block's part in one place before it stores. Plain-float
//                    kernels with the same loads, differing only in the meeting: `chunk_red` (a block per 8,192
//                    floats, one red.global.add.f32 each, no meeting: the floor of the deterministic sum's layout;
//                    also run up to 2^24, as the lab's deterministic sum gives each block a chunk until its grid
//                    fills the device),
//                    `chunk_handoff` (the lab's route: start ticket, 64-bit slots in L2, the last block gathers),
//                    `chunk_push` (a cluster of the same blocks, st.async into rank 0's shared memory, an mbarrier),
//                    and `spread_red` / `spread_push` (one quad a thread over 16 blocks, no cluster / a cluster
//                    of 16 meeting by st.async). Each over the fastest of the lab's non-deterministic sums is the
//                    least a deterministic sum of that design could cost, before its fixed-order arithmetic.
//   the ladder       Every size of the bench ladder (4,096 to 2^31) and 32,768 and 131,072: the lab's sums on the
//                    host's routes (the correctly rounded sum's cluster route from the Hopper module at 16,384 to
//                    131,072) and CUB's default in one process, over rounds.
//
// Every kernel's first result is checked against the exact sum of bench's sparse input before any timing (up to
// 2^28 every order sums it exactly in float; past that only the correctly rounded sum's result is checked); a
// mismatch stops the program.
// Timing as `host bench`: a 50 us `hold` before the start event, `evict_l2` over twice the L2 before every launch
// when cold; 10 timed launches after 3, the median; rounds interleave every kernel.
//
// Build on the GPU machine: nvcc -O3 -arch=sm_90 -o limits limits.cu -lcuda
// Run: limits target/ptx/kernels.ptx target/ptx/kernels-sm90.ptx ROUNDS each|queued
#include <cuda.h>
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorString(r_, &s_); \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit(1); } } while (0)
#define CR(x) do { cudaError_t r_ = (x); if (r_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(r_)); exit(1); } } while (0)

constexpr unsigned CHUNK = 8192;  // layout::sum::deterministic::CHUNK
constexpr unsigned MAX_CHUNKS = 8;
constexpr unsigned SPREAD = 16;
constexpr unsigned long long FULL = 1ull << 32;

struct Handoff { unsigned ticket; unsigned pad; unsigned long long slots[MAX_CHUNKS]; };

__device__ __forceinline__ float warp_sum(float v) {
  for (int m = 16; m > 0; m /= 2) v += __shfl_xor_sync(0xffffffffu, v, m);
  return v;
}
// The block's sum, in every thread of warp 0 (one barrier).
__device__ __forceinline__ float block_sum(float acc, float* warps) {
  const unsigned tid = threadIdx.x;
  acc = warp_sum(acc);
  if (tid % 32 == 0) warps[tid / 32] = acc;
  __syncthreads();
  float s = tid < blockDim.x / 32 ? warps[tid] : 0.0f;
  return tid < 32 ? warp_sum(s) : 0.0f;
}
__device__ __forceinline__ float4 quad(const float* in, size_t quads, size_t q) {
  return q < quads ? __ldg(reinterpret_cast<const float4*>(in) + q) : make_float4(0.f, 0.f, 0.f, 0.f);
}

// ---- 4,096: one block, four quads a thread, strided by the block (coalesced), all loaded before any add.
extern "C" __global__ void __launch_bounds__(256) tile_plain(const float* in, float* total, size_t n) {
  __shared__ float warps[32];
  const size_t quads = n / 4;
  float4 v[4];
#pragma unroll
  for (int k = 0; k < 4; k++) v[k] = quad(in, quads, threadIdx.x + k * blockDim.x);
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < 4; k++) acc += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  float s = block_sum(acc, warps);
  if (threadIdx.x == 0) *total = s;
}

__device__ __forceinline__ double checked_add(double a, double b, bool& exact) {
  double s = __dadd_rn(a, b);
  exact &= (__dsub_rn(s, a) == b) & (__dsub_rn(s, b) == a);
  return s;
}
__device__ __forceinline__ double checked_quad(float4 v, bool& exact) {
  double a = checked_add(double(v.x), double(v.y), exact), b = checked_add(double(v.z), double(v.w), exact);
  return checked_add(a, b, exact);
}
__device__ __forceinline__ double checked_butterfly(double v, bool& exact) {
  for (int m = 16; m > 0; m /= 2) v = checked_add(v, __shfl_xor_sync(0xffffffffu, v, m), exact);
  return v;
}
// The lab's straight path (kernels/src/sum/correctly_rounded/straight.rs) in CUDA C++, without its way out: a NaN
// where an addition was not exact.
extern "C" __global__ void __launch_bounds__(256) tile_checked(const float* in, float* total, size_t n) {
  __shared__ double warps[32];
  const unsigned tid = threadIdx.x, lane = tid % 32;
  const size_t quads = n / 4;
  float4 v[4];
#pragma unroll
  for (int k = 0; k < 4; k++) v[k] = quad(in, quads, tid + k * blockDim.x);
  bool exact = true;
  double sum = checked_quad(v[0], exact);
#pragma unroll
  for (int k = 1; k < 4; k++) sum = checked_add(sum, checked_quad(v[k], exact), exact);
  sum = checked_butterfly(sum, exact);
  if (lane == 0) warps[tid / 32] = sum;
  if (__syncthreads_or(!exact)) { if (tid == 0) *total = __int_as_float(0x7fc00000); return; }
  double s = lane < blockDim.x / 32 ? warps[lane] : 0.0;
  bool lane_exact = true;
  s = checked_butterfly(s, lane_exact);
  if (__any_sync(0xffffffffu, !lane_exact)) { if (tid == 0) *total = __int_as_float(0x7fc00000); return; }
  if (tid == 0) *total = __double2float_rn(s + 0.0);
}

// ---- 16,384 to 65,536: a block of 256 per chunk of 8,192 floats, eight quads a thread loaded together.
__device__ __forceinline__ float chunk_thread_sum(const float* in, size_t n, unsigned chunk) {
  const size_t quads = n / 4, first = size_t(chunk) * (CHUNK / 4) + threadIdx.x;
  float4 v[8];
#pragma unroll
  for (int k = 0; k < 8; k++) v[k] = quad(in, quads, first + k * 256);
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; k++) acc += (v[k].x + v[k].y) + (v[k].z + v[k].w);
  return acc;
}
extern "C" __global__ void __launch_bounds__(256) chunk_red(const float* in, float* total, size_t n, Handoff*) {
  __shared__ float warps[8];
  float s = block_sum(chunk_thread_sum(in, n, blockIdx.x), warps);
  if (threadIdx.x == 0) atomicAdd(total, s);
}
__device__ __forceinline__ unsigned long long ld_relaxed(const unsigned long long* p) {
  unsigned long long v; asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ void st_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}
// The lab's handoff route (sum_deterministic_few) with plain floats.
extern "C" __global__ void __launch_bounds__(256) chunk_handoff(const float* in, float* total, size_t n, Handoff* h) {
  __shared__ float warps[8];
  __shared__ unsigned last;
  unsigned started = 0;
  if (threadIdx.x == 0) started = atomicInc(&h->ticket, gridDim.x - 1);
  float s = block_sum(chunk_thread_sum(in, n, blockIdx.x), warps);
  if (threadIdx.x == 0) last = started == gridDim.x - 1;
  __syncthreads();
  if (threadIdx.x >= 32) return;
  const unsigned lane = threadIdx.x;
  if (!last) {
    if (lane == 0) st_relaxed(&h->slots[blockIdx.x], FULL | __float_as_uint(s));
    return;
  }
  float v = 0.0f;
  if (lane < gridDim.x && lane != blockIdx.x) {
    unsigned long long w;
    do { w = ld_relaxed(&h->slots[lane]); } while (!(w & FULL));
    st_relaxed(&h->slots[lane], 0);
    v = __uint_as_float(unsigned(w));
  } else if (lane == blockIdx.x) {
    v = s;
  }
  v = warp_sum(v);
  if (lane == 0) *total = v;
}

// ---- cluster and mbarrier primitives (PTX ISA 8.0+, sm_90), as ../dsmem/dsmem.cu.
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r;
}
__device__ __forceinline__ uint32_t smem(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ uint32_t mapa(uint32_t local, unsigned rank) {
  uint32_t r; asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(local), "r"(rank)); return r;
}
__device__ __forceinline__ void cluster_arrive_relaxed() { asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.aligned;" ::: "memory"); }
__device__ __forceinline__ void bar_init(uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem(bar)), "r"(count) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void bar_expect(uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bar_wait(uint64_t* bar) {
  uint32_t done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void push(float* local_slot, uint64_t* local_bar, float v) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
               :: "r"(mapa(smem(local_slot), 0)), "r"(__float_as_uint(v)), "r"(mapa(smem(local_bar), 0)) : "memory");
}
// Rank 0 waits for `blocks` floats, then adds them in warp 0.
__device__ __forceinline__ void push_and_meet(float s, float* sums, uint64_t* bar, unsigned blocks, float* total) {
  const unsigned rank = cluster_rank();
  cluster_wait();  // rank 0's barrier is initialised
  if (threadIdx.x == 0) push(&sums[rank], bar, s);
  if (rank != 0 || threadIdx.x >= 32) return;
  if (threadIdx.x == 0) bar_expect(bar, 4 * blocks);
  bar_wait(bar);
  float v = warp_sum(threadIdx.x < blocks ? sums[threadIdx.x] : 0.0f);
  if (threadIdx.x == 0) *total = v;
}
extern "C" __global__ void __launch_bounds__(256) chunk_push(const float* in, float* total, size_t n, Handoff*) {
  __shared__ float warps[8];
  __shared__ float sums[32];
  __shared__ __align__(8) uint64_t bar;
  if (cluster_rank() == 0 && threadIdx.x == 0) bar_init(&bar, 1);
  cluster_arrive_relaxed();
  float s = block_sum(chunk_thread_sum(in, n, blockIdx.x), warps);
  push_and_meet(s, sums, &bar, gridDim.x, total);
}
// 16 blocks of n / 64 threads: one quad a thread.
__device__ __forceinline__ float spread_thread(const float* in, size_t n) {
  float4 v = quad(in, n / 4, size_t(blockIdx.x) * blockDim.x + threadIdx.x);
  return (v.x + v.y) + (v.z + v.w);
}
extern "C" __global__ void __launch_bounds__(1024) spread_red(const float* in, float* total, size_t n, Handoff*) {
  __shared__ float warps[32];
  float s = block_sum(spread_thread(in, n), warps);
  if (threadIdx.x == 0) atomicAdd(total, s);
}
extern "C" __global__ void __launch_bounds__(1024) spread_push(const float* in, float* total, size_t n, Handoff*) {
  __shared__ float warps[32];
  __shared__ float sums[32];
  __shared__ __align__(8) uint64_t bar;
  if (cluster_rank() == 0 && threadIdx.x == 0) bar_init(&bar, 1);
  cluster_arrive_relaxed();
  float s = block_sum(spread_thread(in, n), warps);
  push_and_meet(s, sums, &bar, gridDim.x, total);
}

extern "C" __global__ void empty_kernel() {}

// ---- host
static std::string slurp(const char* path) {
  FILE* f = fopen(path, "rb"); if (!f) { perror(path); exit(1); }
  std::string s; char buf[1 << 16]; size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, k);
  fclose(f); return s;
}

static void launch_runtime(const void* f, unsigned grid, unsigned cluster, unsigned block, void** args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(grid); cfg.blockDim = dim3(block); cfg.stream = 0;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster; attr[0].val.clusterDim.y = 1; attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr; cfg.numAttrs = cluster > 0 ? 1 : 0;
  CR(cudaLaunchKernelExC(&cfg, f, args));
}

struct Lab {
  CUfunction shuffle, tree, bandwidth, det, det_few, cr, cr_small, cr_cluster, hold, evict;
  int sms;
  CUdeviceptr det_handoff, det_partials, cr_acc, handoff, evict_buf, sink;
  size_t evict_quads;
  void* cub_temp; size_t cub_bytes;
};

static size_t div_ceil(size_t a, size_t b) { return (a + b - 1) / b; }
static unsigned resident(Lab& lab, CUfunction f, unsigned block, size_t shared) {
  int per_sm; CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, int(block), shared));
  return unsigned(per_sm) * unsigned(lab.sms);
}

enum Kind { EMPTY, CUB, SHUFFLE, TREE, BANDWIDTH, DET, CR_LAB, TILE_PLAIN, TILE_CHECKED, CHUNK_RED, CHUNK_HANDOFF,
            CHUNK_PUSH, SPREAD_RED, SPREAD_PUSH, KINDS };
static const char* NAMES[KINDS] = {"empty", "CUB default", "lab warp shuffle", "lab tree", "lab bandwidth",
                                   "lab deterministic", "lab correctly rounded", "tile_plain", "tile_checked",
                                   "chunk_red", "chunk_handoff", "chunk_push", "spread_red", "spread_push"};

// Whether `kind` runs at `n`: the tiles at 4,096, the meetings at 2 to 8 chunks, the lab's fastest-candidates,
// CUB and the exact sums everywhere.
static bool runs(int kind, size_t n) {
  switch (kind) {
    case TILE_PLAIN: case TILE_CHECKED: return n <= 4096;
    case CHUNK_RED: return n > CHUNK && n <= (size_t(1) << 24);
    case CHUNK_HANDOFF: case CHUNK_PUSH: return n > CHUNK && n <= MAX_CHUNKS * CHUNK;
    case SPREAD_RED: case SPREAD_PUSH: return n >= 16384 && n <= 65536;
    case SHUFFLE: case TREE: return n <= (size_t(1) << 24);
    default: return true;
  }
}

// The lab's kernels on the host's shapes at block 256 (layout::sum's registry).
static void launch(Lab& lab, int kind, CUdeviceptr in, CUdeviceptr total, size_t n) {
  void* args3[] = {&in, &total, &n};
  const unsigned chunks = unsigned(div_ceil(n, CHUNK));
  switch (kind) {
    case EMPTY: launch_runtime((const void*)empty_kernel, 1, 0, 256, nullptr); break;
    case CUB: CR(cub::DeviceReduce::Sum(lab.cub_temp, lab.cub_bytes, (const float*)in, (float*)total, (int64_t)n)); break;
    case SHUFFLE: CK(cuLaunchKernel(lab.shuffle, unsigned(div_ceil(n, 256)), 1, 1, 256, 1, 1, 32, 0, args3, nullptr)); break;
    case TREE: CK(cuLaunchKernel(lab.tree, unsigned(div_ceil(n, 256)), 1, 1, 256, 1, 1, 1024, 0, args3, nullptr)); break;
    case BANDWIDTH: {
      size_t grid = std::min<size_t>(div_ceil(n, 1024), resident(lab, lab.bandwidth, 256, 32));
      CK(cuLaunchKernel(lab.bandwidth, unsigned(grid), 1, 1, 256, 1, 1, 32, 0, args3, nullptr)); break;
    }
    case DET: {
      void* a[] = {&in, &total, &n, &lab.det_partials, &lab.det_handoff};
      if (chunks >= 2 && chunks <= MAX_CHUNKS) {
        CK(cuLaunchKernel(lab.det_few, chunks, 1, 1, 256, 1, 1, 8192, 0, a, nullptr));
      } else {
        size_t grid = std::min<size_t>(chunks, resident(lab, lab.det, 256, 8192));
        CK(cuLaunchKernel(lab.det, unsigned(grid), 1, 1, 256, 1, 1, 8192, 0, a, nullptr));
      }
      break;
    }
    case CR_LAB: {
      void* a[] = {&in, &total, &n, &lab.cr_acc};
      if (n <= 16 * 256) {  // the small route: one block of the fewest eight-warp granules giving <= 16 floats each
        unsigned threads = unsigned(div_ceil(div_ceil(n, 16), 256) * 256);
        CK(cuLaunchKernel(lab.cr_small, 1, 1, 1, threads, 1, 1, threads * 80, 0, a, nullptr));
      } else if (n >= 16384 && n <= 131072) {  // the cluster route: 16 blocks of the fewest warps giving <= 16 each
        unsigned threads = unsigned(div_ceil(div_ceil(n, 16 * 16), 32) * 32);
        CUlaunchConfig cfg = {};
        cfg.gridDimX = 16; cfg.gridDimY = 1; cfg.gridDimZ = 1;
        cfg.blockDimX = threads; cfg.blockDimY = 1; cfg.blockDimZ = 1;
        cfg.sharedMemBytes = threads * 80 + 136;
        CUlaunchAttribute attr = {};
        attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attr.value.clusterDim.x = 16; attr.value.clusterDim.y = 1; attr.value.clusterDim.z = 1;
        cfg.attrs = &attr; cfg.numAttrs = 1;
        CK(cuLaunchKernelEx(&cfg, lab.cr_cluster, a, nullptr));
      } else {
        size_t grid = std::min<size_t>(div_ceil(n, 8 * 256), resident(lab, lab.cr, 256, 256 * 80));
        CK(cuLaunchKernel(lab.cr, unsigned(grid), 1, 1, 256, 1, 1, 256 * 80, 0, a, nullptr));
      }
      break;
    }
    case TILE_PLAIN: launch_runtime((const void*)tile_plain, 1, 0, 256, args3); break;
    case TILE_CHECKED: launch_runtime((const void*)tile_checked, 1, 0, 256, args3); break;
    default: {
      void* a[] = {&in, &total, &n, &lab.handoff};
      if (kind == CHUNK_RED) launch_runtime((const void*)chunk_red, chunks, 0, 256, a);
      if (kind == CHUNK_HANDOFF) launch_runtime((const void*)chunk_handoff, chunks, 0, 256, a);
      if (kind == CHUNK_PUSH) launch_runtime((const void*)chunk_push, chunks, chunks, 256, a);
      if (kind == SPREAD_RED) launch_runtime((const void*)spread_red, SPREAD, 0, unsigned(n / 64), a);
      if (kind == SPREAD_PUSH) launch_runtime((const void*)spread_push, SPREAD, SPREAD, unsigned(n / 64), a);
    }
  }
}

int main(int argc, char** argv) {
  if (argc != 5) { fprintf(stderr, "usage: limits KERNELS.ptx KERNELS-SM90.ptx ROUNDS each|queued\n"); return 2; }
  const int rounds = atoi(argv[3]);
  // each: the host waits for every timed launch before it queues the next; queued: a kernel's 13 launches are
  // all queued, each behind its own hold, and their times read at the end, as `host bench` and cub_sum.cu do.
  const bool queued = std::string(argv[4]) == "queued";
  CR(cudaFree(0));
  CUcontext ctx; CK(cuCtxGetCurrent(&ctx));
  CUdevice dev; CK(cuCtxGetDevice(&dev));
  Lab lab;
  CK(cuDeviceGetAttribute(&lab.sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  int l2; CK(cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev));
  std::string ptx = slurp(argv[1]);
  CUmodule mod; CK(cuModuleLoadData(&mod, ptx.c_str()));
  CK(cuModuleGetFunction(&lab.shuffle, mod, "sum_warp_shuffle"));
  CK(cuModuleGetFunction(&lab.tree, mod, "sum_tree_atomic"));
  CK(cuModuleGetFunction(&lab.bandwidth, mod, "sum_bandwidth"));
  CK(cuModuleGetFunction(&lab.det, mod, "sum_deterministic"));
  CK(cuModuleGetFunction(&lab.det_few, mod, "sum_deterministic_few"));
  CK(cuModuleGetFunction(&lab.cr, mod, "sum_correctly_rounded"));
  CK(cuModuleGetFunction(&lab.cr_small, mod, "sum_correctly_rounded_small"));
  CK(cuModuleGetFunction(&lab.hold, mod, "hold"));
  std::string hopper_ptx = slurp(argv[2]);
  CUmodule hopper; CK(cuModuleLoadData(&hopper, hopper_ptx.c_str()));
  CK(cuModuleGetFunction(&lab.cr_cluster, hopper, "sum_correctly_rounded_cluster"));
  CK(cuFuncSetAttribute(lab.cr_cluster, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 512 * 80 + 136));
  CK(cuFuncSetAttribute(lab.cr_cluster, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
  CK(cuModuleGetFunction(&lab.evict, mod, "evict_l2"));
  CK(cuFuncSetAttribute(lab.cr, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024 * 80));
  CK(cuFuncSetAttribute(lab.cr_small, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024 * 80));
  CR(cudaFuncSetAttribute((const void*)spread_push, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  auto zeroed = [](size_t bytes) { CUdeviceptr p; CK(cuMemAlloc(&p, bytes)); CK(cuMemsetD8(p, 0, bytes)); return p; };
  lab.det_handoff = zeroed(1 << 16);
  lab.det_partials = zeroed(4 << 20);
  lab.cr_acc = zeroed(1 << 20);
  lab.handoff = zeroed(sizeof(Handoff));
  lab.evict_quads = size_t(2) * l2 / 16;
  lab.evict_buf = zeroed(lab.evict_quads * 16);
  lab.sink = zeroed(4);

  const size_t sizes[] = {4096, 16384, 32768, 65536, 131072, 262144, size_t(1) << 20, size_t(1) << 22,
                          size_t(1) << 24, size_t(1) << 26, size_t(1) << 28, size_t(1) << 30, size_t(1) << 31};
  const size_t max_n = size_t(1) << 31;
  CUdeviceptr in = zeroed(max_n * 4), totals = zeroed(4 * 64);
  lab.cub_bytes = 0;
  CR(cub::DeviceReduce::Sum(nullptr, lab.cub_bytes, (const float*)in, (float*)totals, (int64_t)max_n));
  CR(cudaMalloc(&lab.cub_temp, lab.cub_bytes));
  std::vector<float> host(max_n);

  CUevent e0[13], e1[13];
  for (int rep = 0; rep < 13; rep++) { CK(cuEventCreate(&e0[rep], 0)); CK(cuEventCreate(&e1[rep], 0)); }
  printf("# device: %d SMs, L2 %d bytes; median us of 10 timed launches after 3 (50 us hold before each start "
         "event; cold: evict_l2 first)\n", lab.sms, l2);
  for (size_t n : sizes) {
    // Bench's sparse input: every 64th float is 0 to 3, the rest zero; every order sums it exactly in float.
    double exact = 0.0;
    for (size_t i = 0; i < n; i++) { host[i] = (i % 64 == 0) ? float((i / 64) % 4) : 0.0f; exact += host[i]; }
    CK(cuMemcpyHtoD(in, host.data(), n * 4));
    // Bits first: every kernel's sum, launched once into a zeroed total, against the exact one.
    for (int kind = CUB; kind < KINDS; kind++) {
      if (!runs(kind, n)) continue;
      CK(cuMemsetD8(totals, 0, 4));
      launch(lab, kind, in, totals, n);
      CR(cudaDeviceSynchronize());
      float got; CK(cuMemcpyDtoH(&got, totals, 4));
      if ((n <= (size_t(1) << 28) || kind == CR_LAB) && double(got) != exact) { printf("WRONG n=%zu %s: %a, not %a\n", n, NAMES[kind], got, exact); return 1; }
    }
    printf("bits n=%zu: %s the exact %.1f\n", n, n <= (size_t(1) << 28) ? "every kernel's sum is" :
           "the correctly rounded sum is", exact);
    const int n_rounds = n > (size_t(1) << 24) ? std::max(rounds / 2, 1) : rounds;
    for (int round = 1; round <= n_rounds; round++) {
      for (int cold = 0; cold < 2; cold++) {
        for (int kind = EMPTY; kind < KINDS; kind++) {
          if (!runs(kind, n)) continue;
          std::vector<float> times;
          for (int rep = 0; rep < 13; rep++) {
            CK(cuMemsetD8Async(totals + 4 * rep, 0, 4, 0));
            if (cold) {
              void* eargs[] = {&lab.evict_buf, &lab.evict_quads, &lab.sink};
              CK(cuLaunchKernel(lab.evict, 8 * lab.sms, 1, 1, 256, 1, 1, 0, 0, eargs, nullptr));
            }
            unsigned long long ns = 50000; void* hargs[] = {&ns};
            CK(cuLaunchKernel(lab.hold, 1, 1, 1, 1, 1, 1, 0, 0, hargs, nullptr));
            CK(cuEventRecord(e0[rep], 0));
            launch(lab, kind, in, totals + 4 * rep, n);
            CK(cuEventRecord(e1[rep], 0));
            if (!queued) CK(cuEventSynchronize(e1[rep]));
          }
          for (int rep = 3; rep < 13; rep++) {
            CK(cuEventSynchronize(e1[rep]));
            float ms; CK(cuEventElapsedTime(&ms, e0[rep], e1[rep]));
            times.push_back(ms * 1000);
          }
          std::sort(times.begin(), times.end());
          printf("time n=%zu cache=%s round=%d kernel=%s us=%.3f\n", n, cold ? "cold" : "warm", round, NAMES[kind],
                 (times[4] + times[5]) / 2);
        }
        fflush(stdout);
      }
    }
  }
  return 0;
}
