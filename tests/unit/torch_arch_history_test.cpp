// Which TORCH_CUDA_ARCH_LIST entries a pinned torch release accepts (data/torch_releases.md).
#include <gtest/gtest.h>

#include "analyzer/domain/arch.h"
#include "analyzer/domain/torch_support.h"

namespace cudalint::domain {
namespace {

TorchVerdict verdict(std::string_view arch, std::string_view torch) {
  auto t = parse_torch_version(torch);
  EXPECT_TRUE(t) << torch;
  return torch_accepts_arch(arch, &*t);
}

TEST(TorchArchHistory, EntriesAddedLaterAreRejectedByOlderReleases) {
  EXPECT_EQ(verdict("9.0", "1.13.1"), TorchVerdict::Rejects);
  EXPECT_EQ(verdict("Hopper", "1.13.1"), TorchVerdict::Rejects);
  EXPECT_EQ(verdict("9.0a", "2.1.2"), TorchVerdict::Rejects);
  EXPECT_EQ(verdict("10.0", "2.3.0+cu121"), TorchVerdict::Rejects);
  EXPECT_EQ(verdict("12.1", "2.7.0"), TorchVerdict::Rejects);
}

TEST(TorchArchHistory, BoundsOnlyWhereRecorded) {
  EXPECT_EQ(verdict("9.0", "2.0.0"), TorchVerdict::Accepts);
  EXPECT_EQ(verdict("9.0a", "2.2.0"), TorchVerdict::Accepts);
  EXPECT_EQ(verdict("8.0", "1.13.1"), TorchVerdict::Accepts);
  // 10.1 reached some release between 2.6 and 2.8 and left in 2.9.
  EXPECT_EQ(verdict("10.1", "2.7.0"), TorchVerdict::Unknown);
  EXPECT_EQ(verdict("10.1", "2.9.0"), TorchVerdict::Rejects);
  EXPECT_EQ(verdict("10.1", "2.5.1"), TorchVerdict::Rejects);
  // No release knows 8.8; releases after 2.11 are not judged on what 2.11 lacks.
  EXPECT_EQ(verdict("8.8", "2.4.0"), TorchVerdict::Rejects);
  EXPECT_EQ(verdict("13.0", "2.12.0"), TorchVerdict::Unknown);
  EXPECT_EQ(verdict("12.0", "2.12.0"), TorchVerdict::Accepts);
}

TEST(TorchArchHistory, UnpinnedTorchIsJudgedAs2_11) {
  EXPECT_EQ(torch_accepts_arch("10.1", nullptr), TorchVerdict::Rejects);
  EXPECT_EQ(torch_accepts_arch("11.0a", nullptr), TorchVerdict::Accepts);
  EXPECT_EQ(torch_accepts_arch("Blackwell", nullptr), TorchVerdict::Accepts);
}

TEST(TorchArchHistory, ParseNamesThePinnedRelease) {
  auto t = parse_torch_version("2.3.0+cu121");
  ArchList l = parse_torch_arch_list("8.0;Blackwell;10.0", true, 0, Span{0, 18}, &*t);
  ASSERT_EQ(l.issues.size(), 2u);
  EXPECT_NE(l.issues[0].reason.find("torch 2.3.0 does not know the name `Blackwell`"), std::string::npos)
      << l.issues[0].reason;
  EXPECT_NE(l.issues[1].reason.find("torch 2.3.0 does not know arch `10.0`"), std::string::npos);
  // The same list under torch 2.11 is fine.
  EXPECT_TRUE(parse_torch_arch_list("8.0;Blackwell;10.0", true, 0, Span{0, 18}).issues.empty());
}

}  // namespace
}  // namespace cudalint::domain
