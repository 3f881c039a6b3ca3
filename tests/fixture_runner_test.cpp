// Runs every fixture case under fixtures/<ID>/<case>/ with only that rule enabled (unless the
// case has its own cudalint.toml) and matches `expect:` annotations exactly both ways.
//
// Annotation (comment leader of the file's language):
//   # expect: ID [col=N] ["message substring"]     applies to the next non-annotation line
//   # todo-expect: ID ...                           a known false negative (ignored)
// Files that cannot hold comments (binary, invalid UTF-8, JSON) list expectations in a file
// named EXPECT: `relative/path:LINE: ID ["substring"]`.
// A file `X.fixed` is the expected content of X after applying every fix (all applicabilities).
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analyzer/engine/fix.h"
#include "analyzer/engine/run.h"
#include "rules/registry.h"

namespace fs = std::filesystem;
using namespace cudalint;

namespace {

struct Expectation {
  std::string path;
  uint32_t line = 0;
  std::string rule;
  std::optional<uint32_t> col;
  std::string substring;
  bool matched = false;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fixtures_dir() { return std::string(CUDALINT_SOURCE_DIR) + "/fixtures"; }

// Parses `ID [col=N] ["substr"]` after the `expect:` keyword.
bool parse_expect_body(std::string_view body, Expectation& e) {
  size_t i = body.find_first_not_of(' ');
  if (i == std::string_view::npos) return false;
  size_t j = body.find_first_of(" \"", i);
  e.rule = std::string(body.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
  if (j == std::string_view::npos) return !e.rule.empty();
  std::string_view rest = body.substr(j);
  if (auto c = rest.find("col="); c != std::string_view::npos && (rest.find('"') == std::string_view::npos || c < rest.find('"')))
    e.col = static_cast<uint32_t>(std::atoi(std::string(rest.substr(c + 4)).c_str()));
  auto q1 = rest.find('"');
  if (q1 != std::string_view::npos) {
    auto q2 = rest.rfind('"');
    if (q2 > q1) e.substring = std::string(rest.substr(q1 + 1, q2 - q1 - 1));
  }
  return !e.rule.empty();
}

bool is_annotation(std::string_view line) {
  return line.find("expect:") != std::string_view::npos &&
         (line.find("# expect:") != std::string_view::npos || line.find("// expect:") != std::string_view::npos ||
          line.find("# todo-expect:") != std::string_view::npos ||
          line.find("// todo-expect:") != std::string_view::npos);
}

void collect_inline(const std::string& rel, const std::string& text, std::vector<Expectation>& out) {
  std::vector<std::string> lines;
  std::string cur;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n' || c == '\r') {
      lines.push_back(cur);
      cur.clear();
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      cur += c;
    }
  }
  lines.push_back(cur);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (!is_annotation(l) || l.find("todo-expect:") != std::string::npos) continue;
    Expectation e;
    if (!parse_expect_body(std::string_view(l).substr(l.find("expect:") + 7), e)) continue;
    size_t target = i + 1;
    while (target < lines.size() && is_annotation(lines[target])) ++target;
    e.path = rel;
    e.line = static_cast<uint32_t>(target + 1);
    out.push_back(e);
  }
}

void collect_sidecar(const std::string& text, std::vector<Expectation>& out) {
  std::stringstream ss(text);
  std::string l;
  while (std::getline(ss, l)) {
    if (l.empty() || l[0] == '#') continue;
    auto c1 = l.find(':');
    auto c2 = l.find(':', c1 + 1);
    if (c1 == std::string::npos || c2 == std::string::npos) continue;
    Expectation e;
    e.path = l.substr(0, c1);
    e.line = static_cast<uint32_t>(std::atoi(l.substr(c1 + 1, c2 - c1 - 1).c_str()));
    if (parse_expect_body(std::string_view(l).substr(c2 + 1), e)) out.push_back(e);
  }
}

struct Case {
  std::string rule;
  fs::path dir;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.dir.string(); }

bool has_fixed_twin(const fs::path& dir) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->path().extension() == ".fixed") return true;
  return false;
}

std::vector<Case> all_cases() {
  std::vector<Case> out;
  std::error_code ec;
  for (const auto& rd : fs::directory_iterator(fixtures_dir(), ec)) {
    if (!rd.is_directory()) continue;
    for (const auto& cd : fs::directory_iterator(rd.path(), ec))
      if (cd.is_directory()) out.push_back({rd.path().filename().string(), cd.path()});
  }
  std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.dir < b.dir; });
  return out;
}

// Every file of a case except annotations' helpers, relative to the case dir.
std::vector<std::string> case_files(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (!it->is_regular_file(ec) && !it->is_symlink(ec)) continue;
    std::string rel = fs::relative(it->path(), dir, ec).string();
    if (rel == "EXPECT" || rel.ends_with(".fixed")) continue;
    out.push_back(rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

RunOutput analyse(const Case& c, const fs::path& dir) {
  RunOptions o;
  o.root = dir.string();
  for (const auto& rel : case_files(dir)) o.paths.push_back((dir / rel).string());
  if (!fs::exists(dir / "cudalint.toml")) o.only_rule = c.rule;
  o.jobs = 1;
  return run_analysis(o);
}

class FixtureTest : public ::testing::TestWithParam<Case> {};
class FixTwinTest : public ::testing::TestWithParam<Case> {};

std::vector<Case> cases_with_twins() {
  std::vector<Case> out;
  for (auto& c : all_cases())
    if (has_fixed_twin(c.dir)) out.push_back(c);
  return out;
}

TEST_P(FixtureTest, ExpectationsMatchExactly) {
  const Case& c = GetParam();
  std::vector<Expectation> expected;
  for (const auto& rel : case_files(c.dir)) {
    std::string text = read_file(c.dir / rel);
    if (text.find('\0') == std::string::npos) collect_inline(rel, text, expected);
  }
  if (fs::exists(c.dir / "EXPECT")) collect_sidecar(read_file(c.dir / "EXPECT"), expected);

  RunOutput out = analyse(c, c.dir);
  std::vector<std::string> problems;
  for (const auto& f : out.findings) {
    bool ok = false;
    for (auto& e : expected) {
      if (e.matched || e.rule != f.rule->id || e.path != f.location.path || e.line != f.location.region.start_line)
        continue;
      if (e.col && *e.col != f.location.region.start_column) continue;
      if (!e.substring.empty() && f.message.find(e.substring) == std::string::npos) continue;
      e.matched = ok = true;
      break;
    }
    if (!ok)
      problems.push_back(fmt::format("unexpected: {}:{}:{}: {} {}", f.location.path, f.location.region.start_line,
                                     f.location.region.start_column, f.rule->id, f.message));
    // Declared metadata must match behaviour.
    if (f.fix && f.rule->fix == FixAvailability::None)
      problems.push_back(fmt::format("{} declares no fix but produced one", f.rule->id));
    if (!f.fix && f.rule->fix == FixAvailability::Always)
      problems.push_back(fmt::format("{} declares fix=always but a finding has none", f.rule->id));
    if (f.fix && f.fix->title.empty()) problems.push_back(fmt::format("{} fix without a title", f.rule->id));
  }
  for (const auto& e : expected)
    if (!e.matched)
      problems.push_back(fmt::format("missing: {}:{}: {} \"{}\"", e.path, e.line, e.rule, e.substring));
  // A CUDA case that fails: say whether the front-end itself failed (PARSE006), which the
  // case's own rule selection hides.
  if (!problems.empty() && (c.rule.starts_with("INTR") || c.rule.starts_with("MEM"))) {
    Case failed = c;
    failed.rule = "PARSE006";
    for (const auto& f : analyse(failed, c.dir).findings)
      problems.push_back(fmt::format("front-end failure: {}:{}: {}", f.location.path, f.location.region.start_line,
                                     f.message));
  }
  for (const auto& p : problems) ADD_FAILURE() << c.dir.string() << ": " << p;
}

// Applies all fixes repeatedly in a scratch copy and compares with the `.fixed` twins.
TEST_P(FixTwinTest, FixesProduceFixedTwins) {
  const Case& c = GetParam();
  std::vector<std::string> twins;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(c.dir, ec); it != fs::recursive_directory_iterator(); ++it)
    if (it->path().extension() == ".fixed") twins.push_back(fs::relative(it->path(), c.dir).string());
  ASSERT_FALSE(twins.empty());
  char tmpl[] = "/tmp/cudalint-fixture-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  fs::path scratch(tmpl);
  fs::copy(c.dir, scratch, fs::copy_options::recursive);
  for (int pass = 0; pass < 5; ++pass) {
    RunOutput out = analyse(c, scratch);
    std::map<std::string, std::vector<const Fix*>> per_file;
    for (const auto& pf : out.fixes) per_file[pf.display_path].push_back(&pf.fix);
    size_t applied = 0;
    for (const auto& [rel, fixes] : per_file) {
      std::string text = read_file(scratch / rel);
      applied += apply_fixes(text, fixes);
      std::ofstream(scratch / rel, std::ios::binary) << text;
    }
    if (applied == 0) break;
    ASSERT_LT(pass, 4) << "fixes did not converge";
  }
  for (const auto& twin : twins) {
    std::string target = twin.substr(0, twin.size() - 6);
    EXPECT_EQ(read_file(scratch / target), read_file(c.dir / twin)) << c.dir.string() << "/" << target;
  }
  fs::remove_all(scratch, ec);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string n = info.param.rule + "_" + info.param.dir.filename().string();
  for (auto& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, FixtureTest, ::testing::ValuesIn(all_cases()), case_name);
INSTANTIATE_TEST_SUITE_P(Fixtures, FixTwinTest, ::testing::ValuesIn(cases_with_twins()), case_name);

TEST(FixtureHarness, FindsCasesAndTwins) {
  EXPECT_GE(all_cases().size(), 20u);
  EXPECT_GE(cases_with_twins().size(), 3u);
}

}  // namespace
