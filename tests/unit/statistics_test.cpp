// `cudalint check --statistics` (analyzer/report/statistics): counting, order, text and JSON.
#include "analyzer/report/statistics.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "llvm/Support/JSON.h"

namespace cudalint::report {
namespace {

constexpr RuleInfo kA{"TST001", "first-rule", "TST", Severity::Warning, FixAvailability::Always,
                      RuleStatus::Stable, "A"};
constexpr RuleInfo kB{"TST002", "second-rule", "TST", Severity::Error, FixAvailability::None,
                      RuleStatus::Stable, "B"};
constexpr RuleInfo kC{"ABC010", "quoted-\"name\"", "ABC", Severity::Info, FixAvailability::Sometimes,
                      RuleStatus::Preview, "C"};

Finding finding(const RuleInfo& r, std::optional<Applicability> fix = std::nullopt) {
  Finding f;
  f.rule = &r;
  f.severity = r.default_severity;
  f.location.path = "Dockerfile";
  f.message = "m";
  if (fix) f.fix = FindingFix{"title", *fix, {FindingEdit{{1, 1, 1, 2}, "x"}}};
  return f;
}

TEST(Statistics, CountsSortedByCountThenId) {
  std::vector<Finding> fs = {finding(kB), finding(kA), finding(kB), finding(kC), finding(kB), finding(kC)};
  auto counts = count_by_rule(fs, false);
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts[0].rule, &kB);
  EXPECT_EQ(counts[0].count, 3u);
  EXPECT_EQ(counts[1].rule, &kC);  // 2, ahead of kA's 1
  EXPECT_EQ(counts[1].count, 2u);
  EXPECT_EQ(counts[2].rule, &kA);
  EXPECT_EQ(counts[2].count, 1u);
  // Equal counts: by id.
  counts = count_by_rule({finding(kB), finding(kA), finding(kC)}, false);
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts[0].rule, &kC);
  EXPECT_EQ(counts[1].rule, &kA);
  EXPECT_EQ(counts[2].rule, &kB);
  EXPECT_TRUE(count_by_rule({}, false).empty());
}

TEST(Statistics, FixableFollowsWhatFixWouldApply) {
  std::vector<Finding> fs = {finding(kA), finding(kA, Applicability::Safe), finding(kB, Applicability::Unsafe),
                             finding(kC, Applicability::DisplayOnly)};
  auto counts = count_by_rule(fs, false);
  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts[0].rule, &kA);
  EXPECT_TRUE(counts[0].fixable);   // one of its two findings has a safe fix
  EXPECT_FALSE(counts[1].fixable);  // ABC010: display-only never applies
  EXPECT_FALSE(counts[2].fixable);  // TST002: unsafe, not without --unsafe-fixes
  counts = count_by_rule(fs, true);
  EXPECT_FALSE(counts[1].fixable);
  EXPECT_TRUE(counts[2].fixable);
}

TEST(Statistics, TextRows) {
  std::vector<Finding> fs(12, finding(kB));
  fs.push_back(finding(kA));
  std::ostringstream out;
  write_statistics_text(out, count_by_rule(fs, false));
  EXPECT_EQ(out.str(), "  12 TST002 second-rule\n   1 TST001 first-rule\n");
  fs.push_back(finding(kA, Applicability::Safe));
  fs.push_back(finding(kC));
  std::vector<Finding> many(12345, finding(kC));
  fs.insert(fs.end(), many.begin(), many.end());
  out.str("");
  write_statistics_text(out, count_by_rule(fs, false));
  EXPECT_EQ(out.str(),
            "12346 ABC010     quoted-\"name\"\n"
            "   12 TST002     second-rule\n"
            "    2 TST001 [*] first-rule\n");
  out.str("");
  write_statistics_text(out, {});
  EXPECT_EQ(out.str(), "");
}

TEST(Statistics, JsonShape) {
  std::vector<Finding> fs = {finding(kB), finding(kA, Applicability::Safe), finding(kB), finding(kC)};
  std::ostringstream out;
  write_statistics_json(out, count_by_rule(fs, false));
  auto parsed = llvm::json::parse(out.str());
  ASSERT_TRUE(static_cast<bool>(parsed)) << out.str();
  const auto* arr = parsed->getAsArray();
  ASSERT_NE(arr, nullptr);
  ASSERT_EQ(arr->size(), 3u);
  const auto* first = (*arr)[0].getAsObject();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->size(), 4u);
  EXPECT_EQ(first->getString("code"), "TST002");
  EXPECT_EQ(first->getString("name"), "second-rule");
  EXPECT_EQ(first->getInteger("count"), 2);
  EXPECT_EQ(first->getBoolean("fixable"), false);
  EXPECT_EQ((*arr)[1].getAsObject()->getString("code"), "ABC010");
  EXPECT_EQ((*arr)[1].getAsObject()->getString("name"), "quoted-\"name\"");  // escaped, parsed back
  EXPECT_EQ((*arr)[2].getAsObject()->getString("code"), "TST001");
  EXPECT_EQ((*arr)[2].getAsObject()->getBoolean("fixable"), true);
  out.str("");
  write_statistics_json(out, {});
  EXPECT_EQ(out.str(), "[]\n");
}

}  // namespace
}  // namespace cudalint::report
