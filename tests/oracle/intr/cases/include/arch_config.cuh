// Helper header for the oracle cases: project-level arch feature macros.
#pragma once
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define ORACLE_HAS_CLUSTERS 1
#else
#define ORACLE_HAS_CLUSTERS 0
#endif
