// fused bias + GELU epilogue on bf16 activations [rows, N]: x[i] + bias[i % N], unit stride
// access bytes per thread: ld 2, st 2
#include <cuda_bf16.h>
#include "../harness.cuh"

__global__ void pat_bf16_bias_gelu(const __nv_bfloat16* x, const __nv_bfloat16* bias, __nv_bfloat16* y, int total, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  float v = __bfloat162float(x[i]) + __bfloat162float(bias[i % N]);
  float g = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  y[i] = __float2bfloat16(g);
}

void launch_pat_bf16_bias_gelu(const Buffers& B) {
  pat_bf16_bias_gelu<<<grid_for(kN), kBlock>>>(reinterpret_cast<const __nv_bfloat16*>(B.h_in),
                                               reinterpret_cast<const __nv_bfloat16*>(B.h_in + 2 * kN),
                                               reinterpret_cast<__nv_bfloat16*>(B.h_out), kN, 4096);
}
