// cudalint's stand-in for torch's atomic helpers (ATen/cuda/Atomic.cuh, THC/THCAtomics.cuh).
// What matters to the INTR rules: torch defines `atomicAdd(double*, double)` itself, with a
// compare-and-swap loop, where the target has none (`__CUDA_ARCH__ < 600`), so an extension that
// includes these headers may call it on any arch. Written for cudalint from the documented
// behaviour of those headers; not a copy of them.
#pragma once
#pragma clang system_header
#include "/cudalint/torch_stub.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
static inline __device__ double atomicAdd(double* address, double val) {
  unsigned long long* bits = reinterpret_cast<unsigned long long*>(address);
  unsigned long long old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}
#endif

// The helpers extensions call; each works on every arch torch supports.
template <typename T>
static inline __device__ T gpuAtomicAdd(T* address, T val) { return atomicAdd(address, val); }
template <typename T>
static inline __device__ void gpuAtomicAddNoReturn(T* address, T val) { atomicAdd(address, val); }
template <typename T>
static inline __device__ void fastAtomicAdd(T* base, long long index, long long numel, T val, bool fast) {
  atomicAdd(base + index, val);
}
