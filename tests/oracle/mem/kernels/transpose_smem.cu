// tiled transpose staged through shared memory (both sides coalesced)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void transpose_smem(const float* in, float* out) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * 1024 + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * 1024 + x] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose_smem(const Buffers& B) { transpose_smem<<<dim3(32, 32), dim3(32, 8)>>>(B.f_in, B.f_out); }
