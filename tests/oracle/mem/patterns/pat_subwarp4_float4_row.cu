// 4 lanes per 16-float row, each lane loading one float4 of it (row*4 + gid%4), lane 0 of the group writes the row result
// access bytes per thread: ld 16, st 4
#include "../harness.cuh"

__global__ void pat_subwarp4_float4_row(const float4* rows4, float* out, int rows) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int row = gid / 4, part = gid % 4;
  float s = 0.0f;
  if (row < rows) {
    float4 v = rows4[row * 4 + part];
    s = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
  }
  s = fmaxf(s, __shfl_down_sync(0xffffffffu, s, 2, 4));
  s = fmaxf(s, __shfl_down_sync(0xffffffffu, s, 1, 4));
  if (part == 0 && row < rows) out[row] = s;
}

void launch_pat_subwarp4_float4_row(const Buffers& B) {
  pat_subwarp4_float4_row<<<grid_for(kN), kBlock>>>(B.f4_in, B.f_out, kN / 4);
}
