// tree-sitter's allocations inside and outside a TsArena (analyzer/frontends/python/ts_arena.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <tree_sitter/api.h>

#include "analyzer/frontends/python/ts_arena.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace cudalint::python {
namespace {

TEST(TsArena, BumpAllocatesAlignedAndKnowsItsBlocks) {
  TsArena a(1 << 20);
  EXPECT_EQ(TsArena::current(), &a);
  void* p = a.alloc(3);
  void* q = a.alloc(100);
  ASSERT_TRUE(p && q);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(q) % 16, 0u);
  EXPECT_TRUE(a.owns(p));
  EXPECT_EQ(a.size_of(q), 100u);
  int local = 0;
  EXPECT_FALSE(a.owns(&local));
  // A request larger than the first block gets a block of its own size.
  void* big = a.alloc(300000);
  ASSERT_TRUE(big);
  std::memset(big, 1, 300000);
  EXPECT_TRUE(a.owns(static_cast<char*>(big) + 299999));
  EXPECT_FALSE(a.overflowed());
}

TEST(TsArena, RefusesPastItsCapAndNests) {
  TsArena outer(1 << 20);
  {
    TsArena inner(100 << 10);
    EXPECT_EQ(TsArena::current(), &inner);
    EXPECT_TRUE(inner.alloc(1000));
    EXPECT_EQ(inner.alloc(200 << 10), nullptr);
    EXPECT_TRUE(inner.overflowed());
    // The hooks fall back to malloc: not the arena's, and freed by free.
    void* m = cudalint_ts_malloc(200 << 10);
    ASSERT_TRUE(m);
    EXPECT_FALSE(inner.owns(m));
    cudalint_ts_free(m);
  }
  EXPECT_EQ(TsArena::current(), &outer);
  EXPECT_FALSE(outer.overflowed());
}

TEST(TsArena, HooksOutsideAndInside) {
  EXPECT_EQ(TsArena::current(), nullptr);
  char* m = static_cast<char*>(cudalint_ts_malloc(32));
  std::strcpy(m, "outside");
  {
    TsArena a(1 << 20);
    char* p = static_cast<char*>(cudalint_ts_malloc(8));
    ASSERT_TRUE(a.owns(p));
    std::strcpy(p, "abcdefg");
    char* r = static_cast<char*>(cudalint_ts_realloc(p, 4000));  // grows: copied
    EXPECT_TRUE(a.owns(r));
    EXPECT_STREQ(r, "abcdefg");
    EXPECT_EQ(cudalint_ts_realloc(r, 10), r);  // shrinks in place
    auto* z = static_cast<unsigned char*>(cudalint_ts_calloc(64, 4));
    EXPECT_TRUE(a.owns(z));
    for (int i = 0; i < 256; ++i) ASSERT_EQ(z[i], 0);
    cudalint_ts_free(r);  // no-op
    // Memory from before the arena is malloc's: realloc and free go to it.
    m = static_cast<char*>(cudalint_ts_realloc(m, 64));
    EXPECT_FALSE(a.owns(m));
    EXPECT_STREQ(m, "outside");
  }
  cudalint_ts_free(m);
}

std::string sexp(const std::string& text, bool arena, bool* overflowed = nullptr) {
  std::unique_ptr<TsArena> a;
  if (arena) a = std::make_unique<TsArena>(size_t{4} << 20);
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  char* s = ts_node_string(ts_tree_root_node(tree));
  std::string out = s;
  cudalint_ts_free(s);
  if (overflowed) *overflowed = a && a->overflowed();
  if (!a || a->overflowed()) {
    ts_tree_delete(tree);
    ts_parser_delete(parser);
  }
  return out;
}

TEST(TsArena, ParsesGiveTheSameTreesInsideAndOutside) {
  const std::filesystem::path root(CUDALINT_SOURCE_DIR);
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root / "fixtures")) {
    if (!e.is_regular_file() || e.path().extension() != ".py") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    bool over = true;
    ASSERT_EQ(sexp(ss.str(), false), sexp(ss.str(), true, &over)) << e.path();
    EXPECT_FALSE(over);
    ++files;
  }
  EXPECT_GT(files, 50);
  // Past the cap: the parse finishes on malloc and is freed normally (ASan checks the frees).
  std::string big;
  for (int i = 0; i < 20000; ++i) big += "def f" + std::to_string(i) + "(x):\n    return [x * i for i in range(3)]\n";
  bool over = false;
  EXPECT_EQ(sexp(big, false), sexp(big, true, &over));
  EXPECT_TRUE(over);
}

}  // namespace
}  // namespace cudalint::python
