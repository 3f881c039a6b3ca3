// strided batched copy packing [batch, n] (batch_stride apart) into [n, batch]: the batch index is the fastest-varying one
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_batched_copy_batch_fastest(const float* src, float* dst, int batch, int n, long long batch_stride) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= batch * n) return;
  int b = t % batch, i = t / batch;
  dst[t] = src[b * batch_stride + i];
}

void launch_pat_batched_copy_batch_fastest(const Buffers& B) {
  const int batch = 16, n = kN / 16;
  pat_batched_copy_batch_fastest<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out, batch, n, 2LL * n);
}
