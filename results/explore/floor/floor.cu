// Issue 37: how short can the end of a launch be when one block must see every other block's sum? Three kernels
// with the same loads and the same float block sum (no exactness checks, bench's sparse input, whose float sums
// are exact), that differ only in how the block sums meet, timed beside the lab's bandwidth and correctly rounded
// sums (main's PTX, loaded through the driver API):
//
//   red      each block adds its sum with one `red.global.add.f32` and leaves (the lab's bandwidth kernel's end);
//   handoff  a start ticket before any load (atom.inc, wrapping); a block that did not start last stores its sum
//            and a flag in one 64-bit slot (st.relaxed.gpu) and leaves; the last one's threads load the slots at
//            once, spin on any still empty, reset them, and the block adds them (the deterministic sum's route);
//   ticket   each block adds its sum to a 64-bit integer with `red.global.add.u64`, fences (fence.acq_rel.gpu),
//            takes a finish ticket; the last block fences, reads and clears the integer with `atom.exch` and
//            stores (the correctly rounded sum's end, with one limb, not ten, and no checked butterflies).
//
// Timing as `host bench`: a 50 us `hold` before the start event, `evict_l2` over twice the L2 before every launch
// when cold; 10 timed launches after 3, the median; rounds interleave every kernel. Block 256; the grid is the
// lab's bandwidth rule (a quad a thread per trip, capped at the blocks that fit).
//
// Build on the GPU machine: nvcc -O3 -arch=sm_90 -o floor floor.cu -lcuda
// Run: floor target/ptx/kernels.ptx ROUNDS
#include <cuda.h>
#include <cuda_runtime.h>
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

constexpr unsigned BLOCK = 256;
constexpr unsigned MAX_GRID = 2048;
constexpr unsigned long long FULL = 1ull << 32;

struct Scratch { unsigned ticket; unsigned pad; unsigned long long slots[MAX_GRID]; long long limb; };

__device__ __forceinline__ float warp_sum(float v) {
  for (int m = 16; m > 0; m /= 2) v += __shfl_xor_sync(0xffffffffu, v, m);
  return v;
}
// Every thread's quads on a grid-stride loop, then the block's sum in thread 0 (shared memory, one barrier).
__device__ __forceinline__ float block_sum(const float* in, size_t n, float* warps) {
  const unsigned tid = threadIdx.x;
  const size_t quads = n / 4, stride = size_t(gridDim.x) * BLOCK;
  float acc = 0.0f;
  for (size_t q = size_t(blockIdx.x) * BLOCK + tid; q < quads; q += stride) {
    float4 v = __ldg(reinterpret_cast<const float4*>(in) + q);
    acc += (v.x + v.y) + (v.z + v.w);
  }
  acc = warp_sum(acc);
  if (tid % 32 == 0) warps[tid / 32] = acc;
  __syncthreads();
  float s = tid < BLOCK / 32 ? warps[tid] : 0.0f;
  return tid < 32 ? warp_sum(s) : 0.0f;
}
__device__ __forceinline__ unsigned long long ld_relaxed(const unsigned long long* p) {
  unsigned long long v; asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); return v;
}
__device__ __forceinline__ void st_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

extern "C" __global__ void __launch_bounds__(BLOCK) end_red(const float* in, float* total, size_t n, Scratch*) {
  __shared__ float warps[BLOCK / 32];
  float s = block_sum(in, n, warps);
  if (threadIdx.x == 0) atomicAdd(total, s);
}

extern "C" __global__ void __launch_bounds__(BLOCK) end_handoff(const float* in, float* total, size_t n, Scratch* sc) {
  __shared__ float warps[BLOCK / 32];
  __shared__ unsigned last;
  unsigned started = 0;
  if (threadIdx.x == 0) started = atomicInc(&sc->ticket, gridDim.x - 1);
  float s = block_sum(in, n, warps);  // its barrier comes after thread 0's ticket is back
  if (threadIdx.x == 0) last = started == gridDim.x - 1;
  __syncthreads();
  if (!last) {
    if (threadIdx.x == 0) st_relaxed(&sc->slots[blockIdx.x], FULL | __float_as_uint(s));
    return;
  }
  // The last block to start: every other block is running and waits for nothing.
  unsigned long long w[MAX_GRID / BLOCK];
#pragma unroll
  for (unsigned k = 0; k < MAX_GRID / BLOCK; k++) {
    unsigned b = threadIdx.x + k * BLOCK;
    w[k] = (b < gridDim.x && b != blockIdx.x) ? ld_relaxed(&sc->slots[b]) : FULL;
  }
  float acc = threadIdx.x == 0 ? s : 0.0f;
#pragma unroll
  for (unsigned k = 0; k < MAX_GRID / BLOCK; k++) {
    unsigned b = threadIdx.x + k * BLOCK;
    if (b < gridDim.x && b != blockIdx.x) {
      while (!(w[k] & FULL)) w[k] = ld_relaxed(&sc->slots[b]);
      st_relaxed(&sc->slots[b], 0);
    }
    acc += __uint_as_float(unsigned(w[k]));
  }
  __syncthreads();  // warps[] is reused
  acc = warp_sum(acc);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    float t = warp_sum(threadIdx.x < BLOCK / 32 ? warps[threadIdx.x] : 0.0f);
    if (threadIdx.x == 0) *total = t;
  }
}

extern "C" __global__ void __launch_bounds__(BLOCK) end_ticket(const float* in, float* total, size_t n, Scratch* sc) {
  __shared__ float warps[BLOCK / 32];
  float s = block_sum(in, n, warps);
  if (threadIdx.x != 0) return;
  // Bench's input sums to integers: one 64-bit limb of units holds them exactly.
  atomicAdd(reinterpret_cast<unsigned long long*>(&sc->limb), (unsigned long long)(long long)s);
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  if (atomicAdd(&sc->ticket, 1u) != gridDim.x - 1) return;
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  long long v = (long long)atomicExch(reinterpret_cast<unsigned long long*>(&sc->limb), 0ull);
  *total = float(v);
  sc->ticket = 0;
}

static std::string slurp(const char* path) {
  FILE* f = fopen(path, "rb"); if (!f) { perror(path); exit(1); }
  std::string s; char buf[1 << 16]; size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, k);
  fclose(f); return s;
}

int main(int argc, char** argv) {
  if (argc != 3) { fprintf(stderr, "usage: floor KERNELS.ptx ROUNDS\n"); return 2; }
  const int rounds = atoi(argv[2]);
  CR(cudaFree(0));
  CUcontext ctx; CK(cuCtxGetCurrent(&ctx));
  CUdevice dev; CK(cuCtxGetDevice(&dev));
  int sms, l2; CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  CK(cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev));
  std::string ptx = slurp(argv[1]);
  CUmodule mod; CK(cuModuleLoadData(&mod, ptx.c_str()));
  CUfunction bandwidth, correctly, hold, evict;
  CK(cuModuleGetFunction(&bandwidth, mod, "sum_bandwidth"));
  CK(cuModuleGetFunction(&correctly, mod, "sum_correctly_rounded"));
  CK(cuModuleGetFunction(&hold, mod, "hold"));
  CK(cuModuleGetFunction(&evict, mod, "evict_l2"));
  const unsigned cr_shared = BLOCK * 80;
  CK(cuFuncSetAttribute(correctly, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, cr_shared));
  size_t evict_quads = size_t(2) * l2 / 16;
  CUdeviceptr evict_buf, sink, acc, scratch;
  CK(cuMemAlloc(&evict_buf, evict_quads * 16)); CK(cuMemsetD8(evict_buf, 0, evict_quads * 16));
  CK(cuMemAlloc(&sink, 4)); CK(cuMemsetD8(sink, 0, 4));
  CK(cuMemAlloc(&acc, 4096)); CK(cuMemsetD8(acc, 0, 4096));  // the lab's Superaccumulator (88 bytes)
  CK(cuMemAlloc(&scratch, sizeof(Scratch))); CK(cuMemsetD8(scratch, 0, sizeof(Scratch)));
  const size_t max_n = size_t(1) << 24;
  CUdeviceptr in, total; CK(cuMemAlloc(&in, max_n * 4)); CK(cuMemAlloc(&total, 4));
  std::vector<float> host(max_n);
  for (size_t i = 0; i < max_n; i++) host[i] = (i % 64 == 0) ? float((i / 64) % 4) : 0.0f;
  CK(cuMemcpyHtoD(in, host.data(), max_n * 4));

  int per_sm_bw, per_sm_cr, per_sm_proto;
  CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_bw, bandwidth, BLOCK, 32));
  CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_cr, correctly, BLOCK, cr_shared));
  CR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_proto, end_handoff, BLOCK, 0));
  const char* names[] = {"lab bandwidth", "lab correctly rounded", "red", "handoff", "ticket"};
  auto launch = [&](int kind, size_t n) {
    void* lab_args[] = {&in, &total, &n};
    void* cr_args[] = {&in, &total, &n, &acc};
    Scratch* sc = reinterpret_cast<Scratch*>(scratch);
    const float* pin = reinterpret_cast<const float*>(in);
    float* ptot = reinterpret_cast<float*>(total);
    unsigned grid = unsigned(std::min<size_t>((n + 4 * BLOCK - 1) / (4 * BLOCK), size_t(per_sm_proto) * sms));
    grid = std::min(grid, MAX_GRID);
    switch (kind) {
      case 0: {
        size_t g = std::min<size_t>((n + 4 * BLOCK - 1) / (4 * BLOCK), size_t(per_sm_bw) * sms);
        CK(cuLaunchKernel(bandwidth, unsigned(g), 1, 1, BLOCK, 1, 1, 32, 0, lab_args, nullptr)); break;
      }
      case 1: {
        size_t g = std::min<size_t>((n + 8 * BLOCK - 1) / (8 * BLOCK), size_t(per_sm_cr) * sms);
        CK(cuLaunchKernel(correctly, unsigned(g), 1, 1, BLOCK, 1, 1, cr_shared, 0, cr_args, nullptr)); break;
      }
      case 2: end_red<<<grid, BLOCK>>>(pin, ptot, n, sc); break;
      case 3: end_handoff<<<grid, BLOCK>>>(pin, ptot, n, sc); break;
      default: end_ticket<<<grid, BLOCK>>>(pin, ptot, n, sc); break;
    }
  };
  // Each kernel's sum, once, against the CPU's.
  for (size_t n : {size_t(1) << 16, size_t(1) << 20, size_t(1) << 24}) {
    double want = 0; for (size_t i = 0; i < n; i++) want += host[i];
    for (int k = 0; k < 5; k++) {
      CK(cuMemsetD8(total, 0, 4)); launch(k, n); CR(cudaDeviceSynchronize());
      float got; CK(cuMemcpyDtoH(&got, total, 4));
      if (double(got) != want) { printf("WRONG %s n=%zu: %f, not %f\n", names[k], n, got, want); return 1; }
    }
  }
  printf("sums: every kernel's sum equals the CPU's at 2^16, 2^20 and 2^24\n");
  CUevent e0, e1; CK(cuEventCreate(&e0, 0)); CK(cuEventCreate(&e1, 0));
  printf("# median us of 10 timed launches after 3 (50 us hold before each start event; cold: evict_l2 first)\n");
  printf("%-9s %-5s %-5s", "n", "cache", "round");
  for (auto name : names) printf(" | %s", name);
  printf("\n");
  for (size_t n : {size_t(1) << 16, size_t(1) << 18, size_t(1) << 20, size_t(1) << 22, size_t(1) << 24}) {
    for (int round = 1; round <= rounds; round++) {
      for (int cold = 0; cold < 2; cold++) {
        printf("%-9zu %-5s %-5d", n, cold ? "cold" : "warm", round);
        for (int kind = 0; kind < 5; kind++) {
          std::vector<float> times;
          for (int rep = 0; rep < 13; rep++) {
            if (cold) {
              void* eargs[] = {&evict_buf, &evict_quads, &sink};
              CK(cuLaunchKernel(evict, 8 * sms, 1, 1, 256, 1, 1, 0, 0, eargs, nullptr));
            }
            unsigned long long ns = 50000; void* hargs[] = {&ns};
            CK(cuLaunchKernel(hold, 1, 1, 1, 1, 1, 1, 0, 0, hargs, nullptr));
            CK(cuEventRecord(e0, 0));
            launch(kind, n);
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
