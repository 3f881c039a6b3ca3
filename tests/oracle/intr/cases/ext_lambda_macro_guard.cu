// checks: __CUDACC_EXTENDED_LAMBDA__ is defined under nvcc --extended-lambda: the kernel it
// guards uses __reduce_max_sync (sm_80+)
// nvcc-flags: --extended-lambda
// feature: __reduce_max_sync
#ifdef __CUDACC_EXTENDED_LAMBDA__
__global__ void k(unsigned* out) { out[0] = __reduce_max_sync(0xffffffffu, out[threadIdx.x]); }
#endif
