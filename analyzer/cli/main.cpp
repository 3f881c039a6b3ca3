// cudalint command line: `check`, `rules`, `--explain`, `--version`.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "analyzer/core/disk_cache.h"
#include "analyzer/cli/build_graph_output.h"
#include "analyzer/cli/stdin_input.h"
#include "analyzer/core/huge_pages.h"
#include "analyzer/engine/baseline.h"
#include "analyzer/engine/diff_base.h"
#include "analyzer/engine/discover.h"
#include "analyzer/engine/fix.h"
#include "analyzer/engine/run.h"
#include "analyzer/lsp/server.h"
#include "analyzer/report/report.h"
#include "analyzer/report/statistics.h"
#include "rules/registry.h"

// CUDALINT_VERSION, CUDALINT_COMMIT, CUDALINT_REPOSITORY_URL, CUDALINT_DOC_REF (cmake/version.cmake).
#include "cudalint_version.h"

namespace cudalint {
namespace {

constexpr std::string_view kInformationUri = CUDALINT_REPOSITORY_URL;
// Rule docs at the version this binary was built from: kDocsBase + "rules/arch/x.md".
constexpr std::string_view kDocsBase = CUDALINT_REPOSITORY_URL "/blob/" CUDALINT_DOC_REF "/";

constexpr std::string_view kUsage = R"(cudalint: a static analyzer for CUDA/PyTorch builds

Usage:
  cudalint check [PATH...] [OPTIONS]   lint files and directories (default: .)
  cudalint rules [--format text|json]  list every rule
  cudalint lsp                         run the language server on stdin/stdout
  cudalint clean [--cache-dir DIR]     delete the cache directory
  cudalint --explain ID                print a rule's documentation
  cudalint build-graph [PATH...]       the builds that compile each CUDA source: archs, toolkit,
                                       and the file:line each comes from (--format text|json)
  cudalint --version

Options for check:
  --format text|json|sarif|github|gitlab
                                    output format (default: text)
  -o, --output FILE                 write the report to FILE (atomically)
  --fail-on error|warning|info      exit 1 when a finding is at or above this (default: warning)
  --exit-zero                       exit 0 even when there are findings
  --config FILE                     use this cudalint.toml / pyproject.toml for every file
  --select IDS                      rules to enable (ids or prefixes, comma-separated)
  --extend-select IDS               rules to enable in addition to the configured ones
  --ignore IDS                      rules to disable
  --target-archs LIST               target archs (TORCH_CUDA_ARCH_LIST syntax), overriding build files
  -j, --jobs N                      parallel jobs (default: all cores)
  --no-gitignore                    do not honour .gitignore files
  --cache-dir DIR                   keep parsed summaries and precompiled preludes in DIR (default:
                                    $CUDALINT_CACHE_DIR, else $XDG_CACHE_HOME/cudalint, else ~/.cache/cudalint)
  --no-cache                        neither read nor write the cache
  --baseline FILE                   report only findings not in this baseline
  --write-baseline FILE             write all current findings to FILE and exit 0
  --diff-base REV                   report only findings on lines changed since git revision REV
  --fix                             apply safe fixes
  --unsafe-fixes                    also apply unsafe fixes (with --fix or --diff) or show them
  --diff                            print the fixes as a unified diff on stdout and write no file
                                    (exit 1 when there is something to fix)
  --stdin-filename PATH             lint standard input as the text of PATH (the rest of the project
                                    is read from disk); with --fix, print the fixed text to stdout
                                    and the report to stderr, and write no file
  --statistics                      print each rule's number of findings instead of the findings
                                    (with --format text or json)
  --color auto|always|never         colours in text output (default: auto = only on a TTY)
  --concise                         text output without source lines
  -v, --verbose                     text output also notes what could not be checked (JSON always has them)

Exit status: 0 no findings at/above --fail-on, 1 findings, 2 usage, configuration or internal error.
)";

struct Args {
  std::string command;
  RunOptions run;
  std::string format = "text";
  std::optional<std::string> output;
  Severity fail_on = Severity::Warning;
  bool exit_zero = false;
  std::optional<std::string> baseline, write_baseline, diff_base;
  bool fix = false, unsafe_fixes = false, concise = false, verbose = false;
  std::string color = "auto";
  std::optional<std::string> explain;
  std::optional<std::string> cache_dir;  // --cache-dir
  bool no_cache = false;                 // --no-cache
  std::optional<std::string> stdin_filename;  // --stdin-filename
  bool statistics = false;                    // --statistics
  bool diff = false;                          // --diff: the fixes as a unified diff, no file written
};

std::vector<std::string> split_ids(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

int usage_error(const std::string& msg) {
  std::cerr << "cudalint: error: " << msg << "\n(run `cudalint --help` for usage)\n";
  return 2;
}

std::vector<report::RuleEntry> rule_entries() {
  std::vector<report::RuleEntry> out;
  for (const auto& e : rules::registry()) {
    const RuleInfo* info = &e.make()->info();
    out.push_back({info, rules::doc_for(info->name), rules::doc_path_for(info->name)});
  }
  return out;
}

// Parses argv; returns -1 to continue, else an exit code.
int parse_args(int argc, char** argv, Args& a) {
  std::vector<std::string> v(argv + 1, argv + argc);
  auto need = [&](size_t& i, const std::string& flag, std::string& out) {
    auto eq = v[i].find('=');
    if (v[i].starts_with("--") && eq != std::string::npos) {
      out = v[i].substr(eq + 1);
      return true;
    }
    if (i + 1 >= v.size()) return false;
    out = v[++i];
    return true;
  };
  bool only_paths = false;
  for (size_t i = 0; i < v.size(); ++i) {
    // Short options take their value attached too, as getopt does: -j4, -oreport.json.
    if (!only_paths && v[i].size() > 2 && (v[i].starts_with("-j") || v[i].starts_with("-o"))) {
      v.insert(v.begin() + static_cast<std::ptrdiff_t>(i) + 1, v[i].substr(2));
      v[i].resize(2);
    }
    const std::string& s = v[i];
    std::string flag = s.substr(0, s.find('='));
    std::string val;
    if (only_paths || (!s.starts_with("-") || s == "-")) {
      if (a.command.empty()) {
        a.command = s;
        continue;
      }
      a.run.paths.push_back(s);
      continue;
    }
    if (s == "--") { only_paths = true; continue; }
    if (s == "-h" || s == "--help") { std::cout << kUsage; return 0; }
    if (s == "-V" || s == "--version") { std::cout << "cudalint " CUDALINT_VERSION " (" CUDALINT_COMMIT ")\n"; return 0; }
    if (flag == "--explain") { if (!need(i, flag, val)) return usage_error("--explain needs a rule id"); a.explain = val; continue; }
    if (flag == "--format") {
      if (!need(i, flag, val)) return usage_error("--format needs a value");
      if (val != "text" && val != "json" && val != "sarif" && val != "github" && val != "gitlab")
        return usage_error(fmt::format("unknown format `{}` (expected text, json, sarif, github or gitlab)", val));
      a.format = val;
      continue;
    }
    if (flag == "-o" || flag == "--output") { if (!need(i, flag, val)) return usage_error("--output needs a file"); a.output = val; continue; }
    if (flag == "--fail-on") {
      if (!need(i, flag, val) || !parse_severity(val, a.fail_on))
        return usage_error(fmt::format("--fail-on expects error, warning or info, not `{}`", val));
      continue;
    }
    if (s == "--exit-zero") { a.exit_zero = true; continue; }
    if (flag == "--config") { if (!need(i, flag, val)) return usage_error("--config needs a file"); a.run.config_file = val; continue; }
    if (flag == "--select" || flag == "--extend-select" || flag == "--ignore") {
      if (!need(i, flag, val)) return usage_error(flag + " needs rule ids");
      auto ids = split_ids(val);
      for (const auto& id : ids)
        if (!is_rule_selector(id)) return usage_error(fmt::format("unknown rule selector `{}` in {}", id, flag));
      if (flag == "--select") {
        if (!a.run.cli.select) a.run.cli.select.emplace();
        a.run.cli.select->insert(a.run.cli.select->end(), ids.begin(), ids.end());
      } else if (flag == "--extend-select") {
        a.run.cli.extend_select.insert(a.run.cli.extend_select.end(), ids.begin(), ids.end());
      } else {
        a.run.cli.ignore.insert(a.run.cli.ignore.end(), ids.begin(), ids.end());
      }
      continue;
    }
    if (flag == "--target-archs") { if (!need(i, flag, val)) return usage_error("--target-archs needs a list"); a.run.target_archs = val; continue; }
    if (flag == "-j" || flag == "--jobs") {
      if (!need(i, flag, val)) return usage_error("--jobs needs a number");
      char* end = nullptr;
      long n = std::strtol(val.c_str(), &end, 10);
      if (!end || *end || n < 1 || n > 1024) return usage_error(fmt::format("--jobs expects 1..1024, not `{}`", val));
      a.run.jobs = static_cast<unsigned>(n);
      continue;
    }
    if (s == "--no-gitignore") { a.run.respect_gitignore = false; continue; }
    if (flag == "--cache-dir") {
      if (!need(i, flag, val) || val.empty()) return usage_error("--cache-dir needs a directory");
      a.cache_dir = val;
      continue;
    }
    if (s == "--no-cache") { a.no_cache = true; continue; }
    if (flag == "--baseline") { if (!need(i, flag, val)) return usage_error("--baseline needs a file"); a.baseline = val; continue; }
    if (flag == "--diff-base") { if (!need(i, flag, val)) return usage_error("--diff-base needs a git revision"); a.diff_base = val; continue; }
    if (flag == "--write-baseline") { if (!need(i, flag, val)) return usage_error("--write-baseline needs a file"); a.write_baseline = val; continue; }
    if (s == "--fix") { a.fix = true; continue; }
    if (s == "--diff") { a.diff = true; continue; }
    if (flag == "--stdin-filename") {
      if (!need(i, flag, val) || val.empty()) return usage_error("--stdin-filename needs a path");
      a.stdin_filename = val;
      continue;
    }
    if (s == "--statistics") { a.statistics = true; continue; }
    if (s == "--unsafe-fixes") { a.unsafe_fixes = true; continue; }
    if (s == "--concise") { a.concise = true; continue; }
    if (s == "-v" || s == "--verbose") { a.verbose = true; continue; }
    if (flag == "--color") {
      if (!need(i, flag, val) || (val != "auto" && val != "always" && val != "never"))
        return usage_error("--color expects auto, always or never");
      a.color = val;
      continue;
    }
    return usage_error(fmt::format("unknown option `{}`", s));
  }
  return -1;
}

int explain(const std::string& id) {
  for (const auto& e : rules::registry()) {
    if (e.id != id) continue;
    const RuleInfo& info = e.make()->info();
    std::string_view doc = rules::doc_for(info.name);
    std::cout << doc;
    if (!doc.ends_with("\n")) std::cout << "\n";
    std::cout << fmt::format("\nSeverity: {}. Fix: {}. Status: {}.\n", to_string(info.default_severity),
                             to_string(info.fix), to_string(info.status));
    return 0;
  }
  std::cerr << fmt::format("cudalint: error: unknown rule `{}` (run `cudalint rules` for the list)\n", id);
  return 2;
}

int list_rules(const std::string& format) {
  auto entries = rule_entries();
  if (format == "json") {
    std::cout << "[\n";
    for (size_t i = 0; i < entries.size(); ++i) {
      const auto* r = entries[i].info;
      std::cout << fmt::format(
          "  {{\"id\": \"{}\", \"name\": \"{}\", \"family\": \"{}\", \"severity\": \"{}\", \"fix\": \"{}\", "
          "\"status\": \"{}\", \"default_enabled\": {}}}{}\n",
          r->id, r->name, r->family, to_string(r->default_severity), to_string(r->fix), to_string(r->status),
          r->default_enabled ? "true" : "false", i + 1 < entries.size() ? "," : "");
    }
    std::cout << "]\n";
    return 0;
  }
  std::cout << fmt::format("{:<9} {:<40} {:<7} {:<8} {:<10} {}\n", "ID", "NAME", "FAMILY", "SEVERITY", "FIXABLE",
                           "STATUS");
  for (const auto& e : entries) {
    const auto* r = e.info;
    std::cout << fmt::format("{:<9} {:<40} {:<7} {:<8} {:<10} {}\n", r->id, r->name, r->family,
                             to_string(r->default_severity), to_string(r->fix), to_string(r->status));
  }
  return 0;
}

// The on-disk cache the options ask for (none with --no-cache or without a directory).
std::optional<DiskCache> open_cache(const Args& a) {
  if (a.no_cache) return std::nullopt;
  std::string dir = a.cache_dir ? *a.cache_dir : DiskCache::default_dir();
  if (dir.empty()) return std::nullopt;
  return DiskCache(make_absolute(dir));
}

// `cudalint clean`: removes the cache directory, but only one that cudalint made (it has
// cudalint's CACHEDIR.TAG): a mistyped --cache-dir must not delete someone's files.
int clean_cache(const Args& a) {
  std::string dir = a.cache_dir ? make_absolute(*a.cache_dir) : DiskCache::default_dir();
  if (dir.empty()) return usage_error("no cache directory: set --cache-dir, CUDALINT_CACHE_DIR or HOME");
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    std::cout << fmt::format("no cache at {}\n", dir);
    return 0;
  }
  std::ifstream tag(dir + "/CACHEDIR.TAG");
  std::string line1, line2;
  std::getline(tag, line1);
  std::getline(tag, line2);
  if (line1 != "Signature: 8a477f597d28d172789f06886806bc55" || line2.find("cudalint") == std::string::npos) {
    std::cerr << fmt::format("cudalint: error: {} is not a cudalint cache (no cudalint CACHEDIR.TAG); not removed\n", dir);
    return 2;
  }
  std::filesystem::remove_all(dir, ec);
  if (ec) {
    std::cerr << fmt::format("cudalint: error: cannot remove {}: {}\n", dir, ec.message());
    return 2;
  }
  std::cout << fmt::format("removed {}\n", dir);
  return 0;
}

// --stdin-filename: reads standard input (within the size limit that applies to the file) as
// the text of that file. Returns -1 to continue, else an exit code.
int take_stdin(Args& a, std::string& abs, bool& complete) {
  const std::string& name = *a.stdin_filename;
  abs = make_absolute(name);
  if (a.run.paths.size() > 1)
    return usage_error("--stdin-filename lints one file: give no PATH, `-` or that same file");
  if (a.run.paths.size() == 1 && a.run.paths[0] != "-" && make_absolute(a.run.paths[0]) != abs)
    return usage_error(fmt::format("--stdin-filename {} names the file to lint; PATH `{}` must be `-` or that file",
                                   name, a.run.paths[0]));
  a.run.paths = {name};
  std::string text, err;
  if (!read_stdin_text(STDIN_FILENO, max_file_bytes_for(a.run, abs), text, complete, err)) {
    std::cerr << "cudalint: error: cannot read standard input: " << err << "\n";
    return 2;
  }
  a.run.overlays[abs] = std::move(text);
  return -1;
}

int check(Args& a) {
  if (a.statistics && a.format != "text" && a.format != "json")
    return usage_error("--statistics prints --format text or json");
  if (a.diff && (a.statistics || a.write_baseline || a.output || a.format != "text"))
    return usage_error("--diff prints a unified diff on stdout: no --statistics, --write-baseline, --output or --format");
  // --stdin-filename: its absolute path, and whether standard input was read to its end.
  std::string stdin_abs;
  bool stdin_complete = true;
  if (a.stdin_filename)
    if (int rc = take_stdin(a, stdin_abs, stdin_complete); rc >= 0) return rc;
  // With --stdin-filename --fix, stdout carries the input as fixed; unchanged when it was not
  // analysed (excluded, of no known kind, too large: then the part not read is copied through).
  auto print_stdin_text = [&]() {
    if (!a.stdin_filename || !a.fix) return true;
    std::cout << a.run.overlays[stdin_abs];
    bool ok = stdin_complete || copy_rest(STDIN_FILENO, std::cout);
    std::cout.flush();
    if (!ok) std::cerr << "cudalint: error: cannot read standard input\n";
    return ok;
  };
  std::optional<DiskCache> cache = open_cache(a);
  if (cache) a.run.disk_cache = &*cache;
  RunOutput out = run_analysis(a.run);
  if (cache) cache->flush();
  size_t fixed = 0;
  // --diff: fixes are applied as with --fix, but to the texts in memory (as with --stdin-filename);
  // each file's text before its first fix, by path, for the diff.
  const bool in_memory = a.stdin_filename || a.diff;
  std::map<std::string, std::pair<std::string, std::string>> originals;  // fs path -> (display path, text)
  if ((a.fix || a.diff) && !out.config_error) {
    // Apply, re-analyse, repeat until nothing changes (fixes may unlock others).
    for (int pass = 0; pass < 5; ++pass) {
      std::map<std::string, std::vector<const PendingFix*>> per_file;
      for (const auto& pf : out.fixes)
        if (pf.fix.applicability == Applicability::Safe ||
            (a.unsafe_fixes && pf.fix.applicability == Applicability::Unsafe))
          per_file[pf.fs_path].push_back(&pf);
      size_t applied = 0;
      for (const auto& [fs_path, list] : per_file) {
        if (a.stdin_filename && fs_path != stdin_abs) continue;  // with stdin, no file is written
        auto sit = out.sources.find(list.front()->display_path);
        if (sit == out.sources.end()) continue;
        std::string text = sit->second->text;
        std::vector<const Fix*> fixes;
        for (const auto* pf : list) fixes.push_back(&pf->fix);
        size_t n = apply_fixes(text, fixes);
        if (n == 0 || text == sit->second->text) continue;
        if (in_memory) {  // the fixed text replaces the input for the next pass
          originals.try_emplace(fs_path, sit->first, sit->second->text);
          a.run.overlays[fs_path] = std::move(text);
          applied += n;
          continue;
        }
        std::string err;
        if (!write_file_atomically(fs_path, text, err)) {
          std::cerr << "cudalint: error: " << err << "\n";
          return 2;
        }
        applied += n;
      }
      if (applied == 0) break;
      fixed += applied;
      out = run_analysis(a.run);
    }
  }
  if (a.diff) {
    if (out.config_error) return 2;
    std::map<std::string, std::string> by_display;  // sorted by the path the report would show
    for (const auto& [fs_path, orig] : originals)
      by_display[orig.first] = unified_diff(orig.second, a.run.overlays[fs_path], orig.first);
    for (const auto& [path, d] : by_display) std::cout << d;
    std::cout.flush();
    if (fixed) std::cerr << fmt::format("cudalint: would fix {} problem{} in {} file{}\n", fixed, fixed == 1 ? "" : "s",
                                        by_display.size(), by_display.size() == 1 ? "" : "s");
    return fixed && !a.exit_zero ? 1 : 0;
  }

  if (a.write_baseline) {
    std::string err;
    if (!write_baseline(*a.write_baseline, out.findings, err)) {
      std::cerr << "cudalint: error: " << err << "\n";
      return 2;
    }
    std::cerr << fmt::format("cudalint: wrote {} findings to {}\n", out.findings.size(), *a.write_baseline);
    if (!print_stdin_text()) return 2;
    return out.config_error ? 2 : 0;
  }
  size_t baselined = 0;
  if (a.diff_base) {
    ChangedLines changed;
    std::string err;
    if (!changed_since(*a.diff_base, make_absolute(a.run.root.empty() ? "." : a.run.root), changed, err)) {
      std::cerr << "cudalint: error: " << err << "\n";
      return 2;
    }
    filter_changed(changed, a.run.root.empty() ? "." : a.run.root, out.findings);
  }
  if (a.baseline) {
    Baseline b;
    std::string err;
    if (!read_baseline(*a.baseline, b, err)) {
      std::cerr << "cudalint: error: " << err << "\n";
      return 2;
    }
    baselined = filter_baseline(b, out.findings);
  }

  report::RunInfo info;
  info.tool_version = CUDALINT_VERSION;
  info.information_uri = std::string(kInformationUri);
  info.help_uri_base = std::string(kDocsBase);
  std::string root = make_absolute(a.run.root.empty() ? "." : a.run.root);
  info.root_uri = "file://" + root + (root.ends_with("/") ? "" : "/");
  info.rules = rule_entries();
  info.files_checked = out.files_checked;
  info.execution_successful = !out.config_error;
  for (auto& [path, message] : out.notes) info.notes.push_back({path, message});

  std::ostringstream buf;
  if (a.statistics) {
    auto counts = report::count_by_rule(out.findings, a.unsafe_fixes);
    if (a.format == "json") report::write_statistics_json(buf, counts);
    else report::write_statistics_text(buf, counts);
  } else if (a.format == "json") report::write_json(buf, out.findings, info);
  else if (a.format == "sarif") report::write_sarif(buf, out.findings, info);
  else if (a.format == "github") report::write_github(buf, out.findings, info);
  else if (a.format == "gitlab") report::write_gitlab(buf, out.findings, info);
  else {
    report::TextOptions to;
    bool tty = !a.output && ::isatty(a.stdin_filename && a.fix ? STDERR_FILENO : STDOUT_FILENO);
    to.color = a.color == "always" || (a.color == "auto" && tty && !std::getenv("NO_COLOR"));
    to.show_source = !a.concise;
    to.show_notes = a.verbose;
    report::write_text(buf, out.findings, info, to);
  }
  if (a.output) {
    std::string err;
    if (!write_file_atomically(make_absolute(*a.output), buf.str(), err)) {
      std::cerr << "cudalint: error: " << err << "\n";
      return 2;
    }
  } else if (a.stdin_filename && a.fix) {
    std::cerr << buf.str();  // stdout carries the fixed text
  } else {
    std::cout << buf.str();
    std::cout.flush();
  }
  if (!print_stdin_text()) return 2;
  if (fixed) std::cerr << fmt::format("cudalint: fixed {} problem{}\n", fixed, fixed == 1 ? "" : "s");
  if (baselined) std::cerr << fmt::format("cudalint: {} finding{} matched the baseline\n", baselined, baselined == 1 ? "" : "s");

  if (out.config_error) return 2;
  if (a.exit_zero) return 0;
  for (const auto& f : out.findings)
    if (f.severity >= a.fail_on) return 1;
  return 0;
}

// `cudalint build-graph [PATH...]`: the builds that compile each CUDA source. Files among the
// paths select which sources to print; the build context is their directory tree.
int build_graph(Args& a) {
  if (a.format != "text" && a.format != "json") return usage_error("build-graph prints --format text or json");
  std::set<std::string> only;
  std::vector<std::string> dirs;
  for (const auto& p : a.run.paths) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) only.insert(p);
    else dirs.push_back(p);
  }
  // Selected files are shown in the context of the whole tree below the current directory.
  a.run.paths = only.empty() ? dirs : std::vector<std::string>{};
  for (const auto& d : dirs)
    if (!only.empty()) a.run.paths.push_back(d);
  a.run.graph_only = true;
  RunOutput out = run_analysis(a.run);
  if (out.config_error) {
    for (const auto& f : out.findings) std::cerr << fmt::format("{}: {}\n", f.location.path, f.message);
    return 2;
  }
  std::set<std::string> shown;
  for (const auto& p : only) shown.insert(std::filesystem::path(p).lexically_normal().string());
  std::string text = render_build_graph(out.graph, a.format, only.empty() ? nullptr : &shown, out.sources);
  if (a.output) {
    std::string err;
    if (!write_file_atomically(*a.output, text, err)) {
      std::cerr << "cudalint: error: " << err << "\n";
      return 2;
    }
  } else {
    std::cout << text;
  }
  return 0;
}

int main_impl(int argc, char** argv) {
  Args a;
  int rc = parse_args(argc, argv, a);
  if (rc >= 0) return rc;
  if (a.command != "check" && (a.stdin_filename || a.statistics))
    return usage_error(fmt::format("{} is an option of `cudalint check`",
                                   a.stdin_filename ? "--stdin-filename" : "--statistics"));
  if (a.explain) return explain(*a.explain);
  if (a.command == "explain") {
    if (a.run.paths.size() != 1) return usage_error("explain takes one rule id");
    return explain(a.run.paths[0]);
  }
  if (a.command == "rules") return list_rules(a.format);
  if (a.command == "clean") {
    if (!a.run.paths.empty()) return usage_error("clean takes no paths (--cache-dir names the cache)");
    return clean_cache(a);
  }
  if (a.command == "check") return check(a);
  if (a.command == "build-graph") return build_graph(a);
  if (a.command == "lsp") {
    if (!a.run.paths.empty()) return usage_error("lsp takes no paths (the client names the workspace)");
    lsp::ServerOptions so;
    so.fallback_root = make_absolute(".");
    so.jobs = a.run.jobs;
    so.version = CUDALINT_VERSION;
    so.docs_base = std::string(kDocsBase);
    if (auto cache = open_cache(a)) so.cache_dir = cache->dir();
    return lsp::serve(std::cin, std::cout, so);
  }
  if (a.command.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  return usage_error(fmt::format("unknown command `{}`", a.command));
}

}  // namespace
}  // namespace cudalint

int main(int argc, char** argv) {
  cudalint::prefer_huge_pages();
  try {
    return cudalint::main_impl(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "cudalint: internal error: " << e.what() << "\n";
    return 2;
  } catch (...) {
    std::cerr << "cudalint: internal error\n";
    return 2;
  }
}
