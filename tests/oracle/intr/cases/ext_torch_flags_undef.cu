// checks: torch's extension builder defines __CUDA_NO_HALF_OPERATORS__ and friends and passes
// --expt-relaxed-constexpr; an extension's own -U after them wins: the guarded kernel uses
// __reduce_or_sync (sm_80+)
// nvcc-flags: -U__CUDA_NO_HALF_OPERATORS__
// feature: __reduce_or_sync
#if defined(__CUDACC_RELAXED_CONSTEXPR__) && defined(__CUDA_NO_HALF_CONVERSIONS__) && \
    defined(__CUDA_NO_BFLOAT16_CONVERSIONS__) && !defined(__CUDA_NO_HALF_OPERATORS__)
__global__ void k(unsigned* out) { out[0] = __reduce_or_sync(0xffffffffu, out[threadIdx.x]); }
#endif
