// The page's three kernels in CUDA C++, compiled by nvcc for the side-by-side
// comparison `cargo xtask nvcc-compare` runs. They keep the page's bodies and
// take the Rust kernels' names and launch contract (`extern "C"`, dynamic
// shared memory sized by the launch), so the host loads this PTX with
// `--ptx` and times it with exactly the same harness.
#include <cstddef>

extern "C" __global__ void sum_global_atomic(const float* __restrict__ in,
                                             float* __restrict__ total, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        atomicAdd(total, in[i]);
    }
}

extern "C" __global__ void sum_shared_atomic(const float* __restrict__ in,
                                             float* __restrict__ total, size_t n) {
    __shared__ float blockSum;

    const unsigned int tid = threadIdx.x;
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + tid;

    if (tid == 0) {
        blockSum = 0.0f;
    }
    __syncthreads();

    if (i < n) {
        atomicAdd(&blockSum, in[i]);
    }
    __syncthreads();

    if (tid == 0) {
        atomicAdd(total, blockSum);
    }
}

extern "C" __global__ void sum_tree_atomic(const float* __restrict__ in,
                                           float* __restrict__ total, size_t n) {
    extern __shared__ float tile[];

    const unsigned int tid = threadIdx.x;
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + tid;

    tile[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int half = blockDim.x / 2; half > 0; half /= 2) {
        if (tid < half) {
            tile[tid] += tile[tid + half];
        }
        __syncthreads();
    }

    if (tid == 0) {
        atomicAdd(total, tile[0]);
    }
}

