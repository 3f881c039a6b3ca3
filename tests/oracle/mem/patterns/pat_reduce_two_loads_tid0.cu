// block reduction that adds two elements while loading (blockDim apart), shared-memory tree, thread 0 writes the block sum
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_reduce_two_loads_tid0(const float* in, float* block_sums, int n) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + tid;
  float v = 0.0f;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

void launch_pat_reduce_two_loads_tid0(const Buffers& B) {
  pat_reduce_two_loads_tid0<<<2 * kN / 512, 256>>>(B.f_in, B.f_out, 2 * kN);
}
