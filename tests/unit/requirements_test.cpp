#include <gtest/gtest.h>

#include "analyzer/frontends/requirements/requirements.h"

using namespace cudalint;

namespace {

std::string_view at(std::string_view text, Span s) { return text.substr(s.begin, s.end - s.begin); }

TEST(Requirements, PinsIndexesAndIncludes) {
  std::string t =
      "# torch for CUDA 12.1\n"
      "--index-url https://download.pytorch.org/whl/cu121\n"
      "--extra-index-url=https://pypi.org/simple\n"
      "torch==2.3.0+cu121 ; platform_system == 'Linux'\n"
      "Flash_Attn>=2.5  # heavy\n"
      "-r base.txt\n"
      "-e .\n"
      "numpy==1.* \\\n"
      "    --hash=sha256:abc\n"
      "pkg @ https://example.org/pkg.whl\n";
  auto f = requirements::parse(t);
  ASSERT_EQ(f.indexes.size(), 2u);
  EXPECT_EQ(f.indexes[0].url, "https://download.pytorch.org/whl/cu121");
  EXPECT_EQ(at(t, f.indexes[0].span), "https://download.pytorch.org/whl/cu121");
  EXPECT_FALSE(f.indexes[0].extra);
  EXPECT_TRUE(f.indexes[1].extra);
  EXPECT_EQ(at(t, f.indexes[1].span), "https://pypi.org/simple");
  ASSERT_EQ(f.includes.size(), 1u);
  EXPECT_EQ(f.includes[0].first, "base.txt");
  ASSERT_EQ(f.requirements.size(), 5u);
  EXPECT_EQ(f.requirements[0].name, "torch");
  EXPECT_EQ(*f.requirements[0].exact, "2.3.0+cu121");
  EXPECT_EQ(at(t, f.requirements[0].span), "torch==2.3.0+cu121");
  EXPECT_EQ(f.requirements[1].name, "flash-attn");
  EXPECT_FALSE(f.requirements[1].exact);
  EXPECT_TRUE(f.requirements[2].editable);
  EXPECT_TRUE(f.requirements[2].url);
  EXPECT_EQ(f.requirements[3].name, "numpy");
  EXPECT_FALSE(f.requirements[3].exact) << "wildcard pins are not exact";
  EXPECT_EQ(f.requirements[4].name, "pkg");
}

TEST(Requirements, CrlfBomAndJunkDoNotCrash) {
  std::string t = "\xEF\xBB\xBFtorch==2.5.1\r\n\r\n#c\r\n\\";
  auto f = requirements::parse(t);
  ASSERT_EQ(f.requirements.size(), 1u);
  EXPECT_EQ(at(t, f.requirements[0].span), "torch==2.5.1");
  std::string junk;
  for (int i = 0; i < 20000; ++i) junk += static_cast<char>((i * 7919) % 256);
  (void)requirements::parse(junk);
  (void)requirements::parse("-i");
  (void)requirements::parse("==");
}

}  // namespace
