// multi-resolution / FFT-style stage loop: each stage reads in[base + step*threadIdx.x] with the step doubling per stage
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_stage_loop_stride_tid(const float* in, float* out, int first_step, int last_step, int seg) {
  long long base = (long long)blockIdx.x * seg;
  float acc = 0.0f;
  for (int step = first_step; step <= last_step; step *= 2) acc += in[base + step * threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

void launch_pat_stage_loop_stride_tid(const Buffers& B) {
  // steps 2, 4, 8, 16; each block owns a segment of 16 * 256 floats
  pat_stage_loop_stride_tid<<<kN / kBlock, kBlock>>>(B.f_in, B.f_out, 2, 16, 16 * kBlock);
}
