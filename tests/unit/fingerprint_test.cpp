// Unit tests for line_hashes (analyzer/core/fingerprint): the vectors are codeql-action's own
// expectations for src/fingerprints.ts, so equality here means GitHub computes the same values.
#include "analyzer/core/fingerprint.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace cudalint {
namespace {

using Hashes = std::vector<std::string>;

TEST(LineHashes, EmptyTextHasOneLine) {
  EXPECT_EQ(line_hashes(""), (Hashes{"c129715d7a2bc9a3:1"}));
}

TEST(LineHashes, SkipsSpacesAndTabs) {
  EXPECT_EQ(line_hashes(" a\nb\n  \t\tc\n d"),
            (Hashes{"271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1",
                    "a23a3dc5e078b07b:1"}));
}

TEST(LineHashes, NoTrailingNewline) {
  EXPECT_EQ(line_hashes(" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End"),
            (Hashes{"8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1",
                    "c6805c5e1288b612:1", "b86d3392aea1be30:1", "e6ceba753e1a442:1"}));
}

TEST(LineHashes, AllLineTerminatorsHashAlike) {
  const Hashes expected{"e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1",
                        "e20e36e16fcb0cc8:1", "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1",
                        "c129715d7a2bc9a3:1"};
  EXPECT_EQ(line_hashes(" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n"), expected);
  EXPECT_EQ(line_hashes(" hello; \t\rworld!!!\r\r\r  \t\tGreetings\r End\r"), expected);
  EXPECT_EQ(line_hashes(" hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n"), expected);
  EXPECT_EQ(line_hashes(" hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n"), expected);
}

TEST(LineHashes, RepeatedLinesCountOccurrences) {
  std::string text;
  for (int i = 0; i < 10; ++i) text += "Lorem ipsum dolor sit amet.\n";
  Hashes expected;
  for (int i = 1; i <= 6; ++i) expected.push_back("a7f2ff13bc495cf2:" + std::to_string(i));
  expected.insert(expected.end(), {"a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1", "55ec222b86bcae53:1",
                                   "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1"});
  EXPECT_EQ(line_hashes(text), expected);
}

// Asked for the first lines only, it stops early: those lines' hashes must be the whole text's
// (occurrence counts included), for every cut, whatever the line endings.
TEST(LineHashes, FirstLinesAreThoseOfTheWholeText) {
  std::string text;
  for (int i = 0; i < 40; ++i) {
    text += i % 7 == 0 ? "repeated line\n" : "line " + std::to_string(i * 37 % 11) + (i % 3 ? "\r\n" : "\n");
    if (i % 5 == 0) text += "\n  \t\n";
  }
  text += "caf\xC3\xA9 \xF0\x9F\x9A\x80 end";
  const Hashes all = line_hashes(text);
  ASSERT_GT(all.size(), 50u);
  for (size_t k = 0; k <= all.size() + 2; ++k) {
    Hashes first = line_hashes(text, k);
    ASSERT_EQ(first.size(), std::min(k, all.size())) << k;
    EXPECT_TRUE(std::equal(first.begin(), first.end(), all.begin())) << k;
  }
}

TEST(LineHashes, NonAsciiIsHashedAsUtf16AndIsStable) {
  // "é" is one UTF-16 unit, the rocket a surrogate pair; neither may add or lose lines.
  const std::string text = "ENV NOTE=\"caf\xC3\xA9 \xF0\x9F\x9A\x80\"\nRUN true\n";
  Hashes h = line_hashes(text);
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h, line_hashes(text));
  EXPECT_EQ(h[2], "c129715d7a2bc9a3:1");  // the empty line after the final newline
  // The first line's hash covers the next 100 units, so it must differ from an ASCII variant.
  EXPECT_NE(h[0], line_hashes("ENV NOTE=\"cafe ??\"\nRUN true\n")[0]);
  // Same unit sequence through a different spelling of blanks: same hashes.
  EXPECT_EQ(h, line_hashes("ENV\tNOTE=\"caf\xC3\xA9\t\xF0\x9F\x9A\x80\"\r\nRUN  true\r\n"));
  for (const auto& s : h) {
    auto colon = s.find(':');
    ASSERT_NE(colon, std::string::npos) << s;
    EXPECT_LE(colon, 16u) << s;
    EXPECT_EQ(s.find_first_not_of("0123456789abcdef"), colon) << s;
  }
}

TEST(LineHashes, InvalidUtf8DoesNotCrashOrLoseLines) {
  EXPECT_EQ(line_hashes("a\xFF\nb\xE2\x82\n").size(), 3u);
}

TEST(LineHashes, LongLinesStillOneHashPerLine) {
  std::string text(1000, 'x');
  text += "\n\n" + std::string(250, 'y');
  EXPECT_EQ(line_hashes(text).size(), 3u);
}

}  // namespace
}  // namespace cudalint
