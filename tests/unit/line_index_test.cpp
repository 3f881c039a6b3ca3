// LineIndex finds the same line starts whichever way a text ends its lines (its fast path
// handles texts without \r): checked against a plain definition, line by line.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "analyzer/core/source_file.h"

namespace cudalint {
namespace {

// A line starts after each \n, after each \r not followed by \n, and at 0.
std::vector<uint32_t> reference_starts(const std::string& t) {
  std::vector<uint32_t> s{0};
  for (size_t i = 0; i < t.size(); ++i)
    if (t[i] == '\n' || (t[i] == '\r' && (i + 1 == t.size() || t[i + 1] != '\n')))
      s.push_back(static_cast<uint32_t>(i + 1));
  return s;
}

void expect_same(const std::string& t) {
  const std::vector<uint32_t> want = reference_starts(t);
  LineIndex li(t);
  ASSERT_EQ(li.line_count(), want.size()) << testing::PrintToString(t);
  for (uint32_t l = 1; l <= want.size(); ++l) EXPECT_EQ(li.line_start(l), want[l - 1]) << testing::PrintToString(t);
  for (uint32_t off = 0; off <= t.size(); ++off) {
    uint32_t line = static_cast<uint32_t>(std::upper_bound(want.begin(), want.end(), off) - want.begin());
    EXPECT_EQ(li.line_of(off), line) << testing::PrintToString(t) << " at " << off;
  }
}

TEST(LineIndex, LineStartsForEveryLineEnding) {
  for (const char* t : {"", "x", "\n", "\n\n", "a\nb", "a\nb\n", "a\r\nb\r\n", "a\rb\r", "\r", "\r\n", "\r\r\n\n",
                        "a\r\n\nb\r\rc\n", "no newline at end", "\xef\xbb\xbfx\ny"})
    expect_same(t);
}

TEST(LineIndex, RandomTextsOfLineEndings) {
  std::mt19937 rng(7);
  const char alphabet[] = {'a', 'b', '\n', '\r', ' '};
  for (int n = 0; n < 300; ++n) {
    std::string t(rng() % 40, ' ');
    for (char& c : t) c = alphabet[rng() % sizeof alphabet];
    expect_same(t);
  }
}

}  // namespace
}  // namespace cudalint
