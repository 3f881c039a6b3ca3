// naive transpose: coalesced load, store with the thread index in the row position
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void naive_transpose(const float* in, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * 1024 + y] = in[y * 1024 + x];
}

void launch_naive_transpose(const Buffers& B) { naive_transpose<<<dim3(1024 / 32, 1024 / 8), dim3(32, 8)>>>(B.f_in, B.f_out); }
