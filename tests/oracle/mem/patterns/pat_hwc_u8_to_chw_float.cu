// image pre-processing (ToTensor + Normalize): interleaved HWC uint8 RGB read per pixel as in[pix*3 + c], written as planar CHW float
// access bytes per thread: ld 1, st 4
#include "../harness.cuh"

__global__ void pat_hwc_u8_to_chw_float(const unsigned char* hwc, float* chw, int HW, float m0, float m1, float m2,
                                        float inv_sd) {
  int pix = blockIdx.x * blockDim.x + threadIdx.x;
  if (pix >= HW) return;
  float mean[3] = {m0, m1, m2};
  for (int c = 0; c < 3; ++c) chw[c * HW + pix] = (hwc[pix * 3 + c] * (1.0f / 255.0f) - mean[c]) * inv_sd;
}

void launch_pat_hwc_u8_to_chw_float(const Buffers& B) {
  pat_hwc_u8_to_chw_float<<<grid_for(kN), kBlock>>>(reinterpret_cast<const unsigned char*>(B.c_in), B.f_out, kN, 0.485f,
                                                    0.456f, 0.406f, 4.4f);
}
