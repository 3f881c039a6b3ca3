#include "analyzer/frontends/cuda/ptx.h"

namespace cudalint::cuda {

namespace {

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }

// Opcode and qualifier characters; `::` appears in qualifiers such as `.shared::cta`.
bool mnemonic_char(char c) { return ident_start(c) || (c >= '0' && c <= '9') || c == '.' || c == ':'; }

bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

class Parser {
 public:
  explicit Parser(std::string_view t) : t_(t) {}

  std::vector<PtxInstruction> run() {
    while (i_ < t_.size()) statement();
    return std::move(out_);
  }

 private:
  // Skips a comment at i_; true when there was one.
  bool comment() {
    if (t_[i_] != '/' || i_ + 1 >= t_.size()) return false;
    if (t_[i_ + 1] == '/') {
      while (i_ < t_.size() && t_[i_] != '\n') ++i_;
      return true;
    }
    if (t_[i_ + 1] == '*') {
      size_t e = t_.find("*/", i_ + 2);
      i_ = e == std::string_view::npos ? t_.size() : e + 2;
      return true;
    }
    return false;
  }

  // One statement: [label:] [@pred] opcode operands ; — or a block brace, or a directive.
  void statement() {
    std::string pred;
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (space(c) || c == '\n' || c == ';' || c == '{' || c == '}') {
        ++i_;
        continue;
      }
      if (comment()) continue;
      if (c == '@') {  // guard predicate: `@p`, `@!p`, `@%p1`
        size_t b = i_++;
        while (i_ < t_.size() && !space(t_[i_]) && t_[i_] != '\n' && t_[i_] != ';' && t_[i_] != '{') ++i_;
        pred = std::string(t_.substr(b, i_ - b));
        continue;
      }
      break;
    }
    if (i_ >= t_.size()) return;
    size_t b = i_;
    if (ident_start(t_[i_]) || t_[i_] == '.') {
      while (i_ < t_.size() && mnemonic_char(t_[i_])) ++i_;
    }
    std::string_view word = t_.substr(b, i_ - b);
    if (word.empty()) {  // `%0`, a digit, a stray byte: not an instruction; skip its operands
      ++i_;
      operands();
      return;
    }
    if (word.back() == ':' && word.find("::") == std::string_view::npos) return;  // label `L1:`
    if (i_ < t_.size() && t_[i_] == ':' ) {  // label `L1 :`
      ++i_;
      return;
    }
    if (word.front() != '.') {  // directives (`.reg`, `.pragma`) are not instructions
      PtxInstruction ins;
      ins.mnemonic = std::string(word);
      ins.offset = b;
      ins.predicate = std::move(pred);
      size_t d = word.find('.');
      ins.opcode = std::string(word.substr(0, d));
      while (d != std::string_view::npos) {
        size_t e = word.find('.', d + 1);
        std::string_view q = word.substr(d + 1, e == std::string_view::npos ? std::string_view::npos : e - d - 1);
        if (!q.empty()) ins.qualifiers.emplace_back(q);
        d = e;
      }
      out_.push_back(std::move(ins));
    }
    operands();
  }

  // Skips operands up to the end of the statement: `;`, a newline that does not continue the
  // operand list, or a block's closing brace (left for statement()).
  void operands() {
    int depth = 0;  // inside `{...}` vector operands or `[...]` addresses
    char last = 0;  // last non-space character
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (comment()) continue;
      if (c == ';') {
        ++i_;
        return;
      }
      if (c == '\n') {
        if (depth == 0 && last != ',') return;
        ++i_;
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') {
        if (depth == 0) return;  // a block closes: the statement had no `;`
        --depth;
      }
      if (c == '"') {  // `.pragma "nounroll"`: a quoted operand may hold anything
        size_t e = t_.find('"', i_ + 1);
        i_ = e == std::string_view::npos ? t_.size() : e + 1;
        last = '"';
        continue;
      }
      if (!space(c)) last = c;
      ++i_;
    }
  }

  std::string_view t_;
  size_t i_ = 0;
  std::vector<PtxInstruction> out_;
};

}  // namespace

std::vector<PtxInstruction> parse_ptx(std::string_view text) { return Parser(text).run(); }

}  // namespace cudalint::cuda
