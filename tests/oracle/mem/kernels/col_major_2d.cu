// 2-D launch, x indexes the row (thread index in the row position)
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void col_major_2d(const float* in, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < kW && y < kW / 2) out[x * (kW / 2) + y] = in[x * (kW / 2) + y] + 1.0f;
}

void launch_col_major_2d(const Buffers& B) { col_major_2d<<<dim3(kW / 32, kW / 2 / 8), dim3(32, 8)>>>(B.f_in, B.f_out); }
