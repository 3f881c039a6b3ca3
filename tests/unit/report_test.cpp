// Unit and golden tests for the reporters (analyzer/report). The goldens under tests/golden/
// are compared byte for byte; run with CUDALINT_UPDATE_GOLDEN=1 to rewrite them after an
// intended change (then review the diff).
#include "analyzer/report/report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/core/fingerprint.h"
#include "llvm/Support/JSON.h"

namespace cudalint::report {
namespace {

namespace json = llvm::json;

constexpr RuleInfo kPin{"TST001", "unpinned-base-image", "TST", Severity::Warning,
                        FixAvailability::Always, RuleStatus::Stable, "Base image tag is not pinned"};
constexpr RuleInfo kArch{"TST002", "arch-unsupported", "TST", Severity::Error, FixAvailability::None,
                         RuleStatus::Stable, "Architecture is not supported by the CUDA toolkit"};
constexpr RuleInfo kNoop{"TST003", "setting-without-effect", "TST", Severity::Info,
                         FixAvailability::None, RuleStatus::Preview, "Setting has no effect"};
constexpr RuleInfo kSilent{"TST004", "never-fires", "TST", Severity::Warning, FixAvailability::None,
                           RuleStatus::Stable, "Registered but silent"};
// Fires but is not in RunInfo::rules: SARIF must still be valid (no ruleIndex).
constexpr RuleInfo kStray{"XTR001", "stray-rule", "XTR", Severity::Warning, FixAvailability::Sometimes,
                          RuleStatus::Preview, "A rule the run does not list"};

constexpr std::string_view kPinDoc =
    "# unpinned-base-image (TST001)\n"
    "\n"
    "## What it does\n"
    "Flags `FROM` lines whose CUDA image tag floats,\n"
    "such as `latest`.\n"
    "\n"
    "## Why is this bad?\n"
    "Builds stop being reproducible.\n";
constexpr std::string_view kArchDoc =
    "# arch-unsupported (TST002)\r\n"
    "\r\n"
    "## What it does\r\n"
    "\r\n"
    "Checks `TORCH_CUDA_ARCH_LIST` against the toolkit.\r\n"
    "## Example\r\n"
    "```dockerfile\r\n"
    "ENV TORCH_CUDA_ARCH_LIST=\"3.7\"\r\n"
    "```\r\n";
constexpr std::string_view kNoopDoc = "# setting-without-effect (TST003)\n\nNo sections here.\n";

// A UTF-8 file with a non-BMP character: "🚀" is two UTF-16 units, "é" one.
const std::string kDockerfile =
    "FROM nvidia/cuda:latest\n"
    "RUN apt-get update\n"
    "ENV NOTE=\"caf\xC3\xA9 \xF0\x9F\x9A\x80\" TORCH_CUDA_ARCH_LIST=\"3.7;8.0\"\n";
const std::string kToml = "[cuda]\n\tcuda.arch = \"7.5\"\n";

std::string line_of(const std::string& text, uint32_t line) {
  std::istringstream in(text);
  std::string s;
  for (uint32_t i = 0; i < line; ++i) std::getline(in, s);
  return s;
}

Finding make(const RuleInfo& rule, Severity sev, std::string path, Region r, std::string message,
             const std::string* text = nullptr) {
  Finding f;
  f.rule = &rule;
  f.severity = sev;
  f.location = {std::move(path), r};
  f.message = std::move(message);
  if (text) {
    f.line_hash = line_hashes(*text)[r.start_line - 1];
    f.source_line = line_of(*text, r.start_line);
  }
  return f;
}

std::vector<Finding> sample_findings() {
  std::vector<Finding> v;

  Finding pin = make(kPin, Severity::Warning, "docker/Dockerfile", {1, 6, 1, 24},
                     "Base image 'nvidia/cuda:latest' is not pinned", &kDockerfile);
  pin.fix = FindingFix{"Pin the tag to 12.4.1-devel-ubuntu22.04", Applicability::Safe,
                       {{{1, 18, 1, 24}, "12.4.1-devel-ubuntu22.04"}}};
  v.push_back(pin);

  // "3.7" starts after the rocket: column 42 in UTF-16 units, character 41 on screen.
  Finding arch = make(kArch, Severity::Error, "docker/Dockerfile", {3, 42, 3, 45},
                      "sm_37 is not supported by CUDA 12.4.1", &kDockerfile);
  arch.related.push_back({{"docker/versions.env", {2, 1, 2, 20}}, "CUDA 12.4.1 is selected here"});
  v.push_back(arch);

  // Path and message with ',' ':' '%' to exercise every escaping; a tab before the range.
  v.push_back(make(kNoop, Severity::Info, "cfg/a,b:c.toml", {2, 2, 2, 11},
                   "Setting 'cuda.arch' has no effect: 100% of builds ignore it", &kToml));

  // Outside the run root, with an unsafe fix, no fingerprint, and a rule the run does not list.
  Finding stray = make(kStray, Severity::Warning, "/opt/other project/CMakeLists.txt", {4, 1, 4, 28},
                       "find_package(CUDA) is deprecated");
  stray.source_line = "find_package(CUDA REQUIRED)";
  stray.fix = FindingFix{"Use find_package(CUDAToolkit)", Applicability::Unsafe,
                         {{{4, 14, 4, 18}, "CUDAToolkit"}, {{4, 19, 4, 27}, ""}}};
  v.push_back(stray);

  std::sort(v.begin(), v.end(), finding_less);
  return v;
}

RunInfo sample_run() {
  RunInfo run;
  run.tool_version = "0.1.0";
  run.information_uri = "https://github.com/cudalint/cudalint";
  run.help_uri_base = "https://github.com/cudalint/cudalint/blob/v0.1.0/";
  run.root_uri = "file:///home/runner/work/repo/repo/";
  // helpUri = help_uri_base + doc_path; TST004 has no doc, so no helpUri.
  run.rules = {{&kPin, kPinDoc, "rules/tst/unpinned_base_image.md"},
               {&kArch, kArchDoc, "rules/tst/arch_unsupported.md"},
               {&kNoop, kNoopDoc, "rules/tst/setting_without_effect.md"},
               {&kSilent, "", ""}};
  run.files_checked = 7;
  return run;
}

std::string golden_path(const std::string& name) {
#ifdef CUDALINT_SOURCE_DIR
  std::string base = CUDALINT_SOURCE_DIR;
#else
  std::string base = "/work/main";
#endif
  return base + "/tests/golden/" + name;
}

void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = golden_path(name);
  const char* update = std::getenv("CUDALINT_UPDATE_GOLDEN");
  if (update && std::string_view(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden " << path << " (run with CUDALINT_UPDATE_GOLDEN=1)";
  std::string expected((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(expected, actual) << "golden " << path << " differs (CUDALINT_UPDATE_GOLDEN=1 rewrites it)";
}

std::string text_of(const std::vector<Finding>& f, const RunInfo& run, TextOptions opts = {}) {
  std::ostringstream out;
  write_text(out, f, run, opts);
  return out.str();
}

std::string json_of(const std::vector<Finding>& f, const RunInfo& run) {
  std::ostringstream out;
  write_json(out, f, run);
  return out.str();
}

std::string sarif_of(const std::vector<Finding>& f, const RunInfo& run) {
  std::ostringstream out;
  write_sarif(out, f, run);
  return out.str();
}

std::string github_of(const std::vector<Finding>& f, const RunInfo& run) {
  std::ostringstream out;
  write_github(out, f, run);
  return out.str();
}

json::Value parse(const std::string& s) {
  auto v = json::parse(s);
  if (!v) {
    ADD_FAILURE() << llvm::toString(v.takeError()) << "\n" << s;
    return nullptr;
  }
  return std::move(*v);
}

// ---- goldens ----

TEST(ReportGolden, Text) { check_golden("report.txt", text_of(sample_findings(), sample_run())); }
TEST(ReportGolden, Json) { check_golden("report.json", json_of(sample_findings(), sample_run())); }
TEST(ReportGolden, Sarif) { check_golden("report.sarif", sarif_of(sample_findings(), sample_run())); }
TEST(ReportGolden, Github) { check_golden("report.github.txt", github_of(sample_findings(), sample_run())); }
TEST(ReportGolden, Gitlab) {
  std::ostringstream out;
  write_gitlab(out, sample_findings(), sample_run());
  check_golden("report.gitlab.json", out.str());
}

TEST(ReportGolden, OutputIsDeterministic) {
  EXPECT_EQ(sarif_of(sample_findings(), sample_run()), sarif_of(sample_findings(), sample_run()));
  EXPECT_EQ(json_of(sample_findings(), sample_run()), json_of(sample_findings(), sample_run()));
}

// ---- empty runs ----

TEST(ReportEmpty, TextAndGithubPrintNothing) {
  EXPECT_EQ(text_of({}, sample_run()), "");
  EXPECT_EQ(github_of({}, sample_run()), "");
}

TEST(ReportEmpty, JsonIsValidWithZeroSummary) {
  json::Value v = parse(json_of({}, sample_run()));
  const json::Object* o = v.getAsObject();
  ASSERT_TRUE(o);
  EXPECT_EQ(o->getInteger("version"), 1);
  ASSERT_TRUE(o->getArray("findings"));
  EXPECT_TRUE(o->getArray("findings")->empty());
  const json::Object* s = o->getObject("summary");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->getInteger("files_checked"), 7);
  EXPECT_EQ(s->getInteger("errors"), 0);
  EXPECT_EQ(s->getInteger("fixable"), 0);
}

TEST(ReportEmpty, SarifIsValidWithEmptyResultsAndAllRules) {
  json::Value v = parse(sarif_of({}, sample_run()));
  const json::Object* o = v.getAsObject();
  ASSERT_TRUE(o);
  EXPECT_EQ(o->getString("version"), "2.1.0");
  const json::Object* run = (*o->getArray("runs"))[0].getAsObject();
  ASSERT_TRUE(run->getArray("results"));
  EXPECT_TRUE(run->getArray("results")->empty());
  EXPECT_EQ(run->getObject("tool")->getObject("driver")->getArray("rules")->size(), 4u);
}

// ---- text ----

Finding simple(Severity sev, std::string source, Region r) {
  Finding f = make(kArch, sev, "a.cu", r, "msg");
  f.source_line = std::move(source);
  return f;
}

TEST(ReportText, CaretsCountCharactersNotUtf16Units) {
  // "é" (1 unit) + rocket (2 units): "x" is at column 4 but the third character.
  std::string out = text_of({simple(Severity::Error, "\xC3\xA9\xF0\x9F\x9A\x80xy", {1, 4, 1, 6})}, {});
  EXPECT_NE(out.find(" 1 | \xC3\xA9\xF0\x9F\x9A\x80xy\n   |   ^^\n"), std::string::npos) << out;
}

TEST(ReportText, CaretKeepsTabsAndShowsAtLeastOne) {
  std::string out = text_of({simple(Severity::Error, "\t\tab", {1, 3, 1, 3})}, {});
  EXPECT_NE(out.find("   | \t\t^\n"), std::string::npos) << out;
  out = text_of({simple(Severity::Error, "ab", {1, 5, 1, 9})}, {});  // past the end of the line
  EXPECT_NE(out.find("   |     ^^^^\n"), std::string::npos) << out;
}

TEST(ReportText, MultiLineRangeUnderlinesToEndOfLine) {
  std::string out = text_of({simple(Severity::Error, "abcdef", {1, 3, 4, 2})}, {});
  EXPECT_NE(out.find("   |   ^^^^\n"), std::string::npos) << out;
}

TEST(ReportText, ControlCharactersInSourceAreNeutralised) {
  std::string out = text_of({simple(Severity::Error, "a\x1b[31mb", {1, 1, 1, 2})}, {});
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
}

TEST(ReportText, ColourOnlyWhenAsked) {
  auto f = sample_findings();
  EXPECT_EQ(text_of(f, sample_run()).find('\x1b'), std::string::npos);
  TextOptions o;
  o.color = true;
  std::string coloured = text_of(f, sample_run(), o);
  EXPECT_NE(coloured.find("\x1b[1;31merror:\x1b[0m"), std::string::npos) << coloured;
}

TEST(ReportText, ConciseIsOneLinePerFindingPlusSummary) {
  TextOptions o;
  o.show_source = false;
  o.show_fix_hint = false;
  std::vector<Finding> f = {simple(Severity::Error, "src", {2, 3, 2, 4}), simple(Severity::Info, "", {3, 1, 3, 1})};
  EXPECT_EQ(text_of(f, {}, o),
            "a.cu:2:3: error: msg [TST002]\n"
            "a.cu:3:1: info: msg [TST002]\n"
            "\n"
            "Found 2 problems (1 error, 1 info) in 1 file.\n");
}

TEST(ReportText, SummaryWording) {
  TextOptions o;
  o.show_source = false;
  Finding f = simple(Severity::Warning, "", {1, 1, 1, 2});
  f.fix = FindingFix{"Do it", Applicability::Unsafe, {}};
  std::string out = text_of({f}, {}, o);
  EXPECT_NE(out.find("  = help: Do it (unsafe fix)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\nFound 1 problem (1 warning) in 1 file; 1 fixable with --fix --unsafe-fixes.\n"),
            std::string::npos)
      << out;
  f.fix->applicability = Applicability::DisplayOnly;
  out = text_of({f}, {}, o);
  EXPECT_NE(out.find("\nFound 1 problem (1 warning) in 1 file.\n"), std::string::npos) << out;
}

// ---- github ----

TEST(ReportGithub, EscapesDataAndProperties) {
  Finding f = make(kNoop, Severity::Info, "a,b:c%.txt", {1, 2, 3, 4}, "50% done\r\nnext: a,b");
  EXPECT_EQ(github_of({f}, {}),
            "::notice file=a%2Cb%3Ac%25.txt,line=1,col=2,endLine=3,endColumn=4,"
            "title=TST003 setting-without-effect::50%25 done%0D%0Anext: a,b\n");
}

// ---- sarif ----

TEST(ReportSarif, RuleIndexMatchesRuleIdAndStrayRuleHasNone) {
  json::Value v = parse(sarif_of(sample_findings(), sample_run()));
  const json::Object* run = (*v.getAsObject()->getArray("runs"))[0].getAsObject();
  const json::Array* rules = run->getObject("tool")->getObject("driver")->getArray("rules");
  size_t stray = 0;
  for (const auto& r : *run->getArray("results")) {
    const json::Object* res = r.getAsObject();
    auto idx = res->getInteger("ruleIndex");
    if (!idx) {
      EXPECT_EQ(res->getString("ruleId"), "XTR001");
      ++stray;
      continue;
    }
    EXPECT_EQ((*rules)[*idx].getAsObject()->getString("id"), res->getString("ruleId"));
  }
  EXPECT_EQ(stray, 1u);
}

TEST(ReportSarif, RulesAreSortedEvenIfGivenUnsorted) {
  RunInfo run = sample_run();
  std::reverse(run.rules.begin(), run.rules.end());
  EXPECT_EQ(sarif_of(sample_findings(), run), sarif_of(sample_findings(), sample_run()));
}

TEST(ReportSarif, UrisArePercentEncoded) {
  RunInfo run = sample_run();
  run.root_uri = "file:///tmp/my repo/";
  std::string out = sarif_of(sample_findings(), run);
  EXPECT_NE(out.find("\"uri\": \"cfg/a%2Cb%3Ac.toml\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"uri\": \"file:///opt/other%20project/CMakeLists.txt\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"uri\": \"file:///tmp/my%20repo/\""), std::string::npos) << out;
  Finding f = make(kArch, Severity::Error, "d\xC3\xA9j\xC3\xA0/#x.cu", {1, 1, 1, 2}, "m");
  EXPECT_NE(sarif_of({f}, run).find("\"uri\": \"d%C3%A9j%C3%A0/%23x.cu\""), std::string::npos);
}

TEST(ReportSarif, InvalidUtf8InMessageStillGivesValidJson) {
  Finding f = make(kArch, Severity::Error, "a.cu", {1, 1, 1, 2}, "bad \xFF byte");
  EXPECT_TRUE(parse(sarif_of({f}, sample_run())).getAsObject());
  EXPECT_TRUE(parse(json_of({f}, sample_run())).getAsObject());
}

TEST(ReportSarif, ZeroPositionsAreClampedToOne) {
  Finding f = make(kArch, Severity::Error, "a.cu", {0, 0, 0, 0}, "m");
  std::string out = sarif_of({f}, sample_run());
  EXPECT_EQ(out.find("\": 0"), std::string::npos) << out;
}

// ---- doc_what_it_does ----

TEST(DocWhatItDoes, JoinsTheFirstParagraph) {
  EXPECT_EQ(doc_what_it_does(kPinDoc), "Flags `FROM` lines whose CUDA image tag floats, such as `latest`.");
}

TEST(DocWhatItDoes, HandlesCrlfLeadingBlankLinesAndHeadings) {
  EXPECT_EQ(doc_what_it_does(kArchDoc), "Checks `TORCH_CUDA_ARCH_LIST` against the toolkit.");
}

TEST(DocWhatItDoes, EmptyWhenAbsent) {
  EXPECT_EQ(doc_what_it_does(kNoopDoc), "");
  EXPECT_EQ(doc_what_it_does(""), "");
  EXPECT_EQ(doc_what_it_does("## What it does\n"), "");
  EXPECT_EQ(doc_what_it_does("## What it does\n\n## Why\nx\n"), "");
}

}  // namespace
}  // namespace cudalint::report
