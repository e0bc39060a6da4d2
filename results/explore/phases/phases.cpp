// Diagnostic driver for results/explore/phases (issue 21): launches main's sum kernels and their stamped copies
// (phases.patch) from PTX through the CUDA driver API, with the host's grid rule, a 50 us hold before each start
// event as `host bench` does, and writes each stamped launch's per-block stamps as raw little-endian u64.
// Build on the GPU machine: nvcc -O2 -o phases phases.cpp -lcuda
// Run: phases ORIG.ptx STAMPED.ptx OUTDIR [N,N,...]
#include <cuda.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorString(r_, &s_); \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit(1); } } while (0)

static std::string slurp(const char* path) {
  FILE* f = fopen(path, "rb"); if (!f) { perror(path); exit(1); }
  std::string s; char buf[1 << 16]; size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, k);
  fclose(f); return s;
}

struct Kernel { const char* name; unsigned ept; int kind; };  // kind 0 bandwidth, 1 deterministic, 2 correctly rounded
static const Kernel KERNELS[] = {{"sum_bandwidth", 4, 0}, {"sum_deterministic", 32, 1}, {"sum_correctly_rounded", 8, 2}};

static unsigned shared_bytes(int kind, unsigned block) {
  return kind == 0 ? block / 32 * 4 : kind == 1 ? 8192 : block * 80;
}

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) { fprintf(stderr, "usage: phases ORIG.ptx STAMPED.ptx OUTDIR [N,N,...]\n"); return 2; }
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  int sms; CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  std::string ptx[2] = {slurp(argv[1]), slurp(argv[2])};
  CUmodule mod[2];
  for (int m = 0; m < 2; m++) CK(cuModuleLoadData(&mod[m], ptx[m].c_str()));
  CUdeviceptr phases; size_t phases_bytes; CK(cuModuleGetGlobal(&phases, &phases_bytes, mod[1], "PHASES"));
  CUfunction hold; CK(cuModuleGetFunction(&hold, mod[0], "hold"));
  const unsigned block = 256;
  std::vector<size_t> sizes = {16384, 65536, 1048576, 4194304, 268435456};
  if (argc == 5) {
    sizes.clear();
    for (const char* s = argv[4]; *s;) { char* end; sizes.push_back(strtoull(s, &end, 10)); s = *end ? end + 1 : end; }
  }
  const size_t max_n = *std::max_element(sizes.begin(), sizes.end());
  std::vector<float> host(max_n);
  CUdeviceptr input, total, scratch; CK(cuMemAlloc(&input, max_n * 4)); CK(cuMemAlloc(&total, 4));
  CK(cuMemAlloc(&scratch, 1 << 20)); CK(cuMemsetD8(scratch, 0, 1 << 20));
  CUevent e0, e1; CK(cuEventCreate(&e0, 0)); CK(cuEventCreate(&e1, 0));
  FILE* summary = fopen((std::string(argv[3]) + (argc == 5 ? "/times-large.txt" : "/times.txt")).c_str(), "w");
  fprintf(summary, "# kernel n blocks build median_us (10 launches after 3, 50 us hold before each start event)\n");
  for (size_t n : sizes) {
    // The bench's sparse input (host/src/input.rs): stride 64, doubled until 3 * ceil(n / stride) < 2^24.
    size_t stride = 64;
    while (3 * ((n + stride - 1) / stride) >= (size_t(1) << 24)) stride *= 2;
    for (size_t i = 0; i < n; i++) host[i] = (i % stride == 0) ? float((i / stride) % 4) : 0.0f;
    CK(cuMemcpyHtoD(input, host.data(), n * 4));
    for (const Kernel& k : KERNELS) {
      for (int m = 0; m < 2; m++) {
        CUfunction f; CK(cuModuleGetFunction(&f, mod[m], k.name));
        unsigned shared = shared_bytes(k.kind, block);
        int per_sm; CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, block, shared));
        size_t needed = (n + size_t(k.ept) * block - 1) / (size_t(k.ept) * block);
        unsigned grid = unsigned(std::max<size_t>(1, std::min<size_t>(needed, size_t(per_sm) * sms)));
        CUdeviceptr partials = scratch + 65536, acc = scratch;  // acc / handoff at 0 (zero), partials apart
        void* args3[] = {&input, &total, &n};
        void* args4[] = {&input, &total, &n, &acc};
        void* args5[] = {&input, &total, &n, &partials, &acc};
        void** args = k.kind == 0 ? args3 : k.kind == 1 ? args5 : args4;
        std::vector<float> times;
        for (int rep = 0; rep < 13; rep++) {
          CK(cuMemsetD8(total, 0, 4));
          if (m == 1 && rep >= 3) CK(cuMemsetD8(phases, 0, phases_bytes));
          unsigned long long ns = 50000; void* hargs[] = {&ns};
          CK(cuLaunchKernel(hold, 1, 1, 1, 1, 1, 1, 0, 0, hargs, nullptr));
          CK(cuEventRecord(e0, 0));
          CK(cuLaunchKernel(f, grid, 1, 1, block, 1, 1, shared, 0, args, nullptr));
          CK(cuEventRecord(e1, 0));
          CK(cuEventSynchronize(e1));
          float ms; CK(cuEventElapsedTime(&ms, e0, e1));
          if (rep >= 3) times.push_back(ms * 1000);
          if (m == 1 && rep >= 3 && rep < 8) {
            std::vector<unsigned long long> stamps(phases_bytes / 8);
            CK(cuMemcpyDtoH(stamps.data(), phases, phases_bytes));
            char path[512];
            snprintf(path, sizeof path, "%s/%s-%zu-%d.u64", argv[3], k.name, n, rep - 3);
            FILE* out = fopen(path, "wb");
            fwrite(stamps.data(), 8, size_t(grid) * 16, out); fclose(out);
          }
        }
        float sum; CK(cuMemcpyDtoH(&sum, total, 4));
        std::sort(times.begin(), times.end());
        fprintf(summary, "%s %zu %u %s %.2f sum=%.1f\n", k.name, n, grid, m ? "stamped" : "main", (times[4] + times[5]) / 2, sum);
      }
    }
  }
  fclose(summary);
  return 0;
}
