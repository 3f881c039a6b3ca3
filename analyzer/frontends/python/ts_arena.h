// Where tree-sitter's allocations go. CMakeLists.txt compiles the tree-sitter runtime and the
// Python grammar with ts_malloc, ts_calloc, ts_realloc and ts_free renamed to the functions of
// ts_alloc.h. Outside a TsArena they are malloc's. Inside one, on the thread that made it, they come
// from a bump arena and free does nothing: a parse whose tree is dropped whole no longer frees
// its nodes one by one (ts_tree_delete, then malloc's consolidation), and allocating is a bump.
#pragma once

#include <cstddef>
#include <vector>

namespace cudalint::python {

class TsArena {
 public:
  // `cap`: past this many bytes the arena hands out nothing and allocations go to malloc again
  // (a pathological input cannot grow it without bound).
  explicit TsArena(size_t cap);
  ~TsArena();  // frees every block: nothing allocated inside may be used afterwards
  TsArena(const TsArena&) = delete;
  TsArena& operator=(const TsArena&) = delete;

  // The arena active on this thread (the innermost), or null.
  static TsArena* current();
  void* alloc(size_t n);  // 16-byte aligned; null when over the cap
  bool owns(const void* p) const;
  size_t size_of(const void* p) const;  // the size asked for p (p must be owned)
  size_t reserved() const { return total_; }
  // Some allocation was refused for the cap (and went to malloc): what was built inside must
  // then be freed normally, not dropped with the arena.
  bool overflowed() const { return overflowed_; }

 private:
  struct Block {
    char* base;
    size_t size, used;
  };
  std::vector<Block> blocks_;
  size_t total_ = 0;
  size_t cap_;
  bool overflowed_ = false;
  TsArena* outer_;
};

}  // namespace cudalint::python

#include "analyzer/frontends/python/ts_alloc.h"
