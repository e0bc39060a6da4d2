// Issue 37, the correctly rounded sum at 4,096 to 16,384 floats and the deterministic sum at 2 to 8 chunks, each
// written as a straight path (straight-paths.patch: for the first, the small route's one block loads, adds in checked
// f64, takes the checked butterflies, meets once and stores; for the second, one barrier per block and a gather in
// one warp) beside main's kernels, CUB's DeviceReduce::Sum, and diagnostics, in one binary.
//
//   0 main CR      main's sum_correctly_rounded, one block of the small route (threads = 256 * ceil(n / 4096)),
//                  block * 80 shared bytes, as `host bench` launches it
//   1 new CR       the patched sum_correctly_rounded, the same launch
//   2 det          main's sum_deterministic, the host's grid (a chunk of 8,192 per 256-thread block), 8,192 bytes
//   3 det, CR smem the same launch with the correctly rounded sum's shared bytes (does the launch's shared memory
//                  cost time?)
//   4 bandwidth    main's sum_bandwidth, the host's grid (a quad a thread, block 256)
//   5 CUB          cub::DeviceReduce::Sum, its default mode, two-phase API, temporary storage allocated once
//   6 empty        main's `empty`, one block of 256, no shared memory
//   7 empty, smem  the same with the correctly rounded sum's shared bytes
//   8 new det      the patched sum_deterministic (its straight path for 2 to 8 chunks, a block of 256 per chunk),
//                  launched as 2
//   9 warp shuffle main's sum_warp_shuffle, the host's grid (a float a thread, block 256): with 4, the fastest
//                  non-deterministic sums at these sizes
// Kinds 0, 1, 3 and 7 run up to 16,384 floats (the correctly rounded sum's small route).
//
// Bits first: each new kernel against main's on random arrays of every kind the route must hand on (wide exponents,
// infinities, NaNs, negative zeros, cancellation), at sizes the small route takes; any difference stops the program.
// Times as `host bench` takes them: bench's sparse input, a 50 us `hold` before each start event, `evict_l2` over
// twice the L2 first when cold, 10 timed launches after 3, the median; every round interleaves all eight.
//
// Build on the GPU machine (CCCL as nvcc-compare installs it):
//   nvcc -O3 -arch=sm_90 -I target/cccl/nvidia/cu13/include/cccl -o /tmp/h harness.cu -lcuda
// Run: /tmp/h MAIN.ptx NEW.ptx ROUNDS   (LAB_NEW_CR=ENTRY, LAB_NEW_DET=ENTRY: the new build's entries to time)
#include <cub/device/device_reduce.cuh>
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

static std::string slurp(const char* path) {
  FILE* f = fopen(path, "rb"); if (!f) { perror(path); exit(1); }
  std::string s; char buf[1 << 16]; size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, k);
  fclose(f); return s;
}

struct Lab {
  CUfunction cr_main, cr_new, det, det_new, bandwidth, shuffle, empty, hold, evict;
  int sms;
  CUdeviceptr acc, scratch, evict_buf, sink, cub_temp;
  size_t evict_quads, cub_temp_bytes;
};

static const char* NAMES[] = {"main CR", "new CR", "det",   "det, CR smem", "bandwidth",
                              "CUB",     "empty",  "empty, smem", "new det", "warp shuffle"};
constexpr int KINDS = 10;
static bool runs(int kind, size_t n) { return n <= 16384 || !(kind == 0 || kind == 1 || kind == 3 || kind == 7); }

static unsigned small_block(size_t n) { return unsigned(std::max<size_t>(1, (n + 4095) / 4096) * 256); }

static void launch(Lab& lab, int kind, CUdeviceptr in, CUdeviceptr total, size_t n) {
  unsigned cr_threads = small_block(n), cr_smem = cr_threads * 80;
  void* args3[] = {&in, &total, &n};
  switch (kind) {
    case 0: case 1: {
      void* args[] = {&in, &total, &n, &lab.acc};
      CK(cuLaunchKernel(kind == 0 ? lab.cr_main : lab.cr_new, 1, 1, 1, cr_threads, 1, 1, cr_smem, 0, args, nullptr));
      break;
    }
    case 2: case 3: case 8: {
      CUdeviceptr handoff = lab.scratch, partials = lab.scratch + 65536;
      void* args[] = {&in, &total, &n, &partials, &handoff};
      unsigned grid = unsigned(std::max<size_t>(1, (n + 8191) / 8192));
      CK(cuLaunchKernel(kind == 8 ? lab.det_new : lab.det, grid, 1, 1, 256, 1, 1, kind == 3 ? cr_smem : 8192, 0, args,
                        nullptr));
      break;
    }
    case 4: {
      int per_sm; CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, lab.bandwidth, 256, 32));
      size_t grid = std::min<size_t>((n + 1023) / 1024, size_t(per_sm) * lab.sms);
      CK(cuLaunchKernel(lab.bandwidth, unsigned(grid), 1, 1, 256, 1, 1, 32, 0, args3, nullptr));
      break;
    }
    case 9: CK(cuLaunchKernel(lab.shuffle, unsigned((n + 255) / 256), 1, 1, 256, 1, 1, 32, 0, args3, nullptr)); break;
    case 5: {
      size_t bytes = lab.cub_temp_bytes;
      CR(cub::DeviceReduce::Sum((void*)lab.cub_temp, bytes, (const float*)in, (float*)total, (int)n));
      break;
    }
    case 6: case 7:
      CK(cuLaunchKernel(lab.empty, 1, 1, 1, 256, 1, 1, kind == 6 ? 0 : cr_smem, 0, nullptr, nullptr));
  }
}

int main(int argc, char** argv) {
  if (argc != 4) { fprintf(stderr, "usage: harness MAIN.ptx NEW.ptx ROUNDS\n"); return 2; }
  const int rounds = atoi(argv[3]);
  CR(cudaFree(0));
  CUcontext ctx; CK(cuCtxGetCurrent(&ctx));
  CUdevice dev; CK(cuCtxGetDevice(&dev));
  Lab lab;
  CK(cuDeviceGetAttribute(&lab.sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  int l2; CK(cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev));
  std::string main_ptx = slurp(argv[1]), new_ptx = slurp(argv[2]);
  CUmodule mod, mod_new;
  CK(cuModuleLoadData(&mod, main_ptx.c_str()));
  CK(cuModuleLoadData(&mod_new, new_ptx.c_str()));
  CK(cuModuleGetFunction(&lab.cr_main, mod, "sum_correctly_rounded"));
  // The new build's entries, by default the kernels' own names; LAB_NEW_CR and LAB_NEW_DET name others (the
  // entries-of-their-own build, where the general kernels are main's and the straight paths are new entries).
  const char* new_cr = getenv("LAB_NEW_CR") ? getenv("LAB_NEW_CR") : "sum_correctly_rounded";
  const char* new_det = getenv("LAB_NEW_DET") ? getenv("LAB_NEW_DET") : "sum_deterministic";
  printf("# new CR: %s, new det: %s\n", new_cr, new_det);
  CK(cuModuleGetFunction(&lab.cr_new, mod_new, new_cr));
  CK(cuModuleGetFunction(&lab.det, mod, "sum_deterministic"));
  CK(cuModuleGetFunction(&lab.det_new, mod_new, new_det));
  CK(cuModuleGetFunction(&lab.bandwidth, mod, "sum_bandwidth"));
  CK(cuModuleGetFunction(&lab.shuffle, mod, "sum_warp_shuffle"));
  CK(cuModuleGetFunction(&lab.empty, mod, "empty"));
  CK(cuModuleGetFunction(&lab.hold, mod, "hold"));
  CK(cuModuleGetFunction(&lab.evict, mod, "evict_l2"));
  for (CUfunction f : {lab.cr_main, lab.cr_new}) {
    int regs, threads;
    CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    CK(cuFuncGetAttribute(&threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    printf("# %s: %d registers, at most %d threads a block\n", f == lab.cr_main ? "main CR" : "new CR", regs, threads);
  }
  // The launches of 1,024 threads take 80 KiB of dynamic shared memory, past the 48 KiB a function has unasked.
  for (CUfunction f : {lab.cr_main, lab.cr_new, lab.det, lab.det_new, lab.empty})
    CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024 * 80));
  CK(cuMemAlloc(&lab.acc, 256)); CK(cuMemsetD8(lab.acc, 0, 256));
  CK(cuMemAlloc(&lab.scratch, 1 << 20)); CK(cuMemsetD8(lab.scratch, 0, 1 << 20));
  lab.evict_quads = size_t(2) * l2 / 16;
  CK(cuMemAlloc(&lab.evict_buf, lab.evict_quads * 16)); CK(cuMemsetD8(lab.evict_buf, 0, lab.evict_quads * 16));
  CK(cuMemAlloc(&lab.sink, 4)); CK(cuMemsetD8(lab.sink, 0, 4));

  const size_t max_n = 65536 + 8;
  CUdeviceptr buf, total; CK(cuMemAlloc(&buf, max_n * 4 + 64)); CK(cuMemAlloc(&total, 4));
  lab.cub_temp_bytes = 0;
  CR(cub::DeviceReduce::Sum(nullptr, lab.cub_temp_bytes, (const float*)buf, (float*)total, 16384));
  lab.cub_temp_bytes = std::max<size_t>(lab.cub_temp_bytes, 1);
  CK(cuMemAlloc(&lab.cub_temp, lab.cub_temp_bytes));
  std::vector<float> host(max_n);

  // 1. Bits. Kinds of array: 0 bench-like integers, 1 uniform [0,1), 2 wide exponents (2^-60..2^60, both signs),
  // 3 cancellation (x and -x pairs plus one small value), 4 with an infinity, 5 with a NaN, 6 all negative zeros,
  // 7 tiny subnormals and large values.
  uint64_t s = 0x9e3779b97f4a7c15ull;
  auto next = [&]() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; };
  auto uni = [&]() { return float(next() >> 40) / 16777216.0f; };
  int mismatches = 0, checks = 0;
  const size_t sizes[] = {0, 1, 3, 4, 5, 255, 1000, 4095, 4096, 4097, 8191, 8192, 12288, 12345, 16383, 16384};
  for (int trial = 0; trial < 6; trial++) {
    for (int kind = 0; kind < 8; kind++) {
      for (size_t n : sizes) {
        for (size_t i = 0; i < n; i++) {
          float v;
          switch (kind) {
            case 0: v = float(next() % 4); break;
            case 1: v = uni(); break;
            case 2: v = ldexpf(1.0f + uni(), int(next() % 121) - 60) * ((next() & 1) ? -1.0f : 1.0f); break;
            case 3: v = (i % 2 == 0) ? ldexpf(1.0f + uni(), 20) : -host[i - 1]; if (i == n / 2) v = 0.75f; break;
            case 6: v = -0.0f; break;
            case 7: v = (next() & 1) ? ldexpf(uni(), -140) : ldexpf(1.0f + uni(), 100); break;
            default: v = uni() * 8.0f - 4.0f;
          }
          host[i] = v;
        }
        if (kind == 4 && n > 0) host[next() % n] = (next() & 1) ? INFINITY : -INFINITY;
        if (kind == 5 && n > 0) host[next() % n] = NAN;
        for (int offset : {0, 1}) {  // offset 1: a misaligned input, which the route hands on
          CUdeviceptr in = buf + 16 + 4 * offset;
          CK(cuMemcpyHtoD(in, host.data(), n * 4 + 4));
          uint32_t want, got;
          CK(cuMemsetD8(total, 0xff, 4)); launch(lab, 0, in, total, n); CK(cuMemcpyDtoH(&want, total, 4));
          CK(cuMemsetD8(total, 0xff, 4)); launch(lab, 1, in, total, n); CK(cuMemcpyDtoH(&got, total, 4));
          checks++;
          if (want != got) {
            mismatches++;
            if (mismatches < 20) printf("MISMATCH kind %d n=%zu offset %d main=%08x new=%08x\n", kind, n, offset, want, got);
          }
        }
      }
    }
  }
  CR(cudaDeviceSynchronize());
  printf("bits, correctly rounded: %d of %d new sums equal main's\n", checks - mismatches, checks);
  if (mismatches) return 1;
  // The deterministic sum: random floats of many magnitudes and both signs, every size from 2 to 8 chunks with a
  // short last chunk or not, aligned and misaligned (which the new path reads with main's guarded loads).
  const size_t det_sizes[] = {8193, 9000, 12345, 16384, 16385, 24576, 30000, 32768, 40000, 49152, 57344, 65535, 65536};
  for (int trial = 0; trial < 20; trial++) {
    for (size_t n : det_sizes) {
      for (size_t i = 0; i < n; i++) host[i] = ldexpf(uni() - 0.5f, int(next() % 41) - 20);
      for (int offset : {0, 1}) {
        CUdeviceptr in = buf + 16 + 4 * offset;
        CK(cuMemcpyHtoD(in, host.data(), n * 4));
        uint32_t want, got;
        CK(cuMemsetD8(total, 0xff, 4)); launch(lab, 2, in, total, n); CK(cuMemcpyDtoH(&want, total, 4));
        CK(cuMemsetD8(total, 0xff, 4)); launch(lab, 8, in, total, n); CK(cuMemcpyDtoH(&got, total, 4));
        checks++;
        if (want != got) {
          mismatches++;
          if (mismatches < 20) printf("MISMATCH det n=%zu offset %d main=%08x new=%08x\n", n, offset, want, got);
        }
      }
    }
  }
  // Both kernels leave the ticket and slots zero: a launch that did not would break the next one's sum.
  std::vector<uint32_t> scratch(2 + 2 * 1024);
  CK(cuMemcpyDtoH(scratch.data(), lab.scratch, scratch.size() * 4));
  for (uint32_t w : scratch) if (w != 0) { printf("the handoff was left non-zero\n"); return 1; }
  printf("bits, with the deterministic sum: %d of %d new sums equal main's; the handoff left zero\n",
         checks - mismatches, checks);
  if (mismatches) return 1;

  // 2. Times.
  CUevent e0, e1; CK(cuEventCreate(&e0, 0)); CK(cuEventCreate(&e1, 0));
  printf("# median us of 10 timed launches after 3 (50 us hold before each start event; cold: evict_l2 first)\n");
  printf("%-6s %-5s %-5s", "n", "cache", "round");
  for (int k = 0; k < KINDS; k++) printf(" | %s", NAMES[k]);
  printf("\n");
  CUdeviceptr in = buf + 16;
  for (size_t n : {size_t(4096), size_t(8192), size_t(12288), size_t(16384), size_t(32768), size_t(65536)}) {
    for (size_t i = 0; i < n; i++) host[i] = (i % 64 == 0) ? float((i / 64) % 4) : 0.0f;
    CK(cuMemcpyHtoD(in, host.data(), n * 4));
    for (int round = 1; round <= rounds; round++) {
      for (int cold = 0; cold < 2; cold++) {
        printf("%-6zu %-5s %-5d", n, cold ? "cold" : "warm", round);
        for (int kind = 0; kind < KINDS; kind++) {
          if (!runs(kind, n)) { printf(" | %6s", "-"); continue; }
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
