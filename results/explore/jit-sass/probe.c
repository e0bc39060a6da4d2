// Which machine code does the H200 run for the lab's PTX? Loads each module
// two ways, as the host can: cuModuleLoadData of the PTX text (the path the
// lab has always run), and cuLinkCreate/AddData/Complete (the driver's JIT
// linker, which hands the cubin back). Prints each kernel's registers,
// largest block and local memory under both, and writes the linker's cubin.
// The module loaded from PTX keeps its cubin to itself; run.sh finds it in
// the driver's JIT cache (CUDA_CACHE_PATH) instead.
//
// Build: nvcc -o probe probe.c -lcuda
// Usage: probe load|link FILE.ptx OUT_PREFIX
//   load: cuModuleLoadData of the PTX
//   link: the JIT linker; writes OUT_PREFIX.link.cubin and loads it
//   broken: loads FILE.ptx (meant to be broken) both ways with an error
//           log buffer, and prints each error and log
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                          \
    do {                                                                     \
        CUresult r_ = (call);                                                \
        if (r_ != CUDA_SUCCESS) {                                            \
            const char *s_ = 0;                                              \
            cuGetErrorName(r_, &s_);                                         \
            fprintf(stderr, "%s: %s\n", #call, s_ ? s_ : "?");               \
            exit(3);                                                         \
        }                                                                    \
    } while (0)

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n + 1);
    if (fread(buf, 1, n, f) != (size_t)n) { perror(path); exit(2); }
    buf[n] = 0;
    fclose(f);
    *len = n;
    return buf;
}

// Every `.entry NAME(` of the PTX, in order.
static int entries(const char *ptx, char names[][128], int max) {
    int n = 0;
    for (const char *p = strstr(ptx, ".entry "); p && n < max; p = strstr(p + 1, ".entry ")) {
        p += 7;
        int i = 0;
        while (p[i] && p[i] != '(' && p[i] != ' ' && p[i] != '\n' && i < 127) {
            names[n][i] = p[i];
            i++;
        }
        names[n][i] = 0;
        n++;
    }
    return n;
}

static void attributes(const char *how, CUmodule m, char names[][128], int n) {
    for (int i = 0; i < n; i++) {
        CUfunction f;
        CHECK(cuModuleGetFunction(&f, m, names[i]));
        int regs, maxt, local, shared;
        CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
        CHECK(cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
        CHECK(cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
        CHECK(cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
        printf("%s\t%s\tregs=%d\tmax_threads=%d\tlocal=%d\tshared=%d\n", how, names[i], regs, maxt, local, shared);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: probe load|link FILE.ptx OUT_PREFIX\n"); return 2; }
    const char *mode = argv[1];
    argv++;
    size_t len;
    char *ptx = slurp(argv[1], &len);
    static char names[512][128];
    int n = entries(ptx, names, 512);
    CUdevice dev;
    CUcontext ctx;
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));

    if (strcmp(mode, "broken") == 0) {
        static char log[65536];
        CUjit_option opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void *vals[2] = {log, (void *)(size_t)sizeof log};
        CUmodule m;
        const char *e = 0;
        CUresult r = cuModuleLoadDataEx(&m, ptx, 2, opts, vals);
        cuGetErrorName(r, &e);
        printf("cuModuleLoadDataEx: %s; log: [%s]\n", e, log);
        log[0] = 0;
        vals[1] = (void *)(size_t)sizeof log;
        CUlinkState link;
        CHECK(cuLinkCreate(2, opts, vals, &link));
        r = cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx, len + 1, argv[1], 0, NULL, NULL);
        cuGetErrorName(r, &e);
        printf("cuLinkAddData: %s; log: [%s]\n", e, log);
        return 0;
    }
    if (strcmp(mode, "load") == 0) {
        CUmodule from_ptx;
        CHECK(cuModuleLoadData(&from_ptx, ptx));
        attributes("load-ptx", from_ptx, names, n);
        return 0;
    }

    CUlinkState link;
    CHECK(cuLinkCreate(0, NULL, NULL, &link));
    CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx, len + 1, argv[1], 0, NULL, NULL));
    void *cubin;
    size_t size;
    CHECK(cuLinkComplete(link, &cubin, &size));
    char path[4096];
    snprintf(path, sizeof path, "%s.link.cubin", argv[2]);
    FILE *f = fopen(path, "wb");
    fwrite(cubin, 1, size, f);
    fclose(f);
    CUmodule from_link;
    CHECK(cuModuleLoadData(&from_link, cubin));
    CHECK(cuLinkDestroy(link));
    attributes("load-link-cubin", from_link, names, n);
    return 0;
}
