// Helper header for the oracle cases: cp.async wrapped in inline functions and a macro.
#pragma once
#define ORACLE_CP_ASYNC_4(dst, src) \
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src))
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }
