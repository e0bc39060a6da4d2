// WRC in cuda-litmus's idiom, for an exploratory run (issue 23; see run.sh beside it):
// not cuda-litmus's own code, a short re-implementation of its test binary
// wrc-TB_0_1_2-SCOPE_DEVICE-{NO_FENCE-RELAXED, FENCE_SCOPE_BLOCK-BOTH_FENCE}
// (reeselevine/cuda-litmus: kernels/wrc.cu, litmus.cuh, functions.cu): relaxed
// loads and stores through cuda::atomic_ref<unsigned, thread_scope_device>,
// with F=1 a cuda::atomic_thread_fence(acq_rel, thread_scope_block) between each
// reader's two accesses; each thread plays every role, each role of an instance
// in another block (ST: the next block, per lane with M=0 as in the code of
// cuda-litmus's Hopper file, per block with M=1 as in its later code); x and y
// at a stride of 2s words, y permuted by 1031 as cuda-litmus's permute_id does;
// a start barrier of at most 1,024 polls; no stress. Argument: s.
#include <cstdio>
#include <cstdlib>
#include <cuda/atomic>
typedef cuda::atomic_ref<unsigned,cuda::thread_scope_device> A;
#define R cuda::memory_order_relaxed
#if F
#define FE cuda::atomic_thread_fence(cuda::memory_order_acq_rel,cuda::thread_scope_block)
#else
#define FE
#endif
#if M
#define ST(w) ((w+1)%n)
#else
#define ST(w) ((w+1+t%(n-1))%n)
#endif
__global__ void k(unsigned*L,unsigned*Q,unsigned*b,unsigned n,unsigned s,unsigned S){
unsigned t=threadIdx.x,T=blockDim.x,N=n*T,w=(blockIdx.x*S)%n,i0=w*T+t,w1=ST(w),i1=w1*T+t,w2=ST(w1),i2=w2*T+t;
#define X(i) A(L[(i)*s*2])
#define Y(i) A(L[(((i)*1031)%N)*s*2+s])
atomicAdd(b,1);for(int j=0;j<1024&&*(volatile unsigned*)b<N;j++);
if(i0!=i1&&i1!=i2&&i0!=i2){X(i0).store(1,R);
unsigned r0=X(i1).load(R);FE;Y(i1).store(1,R);
unsigned r1=Y(i2).load(R);FE;unsigned r2=X(i2).load(R);
Q[i1*3]=r0;Q[i2*3+1]=r1;Q[i2*3+2]=r2;}}
int main(int c,char**v){unsigned n=1024,T=256,s=atoi(v[1]),N=n*T;size_t z=(size_t)N*s*8;unsigned*L,*Q,*b;
cudaMalloc(&L,z);cudaMalloc(&Q,N*12);cudaMalloc(&b,4);unsigned*h=(unsigned*)malloc(N*12);long W=0,U=0;
for(int it=0;it<200;it++){cudaMemset(L,0,z);cudaMemset(Q,0,N*12);cudaMemset(b,0,4);
k<<<n,T>>>(L,Q,b,n,s,1+2*(it%97));cudaMemcpy(h,Q,N*12,cudaMemcpyDeviceToHost);
for(unsigned i=0;i<N;i++){U++;W+=h[i*3]==1&&h[i*3+1]==1&&h[i*3+2]==0;}}
printf("WRC F=%d M=%d s=%u weak %ld of %ld %s\n",F,M,s,W,U,cudaGetErrorString(cudaGetLastError()));}
