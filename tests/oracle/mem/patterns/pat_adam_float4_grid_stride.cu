// fused Adam optimizer step over float4 chunks of param/grad/m/v in a grid-stride loop (multi-tensor-apply style)
// access bytes per thread: ld 16, st 16
#include "../harness.cuh"

__global__ void pat_adam_float4_grid_stride(float4* p, const float4* g, float4* m, float4* v, int n4, float lr, float b1,
                                            float b2, float eps) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
    float4 gp = g[i], mp = m[i], vp = v[i], pp = p[i];
    float* gf = &gp.x; float* mf = &mp.x; float* vf = &vp.x; float* pf = &pp.x;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      mf[k] = b1 * mf[k] + (1.0f - b1) * gf[k];
      vf[k] = b2 * vf[k] + (1.0f - b2) * gf[k] * gf[k];
      pf[k] -= lr * mf[k] / (sqrtf(vf[k]) + eps);
    }
    m[i] = mp; v[i] = vp; p[i] = pp;
  }
}

void launch_pat_adam_float4_grid_stride(const Buffers& B) {
  const int n4 = kN;
  pat_adam_float4_grid_stride<<<1024, kBlock>>>(B.f4_out, B.f4_in, B.f4_out + n4, B.f4_out + 2 * n4, n4, 1e-3f, 0.9f,
                                                0.999f, 1e-8f);
}
