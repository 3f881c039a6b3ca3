// streaming element-wise add with evict-first cache hints on float4: __ldcs loads and __stcs store at unit stride
// access bytes per thread: ld 16, st 16
#include "../harness.cuh"

__global__ void pat_ldcs_stream_float4(const float4* a, const float4* b, float4* c, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  float4 u = __ldcs(&a[i]), v = __ldcs(&b[i]);
  __stcs(&c[i], make_float4(u.x + v.x, u.y + v.y, u.z + v.z, u.w + v.w));
}

void launch_pat_ldcs_stream_float4(const Buffers& B) {
  pat_ldcs_stream_float4<<<grid_for(kN), kBlock>>>(B.f4_in, B.f4_in + kN, B.f4_out, kN);
}
