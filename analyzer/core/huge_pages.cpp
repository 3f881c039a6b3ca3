#include "analyzer/core/huge_pages.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace cudalint {

void prefer_huge_pages() {
#if defined(__linux__) && defined(M_TRIM_THRESHOLD) && defined(M_MMAP_THRESHOLD) && !defined(__SANITIZE_ADDRESS__)
  // Freed memory stays in the heaps instead of going back to the kernel, to be faulted in (and
  // zeroed) again by the next file: glibc trims a heap's top past 128 KiB by default (discarding
  // its huge pages) and maps blocks past its dynamic mmap threshold afresh each time. Cold runs
  // of the 5% bench tree went from 17,000-259,000 minor faults (1.9-4.7 s of system time) to
  // 14,000-25,000 (1.5-1.9 s), with the same peak memory. An editor session keeps up to 128 MiB
  // of the main heap's freed top.
  (void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
  (void)mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
#if defined(__linux__) && defined(M_TOP_PAD) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__)
  // glibc marks its heaps this way only under GLIBC_TUNABLES=glibc.malloc.hugetlb=1, read before
  // main runs; this does the same in process for the main heap. The heap is reserved 1 GiB
  // ahead (untouched pages cost nothing) so that the mark made now covers it as it fills;
  // growth past that is left unmarked. Worker threads' arenas stay as they are: forcing every
  // thread onto this one heap (M_ARENA_MAX=1) made a cold -j2 run ~1.8x slower on its lock.
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  if (mallopt(M_TOP_PAD, 1 << 30) != 1) return;
  // Grow the heap now (blocks below the mmap threshold, until the break moves), so that the
  // reserve exists to be marked: a later growth would be a region of its own, unmarked.
  const auto before = reinterpret_cast<uintptr_t>(sbrk(0));
  if (before == static_cast<uintptr_t>(-1)) return;
  void* blocks[64];
  int n = 0;
  while (n < 64 && reinterpret_cast<uintptr_t>(sbrk(0)) == before)
    if (!(blocks[n++] = std::malloc(96 << 10))) break;
  const auto end = reinterpret_cast<uintptr_t>(sbrk(0));
  const uintptr_t begin = (before + kHuge - 1) & ~(kHuge - 1);
  if (end != static_cast<uintptr_t>(-1) && end > begin + kHuge)
    (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  for (int i = 0; i < n; ++i) std::free(blocks[i]);
#endif
}

void prefer_huge_pages_in_thread() {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__)
  constexpr uintptr_t kHeapMax = uintptr_t{64} << 20;  // glibc's HEAP_MAX_SIZE on 64-bit
  void* p = std::malloc(64);
  const auto a = reinterpret_cast<uintptr_t>(p);
  const auto brk = reinterpret_cast<uintptr_t>(sbrk(0));
  // Above the break: a heap of its own (the main heap lies below it and is marked already).
  if (p && brk != static_cast<uintptr_t>(-1) && a > brk)
    (void)madvise(reinterpret_cast<void*>(a & ~(kHeapMax - 1)), kHeapMax, MADV_HUGEPAGE);
  std::free(p);
#endif
}

}  // namespace cudalint
