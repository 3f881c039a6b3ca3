// GitLab Code Quality reporter (analyzer/report/gitlab.cpp): field mapping and fingerprints.
// The byte-exact golden is ReportGolden.Gitlab in report_test.cpp.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "analyzer/report/report.h"
#include "llvm/Support/JSON.h"

namespace cudalint::report {
namespace {

namespace json = llvm::json;

constexpr RuleInfo kRule{"TST010", "some-rule", "TST", Severity::Warning, FixAvailability::None,
                         RuleStatus::Stable, "A rule"};

Finding finding(std::string path, uint32_t line, uint32_t col, std::string hash, Severity sev = Severity::Warning) {
  Finding f;
  f.rule = &kRule;
  f.severity = sev;
  f.location = {std::move(path), {line, col, line, col + 3}};
  f.message = "message";
  f.line_hash = std::move(hash);
  return f;
}

json::Array report_of(const std::vector<Finding>& findings) {
  std::ostringstream out;
  write_gitlab(out, findings, RunInfo{});
  auto v = json::parse(out.str());
  EXPECT_TRUE(bool(v)) << out.str();
  if (!v || !v->getAsArray()) return {};
  return *v->getAsArray();
}

TEST(GitlabReport, EmptyRunIsAnEmptyArray) {
  std::ostringstream out;
  write_gitlab(out, {}, RunInfo{});
  EXPECT_EQ(out.str(), "[]\n");
}

TEST(GitlabReport, FieldsAndSeverities) {
  auto a = report_of({finding("docker/Dockerfile", 7, 3, "abc:1", Severity::Error),
                      finding("setup.py", 2, 1, "def:1", Severity::Warning),
                      finding("CMakeLists.txt", 9, 1, "", Severity::Info)});
  ASSERT_EQ(a.size(), 3u);
  auto* e = a[0].getAsObject();
  EXPECT_EQ(e->getString("check_name"), "TST010");
  EXPECT_EQ(e->getString("description"), "message [TST010]");
  EXPECT_EQ(e->getString("severity"), "critical");
  EXPECT_EQ(e->getObject("location")->getString("path"), "docker/Dockerfile");
  EXPECT_EQ(e->getObject("location")->getObject("lines")->getInteger("begin"), 7);
  EXPECT_EQ(e->getString("fingerprint")->size(), 32u);
  EXPECT_EQ(a[1].getAsObject()->getString("severity"), "major");
  EXPECT_EQ(a[2].getAsObject()->getString("severity"), "info");
}

TEST(GitlabReport, FingerprintsAreUniqueAndSurviveLineShifts) {
  // Same rule, file and line content twice (the line hash's occurrence tells them apart),
  // and two findings that would collide on every key: still distinct.
  auto a = report_of({finding("Dockerfile", 3, 5, "aaa:1"), finding("Dockerfile", 9, 5, "aaa:2"),
                      finding("Dockerfile", 12, 5, "bbb:1"), finding("Dockerfile", 12, 5, "bbb:1")});
  std::set<std::string> fps;
  for (const auto& v : a) fps.insert(v.getAsObject()->getString("fingerprint")->str());
  EXPECT_EQ(fps.size(), 4u);
  // Inserting lines above moves the finding but keeps its fingerprint.
  auto before = report_of({finding("Dockerfile", 3, 5, "aaa:1")});
  auto after = report_of({finding("Dockerfile", 10, 5, "aaa:1")});
  EXPECT_EQ(before[0].getAsObject()->getString("fingerprint"), after[0].getAsObject()->getString("fingerprint"));
  // A different path or rule changes it.
  auto other = report_of({finding("docker/Dockerfile", 3, 5, "aaa:1")});
  EXPECT_NE(before[0].getAsObject()->getString("fingerprint"), other[0].getAsObject()->getString("fingerprint"));
}

}  // namespace
}  // namespace cudalint::report
