// in-place tree reduction done directly in global memory with the strided index j = 2*s*tid (interleaved addressing)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_reduce_strided_index_global(float* data, float* block_sums) {
  float* seg = data + blockIdx.x * (2 * blockDim.x);
  int span = 2 * blockDim.x;
  for (int s = 1; s < span; s *= 2) {
    int j = 2 * s * threadIdx.x;
    if (j < span) seg[j] += seg[j + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = seg[0];
}

void launch_pat_reduce_strided_index_global(const Buffers& B) {
  pat_reduce_strided_index_global<<<kN / 512, 256>>>(B.f_out, B.f_out + 4 * kN);
}
