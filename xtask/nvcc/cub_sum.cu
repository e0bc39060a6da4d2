// NVIDIA CUB's DeviceReduce::Sum, timed the way the lab times its own sums,
// for `cargo xtask nvcc-compare`: the bench's sparse exact input, CUDA events
// around each launch, the median of the timed launches after the warm-ups,
// warm, and cold with L2 flushed before each timed launch by a read of
// twice its size (the host's `evict_l2`, host/src/gpu/baseline.rs); every
// start event queued behind the host's timing hold (`hold`, 50 us), so the
// host's queueing stays out of the timed region.
//
// Usage: cub_sum RUNS WARMUP N...
// Prints one CSV line per size and cache state:
//   mode,n,cache,median_ms,sum
// mode is `default` (CUB's default, run-to-run determinism, two-phase API),
// where this CCCL offers it (3.1 and later) `gpu_to_gpu` (the environment
// API with cuda::execution::determinism::gpu_to_gpu), and `empty launch`: an empty
// kernel of one warp, this program's launch floor, beside the host's
// `empty launch` row. A line `# gpu_to_gpu: ...` says which.

#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#if CCCL_MAJOR_VERSION > 3 || (CCCL_MAJOR_VERSION == 3 && CCCL_MINOR_VERSION >= 1)
#define LAB_GPU_TO_GPU 1
#include <cuda/execution>
#endif

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t e = (call);                                                         \
    if (e != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

// The lab's sparse exact input (host/src/input.rs, sparse_exact): every
// stride-th element is 0, 1, 2, 3 in turn, the stride 64 doubled until the
// largest possible sum is below 2^24.
static size_t sparse_stride(size_t n) {
  size_t stride = 64;
  while (3 * ((n + stride - 1) / stride) >= (1u << 24)) stride *= 2;
  return stride;
}

__global__ void fill_sparse(float* values, size_t n, size_t stride) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    values[i] = (i % stride == 0) ? (float)((i / stride) % 4) : 0.0f;
  }
}

// The host's `evict_l2` (kernels/src/evict.rs): reads `quads` zeroed 16-byte
// words and stores only if one is set, which never happens, so the loads are
// live and the L2 is left holding clean lines.
__global__ void evict_l2(const uint4* buffer, size_t quads, unsigned* sink) {
  unsigned bits = 0;
  for (size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x; q < quads; q += (size_t)gridDim.x * blockDim.x) {
    uint4 v = __ldg(buffer + q);
    bits |= v.x | v.y | v.z | v.w;
  }
  if (bits != 0) *sink = bits;
}

__global__ void empty() {}

// The host's `hold` (kernels/src/hold.rs): one thread spins on the global
// timer for `ns` nanoseconds, while the host queues the timed work.
static const unsigned long long HOLD_NS = 50000;  // layout::baseline::HOLD_NS

__device__ unsigned long long global_timer_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void hold(unsigned long long ns) {
  unsigned long long start = global_timer_ns();
  while (global_timer_ns() - start < ns) {
  }
}

// The flush: `evict_l2` over a zeroed buffer of twice the L2's size, eight
// blocks of 256 threads per SM, as the host launches it.
struct Flush {
  uint4* buffer = nullptr;
  size_t quads = 0;
  unsigned* sink = nullptr;
  int blocks = 0;
  void queue(cudaStream_t stream) const {
    evict_l2<<<blocks, 256, 0, stream>>>(buffer, quads, sink);
    CHECK(cudaGetLastError());
  }
};

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Times `launch` (which enqueues one sum on `stream`) per the lab's rule
// (host/src/gpu/timing.rs): a pair of events per timed launch, created
// before the loop; every launch queued without waiting, the flush of a cold
// run and then the hold before its start event; the times read once the
// stream is done.
template <typename Launch>
static float time_median(int runs, int warmup, bool cold, const Flush& flush, cudaStream_t stream, Launch launch) {
  std::vector<cudaEvent_t> start(runs), stop(runs);
  for (int r = 0; r < runs; ++r) {
    CHECK(cudaEventCreate(&start[r]));
    CHECK(cudaEventCreate(&stop[r]));
  }
  for (int k = 0; k < warmup + runs; ++k) {
    int timed = k - warmup;
    if (timed >= 0) {
      if (cold) flush.queue(stream);
      hold<<<1, 1, 0, stream>>>(HOLD_NS);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(start[timed], stream));
    }
    launch();
    if (timed >= 0) CHECK(cudaEventRecord(stop[timed], stream));
  }
  std::vector<float> times(runs);
  for (int r = 0; r < runs; ++r) {
    CHECK(cudaEventSynchronize(stop[r]));
    CHECK(cudaEventElapsedTime(&times[r], start[r], stop[r]));
    CHECK(cudaEventDestroy(start[r]));
    CHECK(cudaEventDestroy(stop[r]));
  }
  return median(times);
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s RUNS WARMUP N...\n", argv[0]);
    return 2;
  }
  int runs = std::atoi(argv[1]);
  int warmup = std::atoi(argv[2]);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  int l2 = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  Flush flush;
  flush.quads = 2 * (size_t)l2 / sizeof(uint4);
  flush.blocks = 8 * sms;
  CHECK(cudaMalloc(&flush.buffer, flush.quads * sizeof(uint4)));
  CHECK(cudaMemset(flush.buffer, 0, flush.quads * sizeof(uint4)));
  CHECK(cudaMalloc(&flush.sink, sizeof(unsigned)));
#ifdef LAB_GPU_TO_GPU
  std::printf("# gpu_to_gpu: available (CCCL %d.%d)\n", CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION);
#else
  std::printf("# gpu_to_gpu: not available: CCCL %d.%d.%d has no determinism requirement (it came in 3.1)\n",
              CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION);
#endif
  std::printf("mode,n,cache,median_ms,sum\n");
  for (int a = 3; a < argc; ++a) {
    size_t n = std::strtoull(argv[a], nullptr, 10);
    for (int cold = 0; cold < 2; ++cold) {
      float ms = time_median(runs, warmup, cold, flush, stream, [&] {
        empty<<<1, 32, 0, stream>>>();
        CHECK(cudaGetLastError());
      });
      std::printf("empty launch,%zu,%s,%.6f,0.0\n", n, cold ? "cold" : "warm", ms);
    }
    float* in = nullptr;
    float* out = nullptr;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&out, sizeof(float)));
    fill_sparse<<<1024, 256, 0, stream>>>(in, n, sparse_stride(n));
    CHECK(cudaGetLastError());
    // The two-phase API: temporary storage sized and allocated once, before
    // any timing, as the lab allocates its own scratch.
    size_t temp_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, n, stream));
    void* temp = nullptr;
    CHECK(cudaMalloc(&temp, temp_bytes));
    for (int cold = 0; cold < 2; ++cold) {
      float ms = time_median(runs, warmup, cold, flush, stream, [&] {
        CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, stream));
      });
      float sum = 0;
      CHECK(cudaMemcpy(&sum, out, sizeof(float), cudaMemcpyDeviceToHost));
      std::printf("default,%zu,%s,%.6f,%.1f\n", n, cold ? "cold" : "warm", ms, sum);
    }
#ifdef LAB_GPU_TO_GPU
    for (int cold = 0; cold < 2; ++cold) {
      auto env = cuda::execution::require(cuda::execution::determinism::gpu_to_gpu);
      float ms = time_median(runs, warmup, cold, flush, stream, [&] {
        CHECK(cub::DeviceReduce::Sum(in, out, n, env));
      });
      float sum = 0;
      CHECK(cudaMemcpy(&sum, out, sizeof(float), cudaMemcpyDeviceToHost));
      std::printf("gpu_to_gpu,%zu,%s,%.6f,%.1f\n", n, cold ? "cold" : "warm", ms, sum);
    }
#endif
    CHECK(cudaFree(temp));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
  }
  CHECK(cudaFree(flush.buffer));
  CHECK(cudaFree(flush.sink));
  return 0;
}
