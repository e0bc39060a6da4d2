// NVIDIA CUB's DeviceReduce::Sum, timed the way the lab times its own sums,
// for `cargo xtask nvcc-compare`: the bench's sparse exact input, CUDA events
// around each launch, the median of the timed launches after the warm-ups,
// warm, and cold with L2 flushed before each timed launch by a read of
// twice its size (the host's `evict_l2`, host/src/gpu/baseline.rs).
//
// Usage:
//   cub_sum RUNS WARMUP N...           time every mode at each size
//   cub_sum --accuracy RUNS FILE...    sum each raw little-endian f32 file
//                                      RUNS times in every mode
//
// Timing prints one CSV line per mode, size and cache state:
//   mode,n,cache,median_ms,sum
// mode is one of
// - `default`: CUB's default (run-to-run determinism) through the two-phase
//   API, its temporary storage allocated once before any timing, every start
//   event queued behind the host's timing hold (`hold`, 50 us), so the host's
//   queueing stays out of the timed region, as for the lab's kernels;
// - where this CCCL offers determinism requirements (3.1 and later),
//   `not_guaranteed`, `run_to_run` and `gpu_to_gpu` through the environment
//   API (`cub::DeviceReduce::Sum(in, out, n, env)`), each timed twice: with
//   the hold, as `default` is, and `MODE as called`: no hold, and the stream
//   drained before each start event, so the GPU is idle when the call begins,
//   as it is for a user who calls it once. The environment API allocates its
//   temporary storage inside every call (cudaMallocAsync and cudaFreeAsync on
//   the call's stream), so the host's work of the call is inside the events
//   of an `as called` time, and hidden behind the hold in a held one;
// - `empty launch`: an empty kernel of one warp, this program's launch floor,
//   beside the host's `empty launch` row.
// A line `# modes: ...` says which modes this CCCL has.
//
// Accuracy prints one CSV line per file, mode and run:
//   file,mode,run,bits
// bits is the f32 result as 8 hex digits, for the same modes but
// `empty launch` (and without the `as called` timings, which give the same
// results). The output word is set to a NaN before every run, so a run that
// did not write it shows as NaN.

#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#if CCCL_MAJOR_VERSION > 3 || (CCCL_MAJOR_VERSION == 3 && CCCL_MINOR_VERSION >= 1)
#define LAB_MODES 1
#include <cuda/execution>
#include <cuda/std/execution>
#include <cuda/stream_ref>
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

// How a timed launch begins.
enum class Start {
  // Behind the hold kernel, every launch queued without waiting: the GPU is
  // busy while the host queues the call, so only the GPU's work is timed
  // (the lab's rule).
  Held,
  // On an idle GPU: the stream is drained before the start event, so the
  // event is stamped at once and the host's work inside the call (for the
  // environment API, its temporary-storage allocation) is timed too.
  Idle,
};

// Times `launch` (which enqueues one sum on `stream`) per the lab's rule
// (host/src/gpu/timing.rs): a pair of events per timed launch, created
// before the loop; the flush of a cold run and then the start (the hold, or
// a drained stream) before its start event; the times read once the stream
// is done.
template <typename Launch>
static float time_median(int runs, int warmup, bool cold, Start how, const Flush& flush, cudaStream_t stream,
                         Launch launch) {
  std::vector<cudaEvent_t> start(runs), stop(runs);
  for (int r = 0; r < runs; ++r) {
    CHECK(cudaEventCreate(&start[r]));
    CHECK(cudaEventCreate(&stop[r]));
  }
  for (int k = 0; k < warmup + runs; ++k) {
    int timed = k - warmup;
    if (timed >= 0) {
      if (cold) flush.queue(stream);
      if (how == Start::Held) {
        hold<<<1, 1, 0, stream>>>(HOLD_NS);
        CHECK(cudaGetLastError());
      } else {
        // The flush of a cold run would otherwise keep the GPU busy while
        // the host works inside the call, as the hold does.
        CHECK(cudaStreamSynchronize(stream));
      }
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

// One way of calling CUB's sum: a name for the output and a call that
// enqueues the sum of `n` floats at `in` into `out` on `stream`.
struct Mode {
  const char* name;
  cudaError_t (*call)(const float* in, float* out, size_t n, cudaStream_t stream, void* temp, size_t temp_bytes);
};

// The two-phase API with temporary storage the caller allocated: CUB's
// default determinism (run to run).
static cudaError_t call_default(const float* in, float* out, size_t n, cudaStream_t stream, void* temp,
                                size_t temp_bytes) {
  return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, stream);
}

#ifdef LAB_MODES
// The environment API with determinism `level`, on `stream`. The stream goes
// into the environment beside the requirement: without it the call runs on
// the legacy default stream, outside the events recorded on `stream`. CUB
// reads the stream with `cuda::get_stream`, which `cuda::stream_ref`
// answers, and the requirement with `cuda::execution::__get_requirements`,
// which `require(...)` answers; `cuda::std::execution::env{a, b}` answers
// both (cub/detail/env_dispatch.cuh, cuda/std/__execution/env.h). Each call
// allocates and frees its own temporary storage on that stream.
template <typename Level>
static cudaError_t call_env(const float* in, float* out, size_t n, cudaStream_t stream, Level level) {
  auto env = cuda::std::execution::env{cuda::stream_ref{stream}, cuda::execution::require(level)};
  return cub::DeviceReduce::Sum(in, out, n, env);
}

static cudaError_t call_not_guaranteed(const float* in, float* out, size_t n, cudaStream_t stream, void*, size_t) {
  return call_env(in, out, n, stream, cuda::execution::determinism::not_guaranteed);
}

static cudaError_t call_run_to_run(const float* in, float* out, size_t n, cudaStream_t stream, void*, size_t) {
  return call_env(in, out, n, stream, cuda::execution::determinism::run_to_run);
}

static cudaError_t call_gpu_to_gpu(const float* in, float* out, size_t n, cudaStream_t stream, void*, size_t) {
  return call_env(in, out, n, stream, cuda::execution::determinism::gpu_to_gpu);
}
#endif

// Every mode this CCCL has, the two-phase default first; the environment
// modes are the ones that allocate inside the call.
static const Mode MODES[] = {
    {"default", call_default},
#ifdef LAB_MODES
    {"not_guaranteed", call_not_guaranteed},
    {"run_to_run", call_run_to_run},
    {"gpu_to_gpu", call_gpu_to_gpu},
#endif
};
static const int MODE_COUNT = sizeof(MODES) / sizeof(MODES[0]);

static void print_modes() {
#ifdef LAB_MODES
  std::printf("# modes: not_guaranteed, run_to_run and gpu_to_gpu available (CCCL %d.%d.%d)\n", CCCL_MAJOR_VERSION,
              CCCL_MINOR_VERSION, CCCL_PATCH_VERSION);
#else
  std::printf("# modes: not available: CCCL %d.%d.%d has no determinism requirement (it came in 3.1); default only\n",
              CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION);
#endif
}

// A whole number of at least `least` from `text`, or a line on stderr and
// exit 2.
static long long whole(const char* text, long long least, const char* what) {
  char* end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || value < least) {
    std::fprintf(stderr, "cub_sum: %s `%s` is not a whole number of at least %lld\n", what, text, least);
    std::exit(2);
  }
  return value;
}

// The raw little-endian f32 words of `path` (the byte order of every CUDA
// host), or a line on stderr and exit 2.
static std::vector<float> read_floats(const char* path) {
  FILE* file = std::fopen(path, "rb");
  if (!file) {
    std::fprintf(stderr, "cub_sum: cannot open %s: %s\n", path, std::strerror(errno));
    std::exit(2);
  }
  std::fseek(file, 0, SEEK_END);
  long bytes = std::ftell(file);
  std::fseek(file, 0, SEEK_SET);
  if (bytes <= 0 || bytes % 4 != 0) {
    std::fprintf(stderr, "cub_sum: %s: %ld bytes is not a non-empty whole number of 4-byte floats\n", path, bytes);
    std::exit(2);
  }
  std::vector<float> values(bytes / 4);
  if (std::fread(values.data(), 4, values.size(), file) != values.size()) {
    std::fprintf(stderr, "cub_sum: cannot read %s\n", path);
    std::exit(2);
  }
  std::fclose(file);
  return values;
}

// Sums every file `runs` times in every mode and prints each result's bits.
// Each run is its own call on an idle stream, as a user makes it; the
// results are read after each, so nothing of one run is left for the next.
static int accuracy(int runs, int files, char** paths, cudaStream_t stream) {
  print_modes();
  std::printf("file,mode,run,bits\n");
  for (int f = 0; f < files; ++f) {
    std::vector<float> values = read_floats(paths[f]);
    size_t n = values.size();
    float* in = nullptr;
    float* out = nullptr;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&out, sizeof(float)));
    CHECK(cudaMemcpy(in, values.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    size_t temp_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, n, stream));
    void* temp = nullptr;
    CHECK(cudaMalloc(&temp, temp_bytes));
    for (int m = 0; m < MODE_COUNT; ++m) {
      for (int r = 0; r < runs; ++r) {
        // All ones is a NaN: a run that leaves the word alone cannot pass
        // for a sum.
        CHECK(cudaMemsetAsync(out, 0xff, sizeof(float), stream));
        CHECK(MODES[m].call(in, out, n, stream, temp, temp_bytes));
        unsigned bits = 0;
        CHECK(cudaMemcpyAsync(&bits, out, sizeof(bits), cudaMemcpyDeviceToHost, stream));
        CHECK(cudaStreamSynchronize(stream));
        std::printf("%s,%s,%d,%08x\n", paths[f], MODES[m].name, r, bits);
      }
    }
    CHECK(cudaFree(temp));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
  }
  return 0;
}

int main(int argc, char** argv) {
  bool accuracy_mode = argc >= 2 && std::strcmp(argv[1], "--accuracy") == 0;
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s RUNS WARMUP N... | %s --accuracy RUNS FILE...\n", argv[0], argv[0]);
    return 2;
  }
  // The arguments are checked before the first CUDA call, so a mistake is
  // reported the same way on a machine with no GPU.
  if (accuracy_mode) {
    int runs = (int)whole(argv[2], 1, "RUNS");
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    return accuracy(runs, argc - 3, argv + 3, stream);
  }
  int runs = (int)whole(argv[1], 1, "RUNS");
  int warmup = (int)whole(argv[2], 0, "WARMUP");
  std::vector<size_t> sizes;
  for (int a = 3; a < argc; ++a) sizes.push_back((size_t)whole(argv[a], 1, "N"));
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
  print_modes();
  std::printf("mode,n,cache,median_ms,sum\n");
  for (size_t n : sizes) {
    for (int cold = 0; cold < 2; ++cold) {
      float ms = time_median(runs, warmup, cold, Start::Held, flush, stream, [&] {
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
    // The two-phase API's temporary storage, sized and allocated once,
    // before any timing, as the lab allocates its own scratch. The
    // environment modes ignore it and allocate their own.
    size_t temp_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, n, stream));
    void* temp = nullptr;
    CHECK(cudaMalloc(&temp, temp_bytes));
    for (int m = 0; m < MODE_COUNT; ++m) {
      const Mode& mode = MODES[m];
      // The two-phase default is timed held only: its caller allocated the
      // storage, so there is no host work inside the call to show.
      int starts = m == 0 ? 1 : 2;
      for (int s = 0; s < starts; ++s) {
        Start how = s == 0 ? Start::Held : Start::Idle;
        for (int cold = 0; cold < 2; ++cold) {
          float ms = time_median(runs, warmup, cold, how, flush, stream, [&] {
            CHECK(mode.call(in, out, n, stream, temp, temp_bytes));
          });
          float sum = 0;
          CHECK(cudaMemcpy(&sum, out, sizeof(float), cudaMemcpyDeviceToHost));
          std::printf("%s%s,%zu,%s,%.6f,%.1f\n", mode.name, how == Start::Idle ? " as called" : "", n,
                      cold ? "cold" : "warm", ms, sum);
        }
      }
    }
    CHECK(cudaFree(temp));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
  }
  CHECK(cudaFree(flush.buffer));
  CHECK(cudaFree(flush.sink));
  return 0;
}
