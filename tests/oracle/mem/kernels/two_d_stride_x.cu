// 2-D launch reading every other column
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void two_d_stride_x(const float* in, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 1024 + x] = in[y * 4096 + 2 * x];
}

void launch_two_d_stride_x(const Buffers& B) { two_d_stride_x<<<dim3(1024 / 32, 1024 / 8), dim3(32, 8)>>>(B.f_in, B.f_out); }
