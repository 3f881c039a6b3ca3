// per-pixel channel normalisation of an NCHW tensor, one thread per pixel looping over channel planes: in[c*HW + pix]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_nchw_pixel_channel_loop(const float* in, float* out, int HW, int C) {
  int pix = blockIdx.x * blockDim.x + threadIdx.x;
  if (pix >= HW) return;
  float ss = 0.0f;
  for (int c = 0; c < C; ++c) { float v = in[c * HW + pix]; ss += v * v; }
  float inv = rsqrtf(ss + 1e-12f);
  for (int c = 0; c < C; ++c) out[c * HW + pix] = in[c * HW + pix] * inv;
}

void launch_pat_nchw_pixel_channel_loop(const Buffers& B) {
  pat_nchw_pixel_channel_loop<<<grid_for(kN / 2), kBlock>>>(B.f_in, B.f_out, kN / 2, 32);
}
