// Human-readable output: a GCC-style header line (clickable in terminals and editors), then
// optionally the source line with carets, fix hints and related notes, then a summary.
#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/report/report.h"

namespace cudalint::report {
namespace {

constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kDim = "\x1b[2m";
constexpr std::string_view kRed = "\x1b[1;31m";
constexpr std::string_view kYellow = "\x1b[1;33m";
constexpr std::string_view kCyan = "\x1b[1;36m";
constexpr std::string_view kBlue = "\x1b[1;34m";

std::string_view severity_colour(Severity s) {
  switch (s) {
    case Severity::Error: return kRed;
    case Severity::Warning: return kYellow;
    case Severity::Info: return kCyan;
  }
  return kBold;
}

// Wraps `text` in an ANSI style only when colour is on, so plain output stays byte-exact.
std::string paint(bool color, std::string_view style, std::string_view text) {
  if (!color) return std::string(text);
  std::string out(style);
  out += text;
  out += kReset;
  return out;
}

// Length in bytes of the UTF-8 sequence starting with `b` (1 for stray bytes, so that
// malformed text still advances).
size_t utf8_length(unsigned char b) {
  if (b >= 0xF0 && b <= 0xF4) return 4;
  if (b >= 0xE0 && b <= 0xEF) return 3;
  if (b >= 0xC2 && b <= 0xDF) return 2;
  return 1;
}

// One displayed character of the source line.
struct Char {
  std::string bytes;     // what to print (control characters replaced)
  uint32_t utf16 = 1;    // UTF-16 units it occupies in the finding's columns
  bool tab = false;
};

// Splits a line into characters. Control characters become U+FFFD: file content must not
// be able to drive the terminal (escape sequences), and one replacement keeps alignment.
std::vector<Char> split_chars(std::string_view line) {
  std::vector<Char> out;
  for (size_t i = 0; i < line.size();) {
    auto b = static_cast<unsigned char>(line[i]);
    size_t n = std::min(utf8_length(b), line.size() - i);
    Char c;
    c.bytes = std::string(line.substr(i, n));
    c.utf16 = n == 4 ? 2 : 1;
    c.tab = b == '\t';
    bool c0 = n == 1 && (b < 0x20 || b == 0x7F) && !c.tab;
    bool c1 = n == 2 && b == 0xC2 && static_cast<unsigned char>(line[i + 1]) < 0xA0;
    if (c0 || c1) c.bytes = "\xEF\xBF\xBD";
    out.push_back(std::move(c));
    i += n;
  }
  return out;
}

// Index of the character at 1-based UTF-16 column `col`; past the end counts on with
// one character per missing unit (so a caret can point just after the line).
size_t char_index(const std::vector<Char>& chars, uint32_t col) {
  uint32_t units = 0;
  size_t i = 0;
  for (; i < chars.size(); ++i) {
    if (units + 1 >= col) return i;  // also lands here for a column inside a surrogate pair
    units += chars[i].utf16;
  }
  return col > units + 1 ? i + (col - units - 1) : i;
}

void write_snippet(std::string& out, const Finding& f, const TextOptions& opts) {
  const Region& r = f.location.region;
  std::vector<Char> chars = split_chars(f.source_line);
  size_t first = char_index(chars, r.start_column);
  size_t last = r.end_line == r.start_line ? char_index(chars, r.end_column)
                                           : std::max(chars.size(), first);  // to end of line
  size_t count = last > first ? last - first : 1;

  std::string number = std::to_string(r.start_line);
  std::string blank(number.size(), ' ');
  std::string line;
  for (const auto& c : chars) line += c.bytes;
  std::string pad;  // tabs kept so the carets line up under tab-indented text
  for (size_t i = 0; i < first; ++i) pad += i < chars.size() && chars[i].tab ? '\t' : ' ';

  out += paint(opts.color, kBlue, " " + number + " |");
  out += " " + line + "\n";
  out += paint(opts.color, kBlue, " " + blank + " |");
  out += " " + pad + paint(opts.color, severity_colour(f.severity), std::string(count, '^')) + "\n";
}

std::string position(const Location& l) {
  return l.path + ":" + std::to_string(l.region.start_line) + ":" +
         std::to_string(l.region.start_column);
}

std::string plural(size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

std::string summary(const std::vector<Finding>& findings) {
  size_t errors = 0, warnings = 0, infos = 0, safe = 0, unsafe = 0;
  std::set<std::string_view> files;
  for (const auto& f : findings) {
    files.insert(f.location.path);
    (f.severity == Severity::Error ? errors : f.severity == Severity::Warning ? warnings : infos)++;
    if (f.fix && f.fix->applicability == Applicability::Safe) ++safe;
    if (f.fix && f.fix->applicability == Applicability::Unsafe) ++unsafe;
  }
  std::string parts;
  auto add = [&](size_t n, std::string_view word) {
    if (n == 0) return;
    if (!parts.empty()) parts += ", ";
    parts += plural(n, word);
  };
  add(errors, "error");
  add(warnings, "warning");
  add(infos, "info");
  std::string s = "Found " + plural(findings.size(), "problem") + " (" + parts + ") in " +
                  plural(files.size(), "file");
  if (safe > 0) {
    s += "; " + std::to_string(safe) + " fixable with --fix";
    if (unsafe > 0) s += " (" + std::to_string(unsafe) + " more with --fix --unsafe-fixes)";
  } else if (unsafe > 0) {
    s += "; " + std::to_string(unsafe) + " fixable with --fix --unsafe-fixes";
  }
  return s + ".";
}

}  // namespace

void write_text(std::ostream& out, const std::vector<Finding>& findings, const RunInfo& run,
                const TextOptions& opts) {
  const bool c = opts.color;
  std::string buf;
  if (opts.show_notes)
    for (const auto& n : run.notes) buf += paint(c, kBold, n.path + ":") + " " + paint(c, kDim, "note:") + " " + n.message + "\n";
  if (findings.empty()) {  // silence is success: no summary
    out << buf;
    return;
  }
  if (!buf.empty()) buf += "\n";
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    // Blocks of several lines need a separator; concise output stays one line per finding.
    if (i > 0 && opts.show_source) buf += "\n";
    buf += paint(c, kBold, position(f.location) + ":") + " ";
    buf += paint(c, severity_colour(f.severity), std::string(to_string(f.severity)) + ":") + " ";
    buf += f.message;
    if (f.rule) buf += " " + paint(c, kDim, "[" + std::string(f.rule->id) + "]");
    buf += "\n";
    if (opts.show_source && !f.source_line.empty()) write_snippet(buf, f, opts);
    if (opts.show_fix_hint && f.fix) {
      buf += "  " + paint(c, kCyan, "= help:") + " " + f.fix->title + " (" +
             std::string(to_string(f.fix->applicability)) + " fix)\n";
    }
    for (const auto& r : f.related) {
      buf += "  " + paint(c, kBold, "note:") + " " + position(r.location) + ": " + r.message + "\n";
    }
  }
  buf += "\n" + paint(c, kBold, summary(findings)) + "\n";
  out << buf;
}

}  // namespace cudalint::report
