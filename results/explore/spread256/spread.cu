// Issue 37, a second look at `results/explore/dsmem`'s `spread` (a copy of dsmem.cu with one kernel added and the
// lab's small entry beside its general one): `spread256` is `spread` with blocks of 256 threads at every size, each
// thread loading chunks / 2 quads (one per batch of its block) where `spread` gave its blocks 256 * chunks / 2
// threads of one quad each. `spread` lost its margin at 65,536, where its blocks are 1,024 threads; this asks
// whether the block size was why. Everything below this paragraph is dsmem.cu's, but for spread256 and the kinds.
//
// Issue 37's cluster option, measured beside the lab's kernels: the deterministic sum's documented order at 2 to 8
// chunks (8,193 to 65,536 floats), its chunk sums meeting in rank 0's shared memory through `st.async` into
// distributed shared memory, counted by one `mbarrier` transaction count: no start ticket, no slots in L2, no cluster
// barrier release (whose SASS is a MEMBAR.ALL.GPU, the earlier cluster route's suspected cost).
//
//   push    one cluster of a block per chunk (block 256, each warp a batch, as the lab's block mode): the lab's
//           earlier cluster route with its meeting replaced.
//   spread  one cluster of 16 blocks (non-portable size) of 256 * B threads, B = chunks / 2: every thread loads one
//           quad, as the bandwidth kernel's do; warp i of a block adds batch i's quads (staged in shared memory) in
//           the documented order and pushes the 32 lane sums; rank 0 joins each chunk's eight batch sums.
//
// Both add exactly the lab's additions (kernels/src/sum/deterministic/addition_order.rs); the program checks that
// their bits equal the lab's `sum_deterministic` on random inputs before it times anything, and stops if not.
// Timing as `host bench`: a 50 us `hold` before the start event, `evict_l2` over twice the L2 before every
// launch when cold; 10 timed launches after 3, the median; rounds interleave every kernel.
//
// Build on the GPU machine: nvcc -O3 -arch=sm_90 -o spread spread.cu -lcuda
// Run: spread target/ptx/kernels.ptx ROUNDS
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorString(r_, &s_); \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit(1); } } while (0)
#define CR(x) do { cudaError_t r_ = (x); if (r_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(r_)); exit(1); } } while (0)

constexpr unsigned CHUNK = 8192;    // layout::sum::deterministic::CHUNK
constexpr unsigned MAX_CHUNKS = 8;  // the sizes this experiment covers
constexpr unsigned SPREAD = 16;     // blocks in the spread kernel's cluster

// ---- the documented order (addition_order.rs), with explicit round-to-nearest adds: nothing may fuse or reorder.
__device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float quad_sum(float4 v) { return add(add(v.x, v.y), add(v.z, v.w)); }
__device__ __forceinline__ float join(const float p[8]) {
  return add(add(add(p[0], p[1]), add(p[2], p[3])), add(add(p[4], p[5]), add(p[6], p[7])));
}
__device__ __forceinline__ float butterfly(float v) {  // warp::sum_f32
  for (unsigned m = 16; m > 0; m /= 2) v = add(v, __shfl_xor_sync(0xffffffffu, v, m));
  return v;
}
// Quad q of chunk c, zeros past n (a whole quad with one 128-bit load).
__device__ __forceinline__ float4 chunk_quad(const float* in, size_t n, unsigned c, unsigned q) {
  size_t k = size_t(c) * CHUNK + 4 * size_t(q);
  if (k + 4 <= n) return __ldg(reinterpret_cast<const float4*>(in + k));
  float4 v;
  v.x = k < n ? in[k] : 0.0f; v.y = k + 1 < n ? in[k + 1] : 0.0f;
  v.z = k + 2 < n ? in[k + 2] : 0.0f; v.w = k + 3 < n ? in[k + 3] : 0.0f;
  return v;
}
// Batch b of chunk c by one warp (batch_sum): lane l adds quads l + 32(8b + j), j = 0..8, in order from +0.0.
__device__ __forceinline__ float batch_sum(const float* in, size_t n, unsigned c, unsigned b, unsigned lane) {
  float4 q[8];
#pragma unroll
  for (unsigned j = 0; j < 8; j++) q[j] = chunk_quad(in, n, c, lane + 32 * (8 * b + j));
  float acc = 0.0f;
#pragma unroll
  for (unsigned j = 0; j < 8; j++) acc = add(acc, quad_sum(q[j]));
  return acc;
}
// The combine of one segment of `chunks` chunk sums (lane_sum of a Segment): lane l's one batch over quads
// l + 32j, joined with seven zero batches, the butterfly, then + 0.0.
__device__ __forceinline__ float combine(const float* sums, unsigned chunks, unsigned lane) {
  float acc = 0.0f;
#pragma unroll
  for (unsigned j = 0; j < 8; j++) {
    unsigned k = 4 * (lane + 32 * j);
    float4 v;
    v.x = k < chunks ? sums[k] : 0.0f; v.y = k + 1 < chunks ? sums[k + 1] : 0.0f;
    v.z = k + 2 < chunks ? sums[k + 2] : 0.0f; v.w = k + 3 < chunks ? sums[k + 3] : 0.0f;
    acc = add(acc, quad_sum(v));
  }
  float p[8] = {acc, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  return add(butterfly(join(p)), 0.0f);
}

// ---- cluster and mbarrier primitives (PTX ISA 8.0+, sm_90).
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
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(smem(bar)) : "memory");
}
// One float into rank 0's shared memory, counted on rank 0's barrier: no fence, no barrier, fire and forget.
__device__ __forceinline__ void push(float* local_slot, uint64_t* local_bar, float v) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
               :: "r"(mapa(smem(local_slot), 0)), "r"(__float_as_uint(v)), "r"(mapa(smem(local_bar), 0)) : "memory");
}

// One cluster of a block per chunk; block 256 (eight warps, a batch each: the lab's block mode, group 1).
extern "C" __global__ void __launch_bounds__(256) det_push(const float* in, float* total, size_t n) {
  __shared__ float batch[256];
  __shared__ __align__(16) float sums[MAX_CHUNKS];
  __shared__ __align__(8) uint64_t bar;
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32, rank = cluster_rank();
  const unsigned chunks = unsigned((n + CHUNK - 1) / CHUNK);
  if (rank == 0 && tid == 0) bar_init(&bar, 1);
  cluster_arrive_relaxed();
  batch[warp * 32 + lane] = batch_sum(in, n, rank, warp, lane);
  __syncthreads();
  float chunk = 0.0f;
  if (warp == 0) {
    float p[8];
#pragma unroll
    for (unsigned b = 0; b < 8; b++) p[b] = batch[b * 32 + lane];
    chunk = butterfly(join(p));
  }
  cluster_wait();  // rank 0's barrier is initialised
  if (tid == 0) push(&sums[rank], &bar, chunk);
  if (rank != 0) return;
  if (tid == 0) bar_expect(&bar, 4 * chunks);
  if (warp == 0) {
    bar_wait(&bar);
    float r = combine(sums, chunks, lane);
    if (lane == 0) *total = r;
  }
}

// One cluster of 16 blocks of 256 * B threads, B = chunks / 2 batches a block; every thread loads one quad.
extern "C" __global__ void __launch_bounds__(1024) det_spread(const float* in, float* total, size_t n) {
  __shared__ float4 quads[4 * 256];
  __shared__ __align__(16) float lanes[8 * MAX_CHUNKS * 32];  // rank 0: every batch's 32 lane sums
  __shared__ __align__(16) float sums[MAX_CHUNKS];
  __shared__ __align__(8) uint64_t bar;
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32, rank = cluster_rank();
  const unsigned chunks = unsigned((n + CHUNK - 1) / CHUNK), per_block = blockDim.x / 256;
  if (rank == 0 && tid == 0) bar_init(&bar, 1);
  cluster_arrive_relaxed();
  // Thread t holds quad t % 256 of its block's batch t / 256: lane (t % 32), step j = (t % 256) / 32.
  {
    const unsigned global_batch = rank * per_block + tid / 256, t = tid % 256;
    const unsigned c = global_batch / 8, b = global_batch % 8;
    quads[tid] = chunk_quad(in, n, c, t % 32 + 32 * (8 * b + t / 32));
  }
  __syncthreads();
  float acc = 0.0f;
  if (warp < per_block) {
#pragma unroll
    for (unsigned j = 0; j < 8; j++) acc = add(acc, quad_sum(quads[warp * 256 + 32 * j + lane]));
  }
  cluster_wait();
  if (warp < per_block) push(&lanes[(rank * per_block + warp) * 32 + lane], &bar, acc);
  if (rank != 0) return;
  if (tid == 0) bar_expect(&bar, 8 * chunks * 32 * 4);
  if (warp < chunks) {
    bar_wait(&bar);
    float p[8];
#pragma unroll
    for (unsigned b = 0; b < 8; b++) p[b] = lanes[(8 * warp + b) * 32 + lane];
    float s = butterfly(join(p));
    if (lane == 0) sums[warp] = s;
  }
  __syncthreads();
  if (warp == 0) {
    float r = combine(sums, chunks, lane);
    if (lane == 0) *total = r;
  }
}

// spread256: one cluster of 16 blocks of 256 threads, B = chunks / 2 batches a block; thread t loads quad t of each
// of its block's batches, then warps 0..B add them as spread's do.
extern "C" __global__ void __launch_bounds__(256) det_spread256(const float* in, float* total, size_t n) {
  __shared__ float4 quads[4 * 256];
  __shared__ __align__(16) float lanes[8 * MAX_CHUNKS * 32];  // rank 0: every batch's 32 lane sums
  __shared__ __align__(16) float sums[MAX_CHUNKS];
  __shared__ __align__(8) uint64_t bar;
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32, rank = cluster_rank();
  const unsigned chunks = unsigned((n + CHUNK - 1) / CHUNK), per_block = chunks / 2;
  if (rank == 0 && tid == 0) bar_init(&bar, 1);
  cluster_arrive_relaxed();
  // Quad tid of batch k of this block: lane tid % 32, step tid / 32; every load issued before any is used.
#pragma unroll
  for (unsigned k = 0; k < 4; k++) {
    if (k < per_block) {
      const unsigned global_batch = rank * per_block + k;
      const unsigned c = global_batch / 8, b = global_batch % 8;
      quads[k * 256 + tid] = chunk_quad(in, n, c, tid % 32 + 32 * (8 * b + tid / 32));
    }
  }
  __syncthreads();
  float acc = 0.0f;
  if (warp < per_block) {
#pragma unroll
    for (unsigned j = 0; j < 8; j++) acc = add(acc, quad_sum(quads[warp * 256 + 32 * j + lane]));
  }
  cluster_wait();
  if (warp < per_block) push(&lanes[(rank * per_block + warp) * 32 + lane], &bar, acc);
  if (rank != 0) return;
  if (tid == 0) bar_expect(&bar, 8 * chunks * 32 * 4);
  if (warp < chunks) {
    bar_wait(&bar);
    float p[8];
#pragma unroll
    for (unsigned b = 0; b < 8; b++) p[b] = lanes[(8 * warp + b) * 32 + lane];
    float s = butterfly(join(p));
    if (lane == 0) sums[warp] = s;
  }
  __syncthreads();
  if (warp == 0) {
    float r = combine(sums, chunks, lane);
    if (lane == 0) *total = r;
  }
}

extern "C" __global__ void empty_kernel() {}

// ---- host
static std::string slurp(const char* path) {
  FILE* f = fopen(path, "rb"); if (!f) { perror(path); exit(1); }
  std::string s; char buf[1 << 16]; size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, k);
  fclose(f); return s;
}

static void launch_cluster(const void* f, unsigned grid, unsigned cluster, unsigned block, void** args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(grid); cfg.blockDim = dim3(block); cfg.stream = 0;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = cluster; attr[0].val.clusterDim.y = 1; attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr; cfg.numAttrs = cluster > 0 ? 1 : 0;
  CR(cudaLaunchKernelExC(&cfg, f, args));
}

struct Lab { CUfunction det, det_few, bandwidth, shuffle, hold, evict; int sms; CUdeviceptr scratch, evict_buf, sink; size_t evict_quads; };

static void lab_det(Lab& lab, CUdeviceptr in, CUdeviceptr total, size_t n, bool few = false) {
  CUdeviceptr handoff = lab.scratch, partials = lab.scratch + 65536;
  void* args[] = {&in, &total, &n, &partials, &handoff};
  unsigned grid = unsigned((n + CHUNK - 1) / CHUNK);  // one chunk per eight warps at block 256
  CK(cuLaunchKernel(few ? lab.det_few : lab.det, grid, 1, 1, 256, 1, 1, 8192, 0, args, nullptr));
}

// kind: 0 lab det, 1 lab bandwidth, 2 lab warp shuffle, 3 push, 4 spread, 5 empty, 6 empty in a cluster of 16,
// 7 spread256, 8 the lab's small entry sum_deterministic_few
static const char* NAMES[] = {"lab deterministic", "lab bandwidth", "lab warp shuffle", "push (cluster/chunk)",
                              "spread (cluster 16)", "empty", "empty, cluster 16", "spread256 (cluster 16)",
                              "lab deterministic few"};
constexpr int KINDS = 9;

static void launch(Lab& lab, int kind, CUdeviceptr in, CUdeviceptr total, size_t n) {
  unsigned chunks = unsigned((n + CHUNK - 1) / CHUNK);
  void* args[] = {&in, &total, &n};
  switch (kind) {
    case 0: lab_det(lab, in, total, n); break;
    case 1: {
      int per_sm; CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, lab.bandwidth, 256, 32));
      size_t grid = std::min<size_t>((n + 1023) / 1024, size_t(per_sm) * lab.sms);
      CK(cuLaunchKernel(lab.bandwidth, unsigned(grid), 1, 1, 256, 1, 1, 32, 0, args, nullptr)); break;
    }
    case 2: CK(cuLaunchKernel(lab.shuffle, unsigned((n + 255) / 256), 1, 1, 256, 1, 1, 32, 0, args, nullptr)); break;
    case 3: launch_cluster((const void*)det_push, chunks, chunks, 256, args); break;
    case 4: launch_cluster((const void*)det_spread, SPREAD, SPREAD, 256 * (chunks / 2), args); break;
    case 5: launch_cluster((const void*)empty_kernel, 1, 0, 256, nullptr); break;
    case 6: launch_cluster((const void*)empty_kernel, 16, 16, 256, nullptr); break;
    case 7: launch_cluster((const void*)det_spread256, SPREAD, SPREAD, 256, args); break;
    default: lab_det(lab, in, total, n, true);
  }
}

int main(int argc, char** argv) {
  if (argc != 3) { fprintf(stderr, "usage: spread KERNELS.ptx ROUNDS\n"); return 2; }
  const int rounds = atoi(argv[2]);
  CR(cudaFree(0));
  CUcontext ctx; CK(cuCtxGetCurrent(&ctx));
  CUdevice dev; CK(cuCtxGetDevice(&dev));
  Lab lab;
  CK(cuDeviceGetAttribute(&lab.sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  int l2; CK(cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev));
  std::string ptx = slurp(argv[1]);
  CUmodule mod; CK(cuModuleLoadData(&mod, ptx.c_str()));
  CK(cuModuleGetFunction(&lab.det, mod, "sum_deterministic"));
  CK(cuModuleGetFunction(&lab.det_few, mod, "sum_deterministic_few"));
  CK(cuModuleGetFunction(&lab.bandwidth, mod, "sum_bandwidth"));
  CK(cuModuleGetFunction(&lab.shuffle, mod, "sum_warp_shuffle"));
  CK(cuModuleGetFunction(&lab.hold, mod, "hold"));
  CK(cuModuleGetFunction(&lab.evict, mod, "evict_l2"));
  CR(cudaFuncSetAttribute((const void*)det_spread, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CR(cudaFuncSetAttribute((const void*)det_spread256, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CR(cudaFuncSetAttribute((const void*)empty_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cuMemAlloc(&lab.scratch, 1 << 20)); CK(cuMemsetD8(lab.scratch, 0, 1 << 20));
  lab.evict_quads = size_t(2) * l2 / 16;
  CK(cuMemAlloc(&lab.evict_buf, lab.evict_quads * 16)); CK(cuMemsetD8(lab.evict_buf, 0, lab.evict_quads * 16));
  CK(cuMemAlloc(&lab.sink, 4)); CK(cuMemsetD8(lab.sink, 0, 4));

  const size_t max_n = MAX_CHUNKS * CHUNK;
  CUdeviceptr in, total; CK(cuMemAlloc(&in, max_n * 4)); CK(cuMemAlloc(&total, 4));
  std::vector<float> host(max_n);

  // 1. Bits: random floats of many magnitudes and both signs; the lab's kernel against both prototypes.
  uint64_t s = 0x9e3779b97f4a7c15ull;
  auto next = [&]() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; };
  int mismatches = 0, checks = 0;
  const size_t test_sizes[] = {8193, 12345, 16384, 16385, 24576, 32768, 40000, 65536};
  for (int trial = 0; trial < 20; trial++) {
    for (size_t n : test_sizes) {
      for (size_t i = 0; i < n; i++) {
        uint64_t r = next();
        host[i] = ldexpf(float(r & 0xffffff) / 16777216.0f - 0.5f, int((r >> 24) % 41) - 20);
      }
      CK(cuMemcpyHtoD(in, host.data(), n * 4));
      float want, got;
      CK(cuMemsetD8(total, 0xff, 4)); lab_det(lab, in, total, n); CK(cuMemcpyDtoH(&want, total, 4));
      for (int kind : {3, 4, 7, 8}) {
        unsigned chunks = unsigned((n + CHUNK - 1) / CHUNK);
        if ((kind == 4 || kind == 7) && (n % CHUNK != 0 || (chunks != 2 && chunks != 4 && chunks != 8))) continue;
        CK(cuMemsetD8(total, 0xff, 4)); launch(lab, kind, in, total, n); CR(cudaDeviceSynchronize());
        CK(cuMemcpyDtoH(&got, total, 4));
        checks++;
        if (memcmp(&want, &got, 4) != 0) {
          mismatches++;
          if (mismatches < 10) printf("MISMATCH %s n=%zu lab=%a got=%a\n", NAMES[kind], n, want, got);
        }
      }
    }
  }
  printf("bits: %d of %d prototype and small-entry sums equal the lab's sum_deterministic\n", checks - mismatches, checks);
  if (mismatches) return 1;

  // 2. Times: bench's sparse input, rounds interleaving every kernel, warm then cold.
  CUevent e0, e1; CK(cuEventCreate(&e0, 0)); CK(cuEventCreate(&e1, 0));
  printf("# median us of 10 timed launches after 3 (50 us hold before each start event; cold: evict_l2 first)\n");
  printf("%-6s %-5s %-5s", "n", "cache", "round");
  for (int k = 0; k < KINDS; k++) printf(" | %s", NAMES[k]);
  printf("\n");
  for (size_t n : {size_t(16384), size_t(32768), size_t(65536)}) {
    for (size_t i = 0; i < n; i++) host[i] = (i % 64 == 0) ? float((i / 64) % 4) : 0.0f;
    CK(cuMemcpyHtoD(in, host.data(), n * 4));
    for (int round = 1; round <= rounds; round++) {
      for (int cold = 0; cold < 2; cold++) {
        printf("%-6zu %-5s %-5d", n, cold ? "cold" : "warm", round);
        for (int kind = 0; kind < KINDS; kind++) {
          std::vector<float> times;
          for (int rep = 0; rep < 13; rep++) {
            if (cold) {
              void* eargs[] = {&lab.evict_buf, &lab.evict_quads, &lab.sink};
              CK(cuLaunchKernel(lab.evict, 8 * lab.sms, 1, 1, 256, 1, 1, 0, 0, eargs, nullptr));
            }
            unsigned long long ns = 50000; void* hargs[] = {&ns};
            CK(cuLaunchKernel(lab.hold, 1, 1, 1, 1, 1, 1, 0, 0, hargs, nullptr));
            CK(cuEventRecord(e0, 0));
            launch(lab, kind, in, total, n);
            CK(cuEventRecord(e1, 0));
            CK(cuEventSynchronize(e1));
            float ms; CK(cuEventElapsedTime(&ms, e0, e1));
            if (rep >= 3) times.push_back(ms * 1000);
          }
          std::sort(times.begin(), times.end());
          printf(" | %6.2f", (times[4] + times[5]) / 2);
        }
        printf("\n");
        fflush(stdout);
      }
    }
  }
  return 0;
}
