// image post-processing: planar CHW float render converted to interleaved HWC RGB, out[pix*3 + c]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_chw_to_hwc_rgb(const float* chw, float* hwc, int HW) {
  int pix = blockIdx.x * blockDim.x + threadIdx.x;
  if (pix >= HW) return;
  for (int c = 0; c < 3; ++c) hwc[pix * 3 + c] = fminf(fmaxf(chw[c * HW + pix], 0.0f), 1.0f);
}

void launch_pat_chw_to_hwc_rgb(const Buffers& B) {
  pat_chw_to_hwc_rgb<<<grid_for(kN), kBlock>>>(B.f_in, B.f_out, kN);
}
