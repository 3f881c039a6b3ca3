// Shared by every kernel of the coalescing corpus. Each kernels/<name>.cu defines the kernel
// <name> and `void launch_<name>(const Buffers&)`; run_ncu.sh generates the main program that
// calls every launch once, in file order, so Nsight Compute sees one launch per kernel.
#pragma once
#include <cuda_fp16.h>

struct Buffers {
  float* f_in;
  float* f_out;
  double* d_in;
  double* d_out;
  __half* h_in;
  __half* h_out;
  __half2* h2_in;
  __half2* h2_out;
  char* c_in;
  char* c_out;
  float2* f2_in;
  float2* f2_out;
  float4* f4_in;
  float4* f4_out;
  int* idx_random;  // a permutation of [0, kN)
  int* idx_sorted;  // idx_sorted[i] == i
};

constexpr int kN = 1 << 21;           // threads of a 1-D launch
constexpr long long kAlloc = 1 << 27;  // elements per buffer: room for strides up to 33 (64 for char)
constexpr int kBlock = 256;
constexpr int kW = 2048;               // width and height of 2-D launches (kW * kW == 2 * kN)
inline int grid_for(long long threads) { return static_cast<int>((threads + kBlock - 1) / kBlock); }
