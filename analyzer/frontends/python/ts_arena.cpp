#include "analyzer/frontends/python/ts_arena.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cudalint::python {

namespace {

// The innermost arena of this thread: allocation state, not configuration (each thread's own).
thread_local TsArena* tl_current = nullptr;

constexpr size_t kHeader = 16;  // holds the size asked for, keeps 16-byte alignment
constexpr size_t kFirstBlock = 64u << 10;

[[noreturn]] void out_of_memory(size_t n) {
  // What tree-sitter's own allocator does.
  std::fprintf(stderr, "tree-sitter failed to allocate %zu bytes\n", n);
  std::abort();
}

}  // namespace

TsArena::TsArena(size_t cap) : cap_(cap), outer_(tl_current) { tl_current = this; }

TsArena::~TsArena() {
  tl_current = outer_;
  for (const Block& b : blocks_) std::free(b.base);
}

TsArena* TsArena::current() { return tl_current; }

void* TsArena::alloc(size_t n) {
  if (n > cap_) {
    overflowed_ = true;
    return nullptr;
  }
  const size_t need = (n + kHeader + 15) & ~size_t{15};
  if (blocks_.empty() || blocks_.back().size - blocks_.back().used < need) {
    size_t size = blocks_.empty() ? kFirstBlock : blocks_.back().size * 2;  // geometric: few blocks
    while (size < need) size *= 2;
    if (total_ + size > cap_) {
      overflowed_ = true;
      return nullptr;
    }
    char* base = static_cast<char*>(std::malloc(size));
    if (!base) out_of_memory(size);
    blocks_.push_back({base, size, 0});
    total_ += size;
  }
  Block& b = blocks_.back();
  char* p = b.base + b.used;
  b.used += need;
  std::memcpy(p, &n, sizeof n);
  return p + kHeader;
}

bool TsArena::owns(const void* p) const {
  const char* c = static_cast<const char*>(p);
  for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it)
    if (c >= it->base && c < it->base + it->size) return true;
  return false;
}

size_t TsArena::size_of(const void* p) const {
  size_t n;
  std::memcpy(&n, static_cast<const char*>(p) - kHeader, sizeof n);
  return n;
}

}  // namespace cudalint::python

using cudalint::python::TsArena;

extern "C" {

void* cudalint_ts_malloc(size_t size) {
  if (TsArena* a = TsArena::current())
    if (void* p = a->alloc(size)) return p;
  void* p = std::malloc(size);
  if (!p && size) cudalint::python::out_of_memory(size);
  return p;
}

void* cudalint_ts_calloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) cudalint::python::out_of_memory(SIZE_MAX);
  if (TsArena* a = TsArena::current())
    if (void* p = a->alloc(count * size)) return std::memset(p, 0, count * size);
  void* p = std::calloc(count, size);
  if (!p && count && size) cudalint::python::out_of_memory(count * size);
  return p;
}

void* cudalint_ts_realloc(void* p, size_t size) {
  TsArena* a = TsArena::current();
  if (a && p && a->owns(p)) {
    const size_t old = a->size_of(p);
    if (size <= old) return p;
    void* q = cudalint_ts_malloc(size);
    std::memcpy(q, p, old);
    return q;
  }
  if (a && !p) return cudalint_ts_malloc(size);
  void* q = std::realloc(p, size);
  if (!q && size) cudalint::python::out_of_memory(size);
  return q;
}

void cudalint_ts_free(void* p) {
  if (TsArena* a = TsArena::current(); a && p && a->owns(p)) return;  // released with the arena
  std::free(p);
}

}  // extern "C"
