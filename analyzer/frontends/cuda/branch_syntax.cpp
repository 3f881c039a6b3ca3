#include "analyzer/frontends/cuda/branch_syntax.h"

#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

namespace cudalint::cuda {
namespace {

enum class Kind { Name, Keyword, Literal, Punct, End };

struct Tok {
  Kind kind = Kind::End;
  std::string text;
};

constexpr std::string_view kTypes[] = {"bool",  "char",   "const",    "double",  "float",   "int",
                                       "long",  "short",  "signed",   "unsigned", "void",   "volatile"};
constexpr std::string_view kKeywords[] = {
    "bool",   "break", "char",   "const",  "const_cast", "continue",         "do",        "double", "else",
    "false",  "float", "for",    "if",     "int",        "long",             "nullptr",   "return", "short",
    "signed", "sizeof", "static_cast", "reinterpret_cast", "true", "unsigned", "void", "volatile", "while"};
constexpr std::string_view kBinary[] = {"+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==", "!=",
                                        "&", "^", "|", "&&", "||"};
constexpr std::string_view kAssign[] = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="};
constexpr std::string_view kUnary[] = {"++", "--", "+", "-", "!", "~", "*", "&"};

template <class List>
bool one_of(std::string_view s, const List& list) {
  return std::find(std::begin(list), std::end(list), s) != std::end(list);
}

class Parser {
 public:
  explicit Parser(std::vector<Tok> toks) : t_(std::move(toks)) { t_.push_back({}); }

  bool all_statements() {
    while (!at_end())
      if (!statement()) return false;
    return true;
  }

 private:
  const Tok& peek(size_t ahead = 0) const { return t_[std::min(i_ + ahead, t_.size() - 1)]; }
  bool at_end() const { return peek().kind == Kind::End; }
  bool is(std::string_view s, size_t ahead = 0) const {
    const Tok& t = peek(ahead);
    return (t.kind == Kind::Punct || t.kind == Kind::Keyword) && t.text == s;
  }
  bool eat(std::string_view s) {
    if (!is(s)) return false;
    ++i_;
    return true;
  }
  bool is_type(size_t ahead = 0) const { return peek(ahead).kind == Kind::Keyword && one_of(peek(ahead).text, kTypes); }
  // Nesting is bounded: the grammar recurses, and a branch is a few lines.
  bool deeper() { return ++depth_ < 200; }

  bool statement() {
    if (!deeper()) return false;
    bool ok = statement_body();
    --depth_;
    return ok;
  }
  bool statement_body() {
    if (eat(";")) return true;
    if (eat("{")) {
      while (!is("}"))
        if (at_end() || !statement()) return false;
      return eat("}");
    }
    if (eat("if")) {
      if (!eat("(") || !expression() || !eat(")") || !statement()) return false;
      return !eat("else") || statement();
    }
    if (eat("while")) return eat("(") && expression() && eat(")") && statement();
    if (eat("do")) return statement() && eat("while") && eat("(") && expression() && eat(")") && eat(";");
    if (eat("for")) {
      if (!eat("(")) return false;
      if (is_type()) {
        if (!declaration()) return false;
      } else if (!eat(";")) {
        if (!expression() || !eat(";")) return false;
      }
      if (!is(";") && !expression()) return false;
      if (!eat(";")) return false;
      if (!is(")") && !expression()) return false;
      return eat(")") && statement();
    }
    if (eat("return")) return eat(";") || (expression() && eat(";"));
    if (eat("break") || eat("continue")) return eat(";");
    if (is_type() && !is("(", type_length())) return declaration();
    return expression() && eat(";");
  }

  // How many tokens the builtin type at the cursor spans (`unsigned long long`, `const float`).
  size_t type_length() const {
    size_t n = 0;
    while (is_type(n)) ++n;
    return n;
  }

  // `T [*...] name [[n]...] [= value];`: one variable (a second, after a comma, is not derived).
  bool declaration() {
    if (!type_name() || peek().kind != Kind::Name) return false;
    ++i_;
    while (eat("["))
      if (!expression() || !eat("]")) return false;
    if (eat("=") && !assignment()) return false;
    return eat(";");
  }

  bool expression() {
    if (!assignment()) return false;
    while (eat(","))
      if (!assignment()) return false;
    return true;
  }
  bool assignment() {
    if (!deeper()) return false;
    bool ok = conditional();
    if (ok && peek().kind == Kind::Punct && one_of(peek().text, kAssign)) {
      ++i_;
      ok = assignment();
    }
    --depth_;
    return ok;
  }
  bool conditional() {
    if (!binary()) return false;
    if (eat("?")) return expression() && eat(":") && assignment();
    return true;
  }
  bool binary() {
    if (!unary()) return false;
    while (peek().kind == Kind::Punct && one_of(peek().text, kBinary)) {
      ++i_;
      if (!unary()) return false;
    }
    return true;
  }
  bool unary() {
    if (!deeper()) return false;
    bool ok = unary_body();
    --depth_;
    return ok;
  }
  bool unary_body() {
    if (peek().kind == Kind::Punct && one_of(peek().text, kUnary)) {
      ++i_;
      return unary();
    }
    if (eat("sizeof")) {
      if (is("(") && is_type(1)) {
        ++i_;
        return type_name() && eat(")");
      }
      return unary();
    }
    if (is("(") && is_type(1)) {  // `(float)x`
      ++i_;
      return type_name() && eat(")") && unary();
    }
    if (eat("static_cast") || eat("reinterpret_cast") || eat("const_cast"))
      return eat("<") && type_name() && eat(">") && eat("(") && expression() && eat(")") && postfix();
    return primary() && postfix();
  }
  bool type_name() {
    if (!is_type()) return false;
    while (is_type()) ++i_;
    while (eat("*") || eat("&")) {
      while (eat("const") || eat("volatile")) {
      }
    }
    return true;
  }
  bool primary() {
    const Tok& t = peek();
    if (t.kind == Kind::Name) {
      ++i_;
      if (is(".")) {  // the builtin variables' x/y/z (the caller checked what precedes `.`)
        ++i_;
        if (peek().kind != Kind::Name) return false;
        ++i_;
      }
      return true;
    }
    if (t.kind == Kind::Literal) {
      ++i_;
      while (peek().kind == Kind::Literal && !peek().text.empty() && peek().text[0] == '"' && t.text[0] == '"') ++i_;
      return true;
    }
    if (eat("true") || eat("false") || eat("nullptr")) return true;
    if (eat("(")) return expression() && eat(")");
    if (is_type()) {  // `float(x)`
      while (is_type()) ++i_;
      return eat("(") && (eat(")") || (expression() && eat(")")));
    }
    return false;
  }
  bool postfix() {
    while (true) {
      if (eat("[")) {
        if (!expression() || !eat("]")) return false;
      } else if (!eat("++") && !eat("--")) {
        return true;
      }
    }
  }

  std::vector<Tok> t_;
  size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

bool plain_keyword(std::string_view word) { return one_of(word, kKeywords); }
bool plain_type_keyword(std::string_view word) { return one_of(word, kTypes); }

bool plain_statements_parse(std::string_view text) {
  clang::LangOptions lo;
  lo.CPlusPlus = lo.CPlusPlus11 = lo.CPlusPlus14 = lo.CPlusPlus17 = 1;
  const std::string buf(text);  // the lexer wants a terminating NUL
  clang::Lexer lex(clang::SourceLocation(), lo, buf.c_str(), buf.c_str(), buf.c_str() + buf.size());
  std::vector<Tok> toks;
  clang::Token tok;
  for (;;) {
    lex.LexFromRawLexer(tok);
    if (tok.is(clang::tok::eof)) break;
    Tok t;
    if (tok.is(clang::tok::raw_identifier)) {
      t.text = tok.getRawIdentifier().str();
      t.kind = one_of(t.text, kKeywords) ? Kind::Keyword : Kind::Name;
    } else if (tok.isOneOf(clang::tok::numeric_constant, clang::tok::char_constant, clang::tok::string_literal)) {
      t.kind = Kind::Literal;
      t.text = std::string(tok.getLiteralData(), tok.getLength());
    } else if (tok.is(clang::tok::unknown)) {
      return false;
    } else {
      t.kind = Kind::Punct;
      t.text = clang::tok::getPunctuatorSpelling(tok.getKind()) ? clang::tok::getPunctuatorSpelling(tok.getKind()) : "";
      if (t.text.empty()) return false;
    }
    toks.push_back(std::move(t));
  }
  return Parser(std::move(toks)).all_statements();
}

}  // namespace cudalint::cuda
