// per-pixel L2 norm over the channels of an NHWC (channels-last) tensor, one thread per pixel looping c: in[pix*C + c]
// access bytes per thread: ld 4, st 4
#include "../harness.cuh"

__global__ void pat_nhwc_pixel_channel_loop(const float* in, float* norms, int pixels, int C) {
  int pix = blockIdx.x * blockDim.x + threadIdx.x;
  if (pix >= pixels) return;
  float ss = 0.0f;
  for (int c = 0; c < C; ++c) { float v = in[pix * C + c]; ss += v * v; }
  norms[pix] = sqrtf(ss);
}

void launch_pat_nhwc_pixel_channel_loop(const Buffers& B) {
  pat_nhwc_pixel_channel_loop<<<grid_for(kN / 2), kBlock>>>(B.f_in, B.f_out, kN / 2, 32);
}
