// Unit tests for the CMake front-end (analyzer/frontends/cmake): parser and evaluator.
#include "analyzer/frontends/cmake/cmake.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace cudalint::cmake {
namespace {

std::string_view at(std::string_view text, Span s) {
  EXPECT_LE(s.begin, s.end);
  EXPECT_LE(s.end, text.size());
  if (s.begin > s.end || s.end > text.size()) return {};
  return text.substr(s.begin, s.end - s.begin);
}

// Every error points inside the file at a non-empty range, with a lower-case message and no
// trailing period.
void check_errors(std::string_view text, const ParseResult& r) {
  for (const auto& e : r.errors) {
    ASSERT_FALSE(e.message.empty());
    EXPECT_LE(e.span.end, text.size()) << e.message;
    EXPECT_LE(e.span.begin, e.span.end) << e.message;
    if (!text.empty()) {
      EXPECT_LT(e.span.begin, e.span.end) << e.message;
    }
    EXPECT_NE(e.message.back(), '.') << e.message;
    EXPECT_FALSE(e.message[0] >= 'A' && e.message[0] <= 'Z') << e.message;
  }
}

// Structural sanity of any parse: spans inside the text and ordered.
void check_tree(std::string_view text, const ParseResult& r) {
  uint32_t last = 0;
  for (const auto& c : r.file.commands) {
    EXPECT_LE(last, c.span.begin);
    EXPECT_LE(c.span.begin, c.span.end);
    EXPECT_LE(c.span.end, text.size());
    EXPECT_EQ(c.name_span.begin, c.span.begin);
    for (const auto& a : c.args) {
      EXPECT_LE(c.span.begin, a.span.begin);
      EXPECT_LE(a.span.end, c.span.end);
      EXPECT_LT(a.span.begin, a.span.end);
    }
    last = c.span.end;
  }
}

ParseResult ok(std::string_view text) {
  ParseResult r = parse(text);
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0].message);
  check_errors(text, r);
  check_tree(text, r);
  return r;
}

ParseResult failing(std::string_view text) {
  ParseResult r = parse(text);
  EXPECT_FALSE(r.errors.empty()) << text;
  check_errors(text, r);
  check_tree(text, r);
  return r;
}

std::vector<std::string> texts(const Command& c) {
  std::vector<std::string> out;
  for (const auto& a : c.args) out.push_back(a.text);
  return out;
}

using V = std::vector<std::string>;

// ---- Parser ------------------------------------------------------------------------------

TEST(CMakeParse, EmptyInputs) {
  EXPECT_TRUE(ok("").file.commands.empty());
  EXPECT_TRUE(ok("  \n\t\r\n\n").file.commands.empty());
  EXPECT_TRUE(ok("\xEF\xBB\xBF").file.commands.empty());
  EXPECT_TRUE(ok("# only a comment").file.commands.empty());
  EXPECT_TRUE(ok("#[[ a bracket\ncomment ]]\n").file.commands.empty());
}

TEST(CMakeParse, SimpleCommand) {
  std::string t = "  SET(Foo  bar)\n";
  auto r = ok(t);
  ASSERT_EQ(r.file.commands.size(), 1u);
  const auto& c = r.file.commands[0];
  EXPECT_EQ(c.name, "set");
  EXPECT_EQ(at(t, c.name_span), "SET");
  EXPECT_EQ(at(t, c.span), "SET(Foo  bar)");
  EXPECT_EQ(texts(c), (V{"Foo", "bar"}));
  EXPECT_EQ(at(t, c.args[1].span), "bar");
  EXPECT_EQ(c.args[1].kind, Argument::Kind::Unquoted);
}

TEST(CMakeParse, SpaceBeforeParenAndNoArgs) {
  auto r = ok("endif ()\nelse(\t)\nfoo_Bar2()");
  ASSERT_EQ(r.file.commands.size(), 3u);
  EXPECT_EQ(r.file.commands[0].name, "endif");
  EXPECT_TRUE(r.file.commands[1].args.empty());
  EXPECT_EQ(r.file.commands[2].name, "foo_bar2");
}

TEST(CMakeParse, UnquotedEscapes) {
  std::string t = R"(x(a\ b c\;d e\tf\ng\rh \$\{x\} \@\#\(\) q\"r))";
  auto r = ok(t);
  ASSERT_EQ(r.file.commands.size(), 1u);
  EXPECT_EQ(texts(r.file.commands[0]), (V{"a b", "c\\;d", "e\tf\ng\rh", "${x}", "@#()", "q\"r"}));
  EXPECT_EQ(r.file.commands[0].args[0].raw, "a\\ b");
  EXPECT_EQ(at(t, r.file.commands[0].args[0].span), "a\\ b");
}

TEST(CMakeParse, UnquotedKeepsSemicolonsAndReferences) {
  auto r = ok("set(x a;b;;c ${y}/z $ENV{HOME} $<$<CONFIG:Debug>:-g>)");
  EXPECT_EQ(texts(r.file.commands[0]), (V{"x", "a;b;;c", "${y}/z", "$ENV{HOME}", "$<$<CONFIG:Debug>:-g>"}));
}

TEST(CMakeParse, LegacyUnquotedArguments) {
  std::string t = R"(add_definitions(-Da="b c" a" "b"c"d -Dx=$(VAR) $(A)b))";
  auto r = ok(t);
  ASSERT_EQ(r.file.commands.size(), 1u);
  EXPECT_EQ(texts(r.file.commands[0]), (V{"-Da=\"b c\"", "a\" \"b\"c\"d", "-Dx=$(VAR)", "$(A)b"}));
  EXPECT_EQ(at(t, r.file.commands[0].args[0].span), "-Da=\"b c\"");
  for (const auto& a : r.file.commands[0].args) EXPECT_EQ(a.kind, Argument::Kind::Unquoted);
}

TEST(CMakeParse, UnbalancedQuoteInsideUnquotedStartsAQuotedArgument) {
  // As CMake's lexer: `a` then a quoted argument (which may span lines).
  auto r = ok("f(a\"b\nc\")");
  EXPECT_EQ(texts(r.file.commands[0]), (V{"a", "b\nc"}));
  EXPECT_EQ(r.file.commands[0].args[1].kind, Argument::Kind::Quoted);
}

TEST(CMakeParse, QuotedArguments) {
  std::string t = "message(\"a\\nb\\t\\\"q\\\" \\\\ \\$ \\@ \\; ${x} ;\" \"\")";
  auto r = ok(t);
  const auto& c = r.file.commands[0];
  ASSERT_EQ(c.args.size(), 2u);
  EXPECT_EQ(c.args[0].kind, Argument::Kind::Quoted);
  EXPECT_EQ(c.args[0].text, "a\nb\t\"q\" \\ $ @ \\; ${x} ;");
  EXPECT_EQ(c.args[0].raw, "a\\nb\\t\\\"q\\\" \\\\ \\$ \\@ \\; ${x} ;");
  EXPECT_EQ(at(t, c.args[0].span), "\"a\\nb\\t\\\"q\\\" \\\\ \\$ \\@ \\; ${x} ;\"");
  EXPECT_EQ(c.args[1].text, "");
  EXPECT_EQ(at(t, c.args[1].span), "\"\"");
}

TEST(CMakeParse, QuotedContinuationAndNewlines) {
  auto r = ok("set(x \"one \\\ntwo\nthree \\\r\nfour\")");
  EXPECT_EQ(r.file.commands[0].args[1].text, "one two\nthree four");
}

TEST(CMakeParse, QuotedCrlfIsNormalized) {
  auto r = ok("set(x \"a\r\nb\")\r\n");
  EXPECT_EQ(r.file.commands[0].args[1].text, "a\nb");
}

TEST(CMakeParse, BracketArguments) {
  std::string t = "f([[a]] [=[b]]c]=] [==[\nline1\n]=]\n]==] [[\\n ${x}]] [[]])";
  auto r = ok(t);
  const auto& c = r.file.commands[0];
  ASSERT_EQ(c.args.size(), 5u);
  for (const auto& a : c.args) EXPECT_EQ(a.kind, Argument::Kind::Bracket);
  EXPECT_EQ(texts(c), (V{"a", "b]]c", "line1\n]=]\n", "\\n ${x}", ""}));
  EXPECT_EQ(at(t, c.args[1].span), "[=[b]]c]=]");
  EXPECT_EQ(c.args[2].raw, "\nline1\n]=]\n");  // raw keeps the dropped first newline
}

TEST(CMakeParse, BracketFirstCrlfDropped) {
  auto r = ok("f([[\r\nx\r\ny]])");
  EXPECT_EQ(r.file.commands[0].args[0].text, "x\ny");
}

TEST(CMakeParse, SquareBracketThatIsNotABracketArgument) {
  auto r = ok("f([a] [=x a[[b]] =[[)");
  EXPECT_EQ(texts(r.file.commands[0]), (V{"[a]", "[=x", "a[[b]]", "=[["}));
}

TEST(CMakeParse, Comments) {
  std::string t =
      "# line comment (with parens\n"
      "set(a # inside\n"
      "  b #[[ bracket\n comment ]] c #[=[ x ]=]d)\n"
      "#[==[ set(not a command) ]==] set(z 1) # trailing\n"
      "#[[x]]#[[y]] set(w 2)\n";
  auto r = ok(t);
  ASSERT_EQ(r.file.commands.size(), 3u);
  EXPECT_EQ(texts(r.file.commands[0]), (V{"a", "b", "c", "d"}));
  EXPECT_EQ(texts(r.file.commands[1]), (V{"z", "1"}));
  EXPECT_EQ(texts(r.file.commands[2]), (V{"w", "2"}));
}

TEST(CMakeParse, HashEndsAnUnquotedArgument) {
  auto r = ok("f(a#b\n c)");
  EXPECT_EQ(texts(r.file.commands[0]), (V{"a", "c"}));
}

TEST(CMakeParse, NestedParentheses) {
  std::string t = "if((A AND (B)) OR C)";
  auto r = ok(t);
  EXPECT_EQ(texts(r.file.commands[0]), (V{"(", "A", "AND", "(", "B", ")", ")", "OR", "C"}));
  EXPECT_EQ(at(t, r.file.commands[0].span), t);
  EXPECT_EQ(at(t, r.file.commands[0].args[5].span), ")");
}

TEST(CMakeParse, CrlfAndBom) {
  std::string t = "\xEF\xBB\xBF" "project(p)\r\nset(a \"b\")\r\n\r\nset(c [[d]])\r\n";
  auto r = ok(t);
  ASSERT_EQ(r.file.commands.size(), 3u);
  EXPECT_EQ(r.file.commands[0].name_span.begin, 3u);
  EXPECT_EQ(at(t, r.file.commands[1].span), "set(a \"b\")");
  EXPECT_EQ(at(t, r.file.commands[2].args[1].span), "[[d]]");
}

TEST(CMakeParse, MultiLineCommand) {
  std::string t = "target_link_libraries(\n  app\n  PRIVATE\n    \"${TORCH_LIBRARIES}\"\n)\n";
  auto r = ok(t);
  const auto& c = r.file.commands[0];
  EXPECT_EQ(texts(c), (V{"app", "PRIVATE", "${TORCH_LIBRARIES}"}));
  EXPECT_EQ(at(t, c.args[2].span), "\"${TORCH_LIBRARIES}\"");
  EXPECT_EQ(c.args[2].raw, "${TORCH_LIBRARIES}");
}

TEST(CMakeParse, Utf8InArguments) {
  auto r = ok("message(\"héllo ✓\" ünquoted)");
  EXPECT_EQ(texts(r.file.commands[0]), (V{"héllo ✓", "ünquoted"}));
}

// ---- Parse errors ------------------------------------------------------------------------

TEST(CMakeParse, UnterminatedQuoted) {
  std::string t = "set(a \"b\nc\n";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 1u);  // not also "missing )"
  EXPECT_EQ(at(t, r.errors[0].span), "\"");
  EXPECT_NE(r.errors[0].message.find("unterminated quoted argument"), std::string::npos);
}

TEST(CMakeParse, UnterminatedBracketArgument) {
  std::string t = "set(a [==[ text ]=] ]]\n)";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(at(t, r.errors[0].span), "[==[");
  EXPECT_NE(r.errors[0].message.find("unterminated bracket argument `[==[` opened here"), std::string::npos);
}

TEST(CMakeParse, UnterminatedBracketComment) {
  std::string t = "set(a)\n#[=[ never closed ]]\nset(b)";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(at(t, r.errors[0].span), "#[=[");
  EXPECT_NE(r.errors[0].message.find("unterminated bracket comment"), std::string::npos);
  EXPECT_EQ(r.file.commands.size(), 1u);
}

TEST(CMakeParse, MissingCloseParen) {
  std::string t = "set(a b\nset(c d)\n";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(at(t, r.errors[0].span), "(");
  EXPECT_EQ(r.errors[0].span.begin, 3u);
  EXPECT_NE(r.errors[0].message.find("missing `)`"), std::string::npos);
  EXPECT_NE(r.errors[0].message.find("`set`"), std::string::npos);
  ASSERT_EQ(r.file.commands.size(), 1u);  // the rest became arguments, as in CMake
  EXPECT_EQ(r.file.commands[0].span.end, t.size());
}

TEST(CMakeParse, MissingCloseParenNested) {
  auto r = failing("if((a)");
  EXPECT_EQ(r.errors.size(), 1u);
}

TEST(CMakeParse, GarbageOutsideCommands) {
  std::string t = "set(a b)\nfoo bar\nset(c d)\n";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(at(t, r.errors[0].span), "foo");
  EXPECT_NE(r.errors[0].message.find("expected `(` after the command name `foo`, got `b`"), std::string::npos);
  ASSERT_EQ(r.file.commands.size(), 2u);  // recovery at the next line
  EXPECT_EQ(r.file.commands[1].args[0].text, "c");
}

TEST(CMakeParse, StrayCharactersOutsideCommands) {
  for (std::string t : {"  )\nset(a)", "(x)\nset(a)", "\"q\"\nset(a)", "1abc\nset(a)", "[[x]]\nset(a)", "\x01\nset(a)",
                        "\xff\xfe\nset(a)"}) {
    auto r = failing(t);
    ASSERT_EQ(r.errors.size(), 1u) << t;
    EXPECT_NE(r.errors[0].message.find("outside a command"), std::string::npos) << r.errors[0].message;
    ASSERT_EQ(r.file.commands.size(), 1u) << t;
    EXPECT_EQ(r.file.commands[0].name, "set");
  }
}

TEST(CMakeParse, NewlineBetweenNameAndParen) {
  std::string t = "set\n(a b)\n";
  auto r = failing(t);
  EXPECT_EQ(at(t, r.errors[0].span), "set");
  EXPECT_NE(r.errors[0].message.find("got a newline"), std::string::npos);
}

TEST(CMakeParse, TwoCommandsOnOneLine) {
  std::string t = "set(a b) set(c d)\nset(e f))\n";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(at(t, r.errors[0].span), "s");
  EXPECT_NE(r.errors[0].message.find("expected a newline"), std::string::npos);
  EXPECT_EQ(at(t, r.errors[1].span), ")");
  EXPECT_EQ(r.file.commands.size(), 3u);
}

TEST(CMakeParse, BackslashAtEndOfLineInUnquoted) {
  std::string t = "set(a b\\\nc)";
  auto r = failing(t);
  EXPECT_EQ(at(t, r.errors[0].span), "\\");
  EXPECT_EQ(r.file.commands.size(), 1u);
}

TEST(CMakeParse, ErrorAtEndOfFile) {
  std::string t = "set(";
  auto r = failing(t);
  EXPECT_EQ(at(t, r.errors[0].span), "(");
  t = "set";
  r = failing(t);
  EXPECT_EQ(at(t, r.errors[0].span), "set");
  EXPECT_NE(r.errors[0].message.find("end of the file"), std::string::npos);
  r = failing("f(\"");
  r = failing("f([[");
  r = failing("#[[");
  r = failing("f(\\");
}

TEST(CMakeParse, ErrorCountIsBounded) {
  std::string t;
  for (int i = 0; i < 5000; ++i) t += ")\n";
  auto r = failing(t);
  EXPECT_LE(r.errors.size(), 100u);
}

// ---- Robustness --------------------------------------------------------------------------

TEST(CMakeParse, RandomBytesNeverCrash) {
  std::mt19937 rng(12345);
  const std::string alphabet = "()[]=#\"\\$;{} \t\r\nabcSETif_0123456789@<>:";
  for (int round = 0; round < 3000; ++round) {
    std::string t;
    size_t len = rng() % 200;
    for (size_t i = 0; i < len; ++i)
      t += round % 3 == 0 ? static_cast<char>(rng() & 0xff) : alphabet[rng() % alphabet.size()];
    ParseResult r = parse(t);
    check_errors(t, r);
    check_tree(t, r);
  }
}

TEST(CMakeParse, EveryTruncationIsHandled) {
  const std::string full =
      "\xEF\xBB\xBF" "cmake_minimum_required(VERSION 3.18...3.27)\r\n"
      "project(p LANGUAGES CXX CUDA) # c\n"
      "#[==[ bracket\ncomment ]==]\n"
      "set(X \"a\\\"b\\\n c\" [=[raw\n]=] un\\;q -Da=\"b c\" $(MAKE))\n"
      "if((A AND NOT B) OR (C))\n  message(STATUS ${X})\nendif()\n";
  ok(full);
  for (size_t n = 0; n <= full.size(); ++n) {
    std::string t = full.substr(0, n);
    ParseResult r = parse(t);
    check_errors(t, r);
    check_tree(t, r);
  }
}

TEST(CMakeParse, DeepNestingDoesNotOverflowTheStack) {
  std::string t = "if(" + std::string(10000, '(') + "x" + std::string(10000, ')') + ")\n";
  auto r = ok(t);
  ASSERT_EQ(r.file.commands.size(), 1u);
  EXPECT_EQ(r.file.commands[0].args.size(), 20001u);
  r = failing("if(" + std::string(10000, '(') + "x");
  EXPECT_EQ(r.errors.size(), 1u);
}

TEST(CMakeParse, TenMebibytesInLinearTime) {
  std::string line = "set(a b)\n";
  std::string t;
  t.reserve(10u << 20);
  while (t.size() + line.size() <= (10u << 20)) t += line;
  auto start = std::chrono::steady_clock::now();
  ParseResult r = parse(t);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.file.commands.size(), t.size() / line.size());
  EXPECT_LT(s, 20.0);  // about a second at -O2; generous for -O0 and sanitizers
}

TEST(CMakeParse, PathologicalInputsStayLinear) {
  // Long unterminated constructs and legacy-quote scans must not rescan the input.
  std::vector<std::string> inputs = {
      "f(" + std::string(1u << 20, '"'),
      "f(a" + std::string(1u << 20, '"'),
      std::string(1u << 19, '#') + "[[",
      "f(" + std::string(1u << 20, '['),
      "f(x\"" + std::string(1u << 20, ' ') + "\n)",
      "f(" + std::string(1u << 19, 'a') + std::string(1u << 19, '\\'),
  };
  auto start = std::chrono::steady_clock::now();
  for (const auto& t : inputs) {
    ParseResult r = parse(t);
    check_errors(t, r);
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, 10.0);
}

// ---- Evaluator ---------------------------------------------------------------------------

// An in-memory project rooted at /p.
struct Project {
  std::map<std::string, std::string> files;

  explicit Project(std::string top = "") {
    if (!top.empty()) files["/p/CMakeLists.txt"] = std::move(top);
  }
  Project& add(const std::string& rel, std::string text) {
    files["/p/" + rel] = std::move(text);
    return *this;
  }
  EvalResult eval(const EvalOptions& options) const { return eval("/p/CMakeLists.txt", options); }
  EvalResult eval(const std::string& top = "/p/CMakeLists.txt", const EvalOptions& options = {}) const {
    FileLoader load = [this](const std::string& p) -> std::optional<std::string_view> {
      auto it = files.find(p);
      if (it == files.end()) return std::nullopt;
      return std::string_view(it->second);
    };
    DisplayPath display = [](const std::string& p) { return p.starts_with("/p/") ? p.substr(3) : p; };
    return evaluate(top, load, display, options);
  }
  // The text an origin points at.
  std::string_view text(const Origin& o) const {
    auto it = files.find("/p/" + o.path);
    EXPECT_NE(it, files.end()) << o.path;
    if (it == files.end()) return {};
    return at(it->second, o.span);
  }
};

EvalResult eval1(const std::string& text) { return Project(text).eval(); }

std::vector<std::string> values(const std::vector<Value>& v) {
  std::vector<std::string> out;
  for (const auto& x : v) out.push_back(x.value + (x.conditional ? "?" : ""));
  return out;
}

std::vector<std::string> values(const std::vector<TargetFact>& v) {
  std::vector<std::string> out;
  for (const auto& x : v) out.push_back(x.target + "=" + x.value.value + (x.value.conditional ? "?" : ""));
  return out;
}

std::string errors_of(const EvalResult& r) {
  std::string s;
  for (const auto& e : r.errors) s += e.where.path + ": " + e.message + "\n";
  return s;
}

// What TORCH_CUDA_ARCH_LIST ends up recording after `text`: a probe for values.
std::vector<std::string> probe(const std::string& text) {
  return values(eval1(text).facts.torch_cuda_arch_list);
}

// "T"/"F" when if(<cond>) is decided, "?" when both branches run.
std::string decide(const std::string& prelude, const std::string& cond) {
  auto r = eval1(prelude + "\nif(" + cond + ")\n set(TORCH_CUDA_ARCH_LIST T)\nelse()\n set(TORCH_CUDA_ARCH_LIST F)\nendif()\n");
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  auto v = values(r.facts.torch_cuda_arch_list);
  if (v == V{"T"}) return "T";
  if (v == V{"F"}) return "F";
  if (v == (V{"T?", "F?"})) return "?";
  return "unexpected:" + ::testing::PrintToString(v);
}

TEST(CMakeEval, CudaArchitecturesFromSet) {
  Project p("cmake_minimum_required(VERSION 3.18)\nset(CMAKE_CUDA_ARCHITECTURES 80 90)\nset(CMAKE_CUDA_ARCHITECTURES native)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  ASSERT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80;90", "native"}));
  EXPECT_EQ(r.facts.cmake_cuda_architectures[0].origin.path, "CMakeLists.txt");
  EXPECT_EQ(p.text(r.facts.cmake_cuda_architectures[0].origin), "80 90");
  EXPECT_EQ(p.text(r.facts.cmake_cuda_architectures[1].origin), "native");
  EXPECT_EQ(r.files_read, (V{"/p/CMakeLists.txt"}));
}

TEST(CMakeEval, CudaArchitecturesKeywordsKeptAsWritten) {
  EXPECT_EQ(values(eval1("set(CMAKE_CUDA_ARCHITECTURES \"80-real;90-virtual\")\nset(CMAKE_CUDA_ARCHITECTURES all-major)")
                       .facts.cmake_cuda_architectures),
            (V{"80-real;90-virtual", "all-major"}));
}

TEST(CMakeEval, CacheSets) {
  Project p(
      "set(CMAKE_CUDA_ARCHITECTURES 86 CACHE STRING \"archs\")\n"
      "set(CMAKE_CUDA_ARCHITECTURES 75 CACHE STRING \"ignored: already cached\")\n"
      "set(CMAKE_CUDA_ARCHITECTURES 89 CACHE STRING \"forced\" FORCE)\n"
      "set(X 1 CACHE BOOL \"\")\nset(X 2)\nset(X 3 CACHE BOOL \"\")\nset(TORCH_CUDA_ARCH_LIST ${X})\n"
      "unset(X)\nset(TORCH_CUDA_ARCH_LIST ${X})\n");
  auto r = p.eval();
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"86", "89"}));
  EXPECT_EQ(p.text(r.facts.cmake_cuda_architectures[0].origin), "86");
  // The normal variable hides the cache entry until it is unset.
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"2", "1"}));
}

TEST(CMakeEval, ValueFromVariableSetElsewhere) {
  Project p("set(ARCHS 80 86)\nlist(APPEND ARCHS 90)\nset(CMAKE_CUDA_ARCHITECTURES ${ARCHS})\n");
  auto r = p.eval();
  ASSERT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80;86;90"}));
  EXPECT_EQ(p.text(r.facts.cmake_cuda_architectures[0].origin), "${ARCHS}");
}

TEST(CMakeEval, NestedVariableReferences) {
  EXPECT_EQ(probe("set(b x)\nset(a_x 75)\nset(TORCH_CUDA_ARCH_LIST ${a_${b}})"), (V{"75"}));
  EXPECT_EQ(probe("set(n 1)\nset(v1 2)\nset(v2 3)\nset(TORCH_CUDA_ARCH_LIST \"${v${v${n}}}\")"), (V{"3"}));
  EXPECT_EQ(probe("set(x 1)\nset(TORCH_CUDA_ARCH_LIST \"\\${x} $(x) @x@\")"), (V{"${x} $(x) @x@"}));
  EXPECT_EQ(probe("set(TORCH_CUDA_ARCH_LIST [[${x}]])"), (V{"${x}"}));
  EXPECT_EQ(probe("set(x 1)\nset(TORCH_CUDA_ARCH_LIST \"${x\")"), (V{"${x"}));  // unterminated: as written
  // Deeply nested references cost no stack.
  std::string deep = "set(TORCH_CUDA_ARCH_LIST \"" + std::string(20000, '$') + "\")";
  std::string refs;
  for (int i = 0; i < 10000; ++i) refs += "${";
  refs += "x";
  refs += std::string(10000, '}');
  EXPECT_EQ(probe("set(TORCH_CUDA_ARCH_LIST \"" + refs + "\")"), (V{"?"}));
  EXPECT_EQ(eval1(deep).facts.torch_cuda_arch_list.size(), 1u);
}

TEST(CMakeEval, EnvAndCacheReferences) {
  EXPECT_EQ(probe("set(TORCH_CUDA_ARCH_LIST $ENV{ARCHS})"), (V{"?"}));
  EXPECT_EQ(probe("set(ENV{ARCHS} 8.0)\nset(TORCH_CUDA_ARCH_LIST $ENV{ARCHS})"), (V{"8.0"}));
  EXPECT_EQ(probe("set(ENV{A} 1)\nunset(ENV{A})\nset(TORCH_CUDA_ARCH_LIST \"x$ENV{A}\")"), (V{"x"}));
  EXPECT_EQ(probe("set(C 7.5 CACHE STRING \"\")\nset(C 8.0)\nset(TORCH_CUDA_ARCH_LIST \"$CACHE{C} ${C}\")"), (V{"7.5 8.0"}));
  EXPECT_EQ(probe("set(TORCH_CUDA_ARCH_LIST \"a $CACHE{NOPE}\")"), (V{"a ?"}));
}

TEST(CMakeEval, TorchCudaArchListFromEnv) {
  Project p("set(ENV{TORCH_CUDA_ARCH_LIST} \"8.0 9.0+PTX\")\n");
  auto r = p.eval();
  ASSERT_EQ(values(r.facts.torch_cuda_arch_list), (V{"8.0 9.0+PTX"}));
  EXPECT_EQ(p.text(r.facts.torch_cuda_arch_list[0].origin), "\"8.0 9.0+PTX\"");
}

TEST(CMakeEval, UnknownVariablesMakeValuesConditional) {
  auto r = eval1("set(CMAKE_CUDA_ARCHITECTURES ${MY_ARCHS})\nset(CMAKE_CUDA_ARCHITECTURES 80 ${EXTRA})\n");
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"?", "80?"}));
}

TEST(CMakeEval, Include) {
  Project p("project(p LANGUAGES CXX CUDA)\ninclude(cmake/archs.cmake)\nset(TORCH_CUDA_ARCH_LIST ${FROM_INCLUDE})\n");
  p.add("cmake/archs.cmake",
        "set(FROM_INCLUDE \"${CMAKE_CURRENT_LIST_DIR}|${CMAKE_CURRENT_SOURCE_DIR}\")\n"
        "set(CMAKE_CUDA_ARCHITECTURES 80 90)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  ASSERT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80;90"}));
  EXPECT_EQ(r.facts.cmake_cuda_architectures[0].origin.path, "cmake/archs.cmake");
  EXPECT_EQ(p.text(r.facts.cmake_cuda_architectures[0].origin), "80 90");
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"/p/cmake|/p"}));
  EXPECT_EQ(r.files_read, (V{"/p/CMakeLists.txt", "/p/cmake/archs.cmake"}));
}

TEST(CMakeEval, IncludeFixtureArch010) {
  Project p("cmake_minimum_required(VERSION 3.24)\ninclude(cmake/archs.cmake)\nproject(kernels LANGUAGES CXX CUDA)\n");
  p.add("cmake/archs.cmake", "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n  set(CMAKE_CUDA_ARCHITECTURES 80 90)\nendif()\n");
  auto r = p.eval();
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80;90?"}));  // -D may have set it
  ASSERT_TRUE(r.facts.cuda_language);
  EXPECT_EQ(p.text(r.facts.cuda_language->origin), "CUDA");
  EXPECT_FALSE(r.facts.cuda_default_decided);
}

// CMake 3.18+ (CMP0104) gives CMAKE_CUDA_ARCHITECTURES the compiler's default when CUDA is
// enabled; checked with CMake 3.25 and nvcc 13.0 (the cache holds 75, the compile command
// --generate-code=arch=compute_75,code=[compute_75,sm_75]).
TEST(CMakeEval, ProjectGivesCudaArchitecturesTheCompilersDefault) {
  const char* archs = "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n  set(CMAKE_CUDA_ARCHITECTURES 80 90)\nendif()\n"
                      "if(CMAKE_CUDA_ARCHITECTURES LESS 75)\n  set(CMAKE_CUDA_ARCHITECTURES 70)\nendif()\n"
                      "add_library(k k.cu)\n";
  {
    Project p(std::string("cmake_minimum_required(VERSION 3.24)\nproject(x LANGUAGES CXX CUDA)\n") + archs);
    auto r = p.eval();
    // `NOT DEFINED` is false; with the toolkit unknown, `LESS 75` is undecided.
    EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"70?"}));
    ASSERT_TRUE(r.facts.cuda_default_decided);
    EXPECT_EQ(p.text(r.facts.cuda_default_decided->origin), "if");
    EXPECT_EQ(r.facts.cuda_default_decided->origin.span.begin, p.files.at("/p/CMakeLists.txt").find("if(NOT"));
  }
  {
    // CUDA 13: sm_75, so neither branch runs and the target keeps nvcc's default.
    Project p(std::string("cmake_minimum_required(VERSION 3.24)\nproject(x LANGUAGES CXX CUDA)\n") + archs);
    EvalOptions o;
    o.cuda_default_architectures = "75";
    auto r = p.eval(o);
    EXPECT_TRUE(r.facts.cmake_cuda_architectures.empty());
    ASSERT_EQ(r.facts.targets.size(), 1u);
    EXPECT_FALSE(r.facts.targets[0].cuda_architectures) << "nvcc's default, as if unset";
  }
  {
    // With the toolkit known (CUDA 12: sm_52), `LESS 75` is true.
    Project p(std::string("cmake_minimum_required(VERSION 3.24)\nproject(x LANGUAGES CXX CUDA)\n") + archs);
    EvalOptions o;
    o.cuda_default_architectures = "52";
    auto r = p.eval(o);
    EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"70"}));
    ASSERT_EQ(r.facts.targets.size(), 1u);
    ASSERT_TRUE(r.facts.targets[0].cuda_architectures);
    EXPECT_EQ(r.facts.targets[0].cuda_architectures->value, "70");
  }
  {
    // Before 3.18 the policy is OLD: the variable stays unset.
    Project p(std::string("cmake_minimum_required(VERSION 3.10)\nproject(x LANGUAGES CXX CUDA)\n") + archs);
    auto r = p.eval();
    EXPECT_FALSE(r.facts.cuda_default_decided);
    EXPECT_FALSE(r.facts.cmake_cuda_architectures.empty());
  }
}

// A property set in the branch that made the target holds whenever the target exists.
TEST(CMakeEval, TargetPropertySetWhereTheTargetWasMade) {
  Project p(
      "cmake_minimum_required(VERSION 3.18)\nproject(x LANGUAGES CXX CUDA)\n"
      "function(add_example NAME)\n  add_executable(${NAME} ${NAME}.cu)\n"
      "  set_property(TARGET ${NAME} PROPERTY CUDA_ARCHITECTURES OFF)\nendfunction()\n"
      "if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER 9.0)\n  add_example(a)\nendif()\n"
      "add_executable(b b.cu)\n"
      "if(WITH_OFF)\n  set_property(TARGET b PROPERTY CUDA_ARCHITECTURES OFF)\nendif()\n");
  auto r = p.eval();
  ASSERT_EQ(r.facts.targets.size(), 2u);
  ASSERT_TRUE(r.facts.targets[0].cuda_architectures);
  EXPECT_TRUE(r.facts.targets[0].conditional);
  EXPECT_FALSE(r.facts.targets[0].cuda_architectures->conditional);
  ASSERT_TRUE(r.facts.targets[1].cuda_architectures);
  EXPECT_TRUE(r.facts.targets[1].cuda_architectures->conditional) << "set under a test the target was not made under";
}

TEST(CMakeEval, IncludeRelativeToListDirAndModulePath) {
  Project p(
      "include(cmake/a.cmake)\n"
      "list(APPEND CMAKE_MODULE_PATH \"${CMAKE_CURRENT_SOURCE_DIR}/modules\")\n"
      "include(Archs)\n"
      "include(CheckCXXCompilerFlag)\ninclude(FetchContent)\n");
  p.add("cmake/a.cmake", "include(${CMAKE_CURRENT_LIST_DIR}/b.cmake)\n");
  p.add("cmake/b.cmake", "set(TORCH_CUDA_ARCH_LIST b)\n");
  p.add("modules/Archs.cmake", "set(TORCH_CUDA_ARCH_LIST module)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"b", "module"}));
  EXPECT_EQ(r.files_read.size(), 4u);
}

TEST(CMakeEval, MissingIncludes) {
  Project p(
      "include(cmake/missing.cmake)\ninclude(${SOMEWHERE}/x.cmake)\ninclude(opt.cmake OPTIONAL)\n"
      "add_subdirectory(nodir)\nadd_subdirectory(${UNKNOWN_DIR})\n");
  auto r = p.eval();
  ASSERT_EQ(r.errors.size(), 2u) << errors_of(r);
  EXPECT_NE(r.errors[0].message.find("/p/cmake/missing.cmake"), std::string::npos) << r.errors[0].message;
  EXPECT_EQ(p.text(r.errors[0].where), "cmake/missing.cmake");
  EXPECT_NE(r.errors[1].message.find("add_subdirectory"), std::string::npos);
  EXPECT_EQ(p.text(r.errors[1].where), "nodir");
}

TEST(CMakeEval, AddSubdirectoryScope) {
  Project p(
      "set(TOP 1)\nadd_subdirectory(sub)\n"
      "set(TORCH_CUDA_ARCH_LIST \"${SUB_LOCAL}|${SUB_PARENT}|${CMAKE_CURRENT_SOURCE_DIR}\")\n");
  p.add("sub/CMakeLists.txt",
        "set(SUB_LOCAL x)\nset(SUB_PARENT y PARENT_SCOPE)\n"
        "set(TORCH_CUDA_ARCH_LIST \"${TOP}|${SUB_PARENT}|${CMAKE_CURRENT_SOURCE_DIR}|${CMAKE_SOURCE_DIR}\")\n"
        "set(CMAKE_CUDA_ARCHITECTURES 75)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  // The local copy keeps its value when PARENT_SCOPE changes the parent's.
  // Variables not set in a scope are unknown there (they might be cache entries), hence `?`.
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"1||/p/sub|/p?", "|y|/p?"}));
  ASSERT_EQ(r.facts.cmake_cuda_architectures.size(), 1u);
  EXPECT_EQ(r.facts.cmake_cuda_architectures[0].origin.path, "sub/CMakeLists.txt");
  EXPECT_EQ(r.files_read, (V{"/p/CMakeLists.txt", "/p/sub/CMakeLists.txt"}));
}

TEST(CMakeEval, FunctionScopeAndArguments) {
  Project p(
      "function(set_archs first)\n"
      "  set(LOCAL ${first})\n"
      "  set(CMAKE_CUDA_ARCHITECTURES ${ARGN} PARENT_SCOPE)\n"
      "  set(TORCH_CUDA_ARCH_LIST \"${ARGC}|${ARGV}|${ARGV0}|${first}\")\n"
      "endfunction()\n"
      "set_archs(a 80 90)\n"
      "set(TORCH_CUDA_ARCH_LIST \"${LOCAL}|${CMAKE_CUDA_ARCHITECTURES}\")\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  ASSERT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80;90"}));
  EXPECT_EQ(p.text(r.facts.cmake_cuda_architectures[0].origin), "${ARGN}");  // in the function body
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"3|a;80;90|a|a", "|80;90?"}));
}

TEST(CMakeEval, MacroIsTextual) {
  Project p(
      "macro(set_archs first)\n"
      "  set(LOCAL ${first})\n"
      "  set(CMAKE_CUDA_ARCHITECTURES ${ARGN})\n"
      "  if(first)\n    set(TORCH_CUDA_ARCH_LIST seen-as-variable)\n  endif()\n"
      "endmacro()\n"
      "set(first \"\")\n"
      "set_archs(a 80 90)\n"
      "set(TORCH_CUDA_ARCH_LIST \"${LOCAL}\")\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80;90"}));
  // `if(first)` names the variable, not the macro argument; the macro's set leaks out.
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"a"}));
}

TEST(CMakeEval, FunctionNamesAreCaseInsensitiveAndRedefinable) {
  EXPECT_EQ(probe("function(F)\nset(TORCH_CUDA_ARCH_LIST 1)\nendfunction()\nf()\n"
                  "function(f)\nset(TORCH_CUDA_ARCH_LIST 2)\nendfunction()\nF()"),
            (V{"1", "2"}));
}

TEST(CMakeEval, CmakeParseArguments) {
  auto v = probe(
      "function(k)\n"
      "  cmake_parse_arguments(ARG \"VERBOSE\" \"NAME\" \"ARCHS\" ${ARGN})\n"
      "  set(TORCH_CUDA_ARCH_LIST \"${ARG_VERBOSE}|${ARG_NAME}|${ARG_ARCHS}|${ARG_UNPARSED_ARGUMENTS}\")\n"
      "endfunction()\n"
      "k(extra NAME n ARCHS 8.0 9.0 VERBOSE)\n");
  EXPECT_EQ(v, (V{"TRUE|n|8.0;9.0|extra"}));
  v = probe(
      "function(k)\n"
      "  cmake_parse_arguments(PARSE_ARGV 1 ARG \"\" \"NAME\" \"\")\n"
      "  set(TORCH_CUDA_ARCH_LIST \"${ARG_NAME}\")\n"
      "endfunction()\n"
      "k(skip NAME x)\n");
  EXPECT_EQ(v, (V{"x"}));
}

TEST(CMakeEval, ConditionConstants) {
  for (std::string c : {"1", "ON", "on", "YES", "TRUE", "Y", "2.5", "-1", "\"ON\"", "[[TRUE]]"}) EXPECT_EQ(decide("", c), "T") << c;
  for (std::string c : {"0", "OFF", "no", "FALSE", "N", "IGNORE", "NOTFOUND", "x-NOTFOUND", "\"\"", "0.0", "\"hello\""})
    EXPECT_EQ(decide("", c), "F") << c;
}

TEST(CMakeEval, ConditionVariables) {
  EXPECT_EQ(decide("set(V 1)", "V"), "T");
  EXPECT_EQ(decide("set(V OFF)", "V"), "F");
  EXPECT_EQ(decide("set(V hello)", "V"), "T");
  EXPECT_EQ(decide("set(V x-NOTFOUND)", "V"), "F");
  EXPECT_EQ(decide("set(V V2)\nset(V2 1)", "${V}"), "T");
  EXPECT_EQ(decide("", "UNDEFINED_THING"), "?");  // maybe -DUNDEFINED_THING=ON
  EXPECT_EQ(decide("option(USE_CUDA \"\" ON)", "USE_CUDA"), "T");
  EXPECT_EQ(decide("option(USE_CUDA \"\")", "USE_CUDA"), "F");
  EXPECT_EQ(decide("set(USE_CUDA ON)\noption(USE_CUDA \"\" OFF)", "USE_CUDA"), "T");
  EXPECT_EQ(decide("", "$ENV{HOME}"), "?");
  EXPECT_EQ(decide("", "CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0"), "?");
  EXPECT_EQ(decide("", "CMAKE_BUILD_TYPE STREQUAL \"Release\""), "?");
  EXPECT_EQ(decide("set(CMAKE_BUILD_TYPE Release)", "CMAKE_BUILD_TYPE STREQUAL \"Release\""), "T");
  EXPECT_EQ(decide("", "\"${UNKNOWN}\" STREQUAL \"\""), "?");
  EXPECT_EQ(decide("set(V a)", "V STREQUAL a"), "T");
  EXPECT_EQ(decide("set(V a)\nset(a b)", "V STREQUAL a"), "F");  // both sides are dereferenced
  EXPECT_EQ(decide("set(V a)", "${V} STREQUAL \"a\""), "T");
}

TEST(CMakeEval, ConditionOperators) {
  EXPECT_EQ(decide("", "NOT 0"), "T");
  EXPECT_EQ(decide("", "NOT NOT 1"), "T");
  EXPECT_EQ(decide("", "1 AND 0"), "F");
  EXPECT_EQ(decide("", "0 OR 1"), "T");
  EXPECT_EQ(decide("", "NOT 1 OR 1"), "T");
  EXPECT_EQ(decide("", "NOT (1 AND 0)"), "T");
  EXPECT_EQ(decide("", "1 OR 0 AND 0"), "T");  // AND binds tighter than OR
  EXPECT_EQ(decide("", "(1 OR 0) AND 0"), "F");
  EXPECT_EQ(decide("", "((((1))))"), "T");
  EXPECT_EQ(decide("", "NOT \"a\" STREQUAL \"b\""), "T");  // NOT applies to the comparison
  EXPECT_EQ(decide("", "UNKNOWN_X AND 0"), "F");
  EXPECT_EQ(decide("", "UNKNOWN_X OR 1"), "T");
  EXPECT_EQ(decide("", "UNKNOWN_X AND 1"), "?");
  EXPECT_EQ(decide("", "NOT UNKNOWN_X"), "?");
  EXPECT_EQ(decide("", "3 LESS 10"), "T");
  EXPECT_EQ(decide("", "10 LESS 3"), "F");
  EXPECT_EQ(decide("", "3 EQUAL 3.0"), "T");
  EXPECT_EQ(decide("", "4 GREATER_EQUAL 4"), "T");
  EXPECT_EQ(decide("", "4 LESS_EQUAL 3"), "F");
  EXPECT_EQ(decide("", "\"abc\" EQUAL 1"), "F");
  EXPECT_EQ(decide("", "\"a\" STRLESS \"b\""), "T");
  EXPECT_EQ(decide("", "3.18 VERSION_LESS 3.24"), "T");
  EXPECT_EQ(decide("", "3.24.1 VERSION_GREATER 3.24"), "T");
  EXPECT_EQ(decide("", "1.2 VERSION_EQUAL 1.2.0"), "T");
  EXPECT_EQ(decide("", "3.10 VERSION_GREATER_EQUAL 3.9"), "T");
  EXPECT_EQ(decide("", "3.9 VERSION_LESS_EQUAL 3.9"), "T");
  EXPECT_EQ(decide("", "12.4 VERSION_LESS 12.10"), "T");
  EXPECT_EQ(decide("set(X abc)", "X MATCHES \"^a\""), "?");
  EXPECT_EQ(decide("set(L \"a;b\")", "a IN_LIST L"), "T");
  EXPECT_EQ(decide("set(L \"a;b\")", "c IN_LIST L"), "F");
  EXPECT_EQ(decide("", "EXISTS /etc/passwd"), "?");
  EXPECT_EQ(decide("", "TARGET torch"), "?");
  EXPECT_EQ(decide("", "COMMAND my_fn"), "?");
  EXPECT_EQ(decide("function(my_fn)\nendfunction()", "COMMAND my_fn"), "T");
  EXPECT_EQ(decide("", "IS_ABSOLUTE /x"), "T");
  EXPECT_EQ(decide("", "IS_ABSOLUTE x"), "F");
  EXPECT_EQ(decide("", "1 AND"), "?");  // malformed
  EXPECT_EQ(decide("", std::string(200, '(') + "1" + std::string(200, ')')), "?");  // too deep: undecided
}

TEST(CMakeEval, ConditionDefined) {
  EXPECT_EQ(decide("set(V \"\")", "DEFINED V"), "T");
  EXPECT_EQ(decide("set(V 1 CACHE STRING \"\")", "DEFINED V"), "T");
  EXPECT_EQ(decide("", "DEFINED V"), "?");  // maybe -DV=...
  EXPECT_EQ(decide("", "NOT DEFINED V"), "?");
  EXPECT_EQ(decide("", "DEFINED ENV{X}"), "?");
  EXPECT_EQ(decide("set(ENV{X} 1)", "DEFINED ENV{X}"), "T");
  EXPECT_EQ(decide("set(ENV{X} 1)\nunset(ENV{X})", "DEFINED ENV{X}"), "F");
  EXPECT_EQ(decide("set(C 1 CACHE STRING \"\")", "DEFINED CACHE{C}"), "T");
}

TEST(CMakeEval, IfBranches) {
  auto r = eval1(
      "set(USE ON)\n"
      "if(NOT USE)\n  set(CMAKE_CUDA_ARCHITECTURES 70)\n"
      "elseif(USE)\n  set(CMAKE_CUDA_ARCHITECTURES 80)\n"
      "else()\n  set(CMAKE_CUDA_ARCHITECTURES 90)\nendif()\n");
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80"}));
  r = eval1(
      "if(CMAKE_BUILD_TYPE STREQUAL \"Release\")\n  set(CMAKE_CUDA_ARCHITECTURES 80)\n"
      "elseif(1)\n  set(CMAKE_CUDA_ARCHITECTURES 86)\n"
      "else()\n  set(CMAKE_CUDA_ARCHITECTURES 90)\nendif()\n"
      "set(TORCH_CUDA_ARCH_LIST ${CMAKE_CUDA_ARCHITECTURES})\n");
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80?", "86?"}));  // else is never reached
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"86?"}));
}

TEST(CMakeEval, NestedIfs) {
  auto r = eval1(
      "if(1)\n if(0)\n  set(TORCH_CUDA_ARCH_LIST a)\n else()\n  if($ENV{X})\n   set(TORCH_CUDA_ARCH_LIST b)\n  endif()\n"
      "  set(TORCH_CUDA_ARCH_LIST c)\n endif()\nendif()\n");
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"b?", "c"}));
}

TEST(CMakeEval, Foreach) {
  EXPECT_EQ(probe("foreach(a 8.0 9.0)\n set(TORCH_CUDA_ARCH_LIST ${a})\nendforeach()"), (V{"8.0", "9.0"}));
  EXPECT_EQ(probe("set(L x y)\nforeach(a IN LISTS L ITEMS z)\n list(APPEND TORCH_CUDA_ARCH_LIST ${a})\nendforeach()"),
            (V{"x", "x;y", "x;y;z"}));
  EXPECT_EQ(probe("set(S \"\")\nforeach(i RANGE 3)\n string(APPEND S ${i})\nendforeach()\nset(TORCH_CUDA_ARCH_LIST ${S})"),
            (V{"0123"}));
  EXPECT_EQ(probe("set(S \"\")\nforeach(i RANGE 2 8 3)\n string(APPEND S ${i})\nendforeach()\nset(TORCH_CUDA_ARCH_LIST ${S})"),
            (V{"258"}));
  EXPECT_EQ(probe("foreach(a 1 2 3)\n if(a EQUAL 2)\n  break()\n endif()\n set(TORCH_CUDA_ARCH_LIST ${a})\nendforeach()"),
            (V{"1"}));
  // A list that is not known: the body runs, conditionally.
  EXPECT_EQ(probe("foreach(a ${ARCHS})\n set(TORCH_CUDA_ARCH_LIST \"x${a}\")\nendforeach()"), (V{"x?"}));
  // The loop variable is restored afterwards.
  EXPECT_EQ(probe("set(a 7)\nforeach(a 1 2)\nendforeach()\nset(TORCH_CUDA_ARCH_LIST ${a})"), (V{"7"}));
}

TEST(CMakeEval, WhileIsBounded) {
  auto r = eval1("set(i 0)\nwhile(1)\n set(CMAKE_CUDA_ARCHITECTURES 80)\nendwhile()\nwhile(0)\n set(TORCH_CUDA_ARCH_LIST x)\nendwhile()\n");
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80?"}));
  EXPECT_TRUE(r.facts.torch_cuda_arch_list.empty());
}

TEST(CMakeEval, ListOperations) {
  EXPECT_EQ(probe("set(L b)\nlist(APPEND L c d)\nlist(PREPEND L a)\nlist(REMOVE_ITEM L c)\n"
                  "list(LENGTH L n)\nset(TORCH_CUDA_ARCH_LIST \"${L}|${n}\")"),
            (V{"a;b;d|3"}));
  EXPECT_EQ(probe("list(APPEND NEW x)\nset(TORCH_CUDA_ARCH_LIST ${NEW})"), (V{"x"}));
  EXPECT_EQ(probe("set(L a b a)\nlist(REMOVE_DUPLICATES L)\nlist(JOIN L + J)\nlist(FIND L b i)\nlist(GET L 1 g)\n"
                  "set(TORCH_CUDA_ARCH_LIST \"${J}|${i}|${g}\")"),
            (V{"a+b|1|b"}));
  EXPECT_EQ(probe("set(L a b)\nlist(TRANSFORM L TOUPPER)\nset(TORCH_CUDA_ARCH_LIST \"${L}\")"), (V{"?"}));
  auto r = eval1("list(APPEND CMAKE_CUDA_ARCHITECTURES 80)\nlist(APPEND CMAKE_CUDA_ARCHITECTURES 90)\n");
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80", "80;90"}));
}

TEST(CMakeEval, StringOperations) {
  EXPECT_EQ(probe("set(F \"-O2 -g\")\nstring(REPLACE \"-g\" \"\" F \"${F}\")\nstring(APPEND F \" -x\")\n"
                  "string(PREPEND F \"<\")\nstring(TOUPPER \"${F}\" U)\nstring(TOLOWER \"AbC\" L)\n"
                  "set(TORCH_CUDA_ARCH_LIST \"${U}|${L}\")"),
            (V{"<-O2  -X|abc"}));
  EXPECT_EQ(probe("string(REGEX REPLACE \"a\" \"b\" OUT \"aaa\")\nset(TORCH_CUDA_ARCH_LIST \"${OUT}\")"), (V{"?"}));
  EXPECT_EQ(probe("string(CONCAT C a b)\nstring(JOIN - J x y)\nstring(STRIP \"  s \" S)\nset(TORCH_CUDA_ARCH_LIST \"${C}${J}${S}\")"),
            (V{"abx-ys"}));
}

TEST(CMakeEval, ReturnAndConditionalReturn) {
  Project p("include(a.cmake)\nset(TORCH_CUDA_ARCH_LIST after)\n");
  p.add("a.cmake", "set(CMAKE_CUDA_ARCHITECTURES 80)\nreturn()\nset(CMAKE_CUDA_ARCHITECTURES 90)\n");
  auto r = p.eval();
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80"}));
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"after"}));
  // A return that only maybe happens makes the rest of its file conditional.
  r = eval1("if(NOT CUDA_FOUND)\n return()\nendif()\nset(CMAKE_CUDA_ARCHITECTURES 80)\n");
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80?"}));
  EXPECT_EQ(probe("function(f)\n set(TORCH_CUDA_ARCH_LIST 1)\n return()\n set(TORCH_CUDA_ARCH_LIST 2)\nendfunction()\n"
                  "f()\nset(TORCH_CUDA_ARCH_LIST 3)"),
            (V{"1", "3"}));
}

TEST(CMakeEval, Blocks) {
  EXPECT_EQ(probe("set(X 1)\nblock(PROPAGATE Y)\n set(X 2)\n set(Y 3)\nendblock()\nset(TORCH_CUDA_ARCH_LIST \"${X}${Y}\")"),
            (V{"13"}));
}

TEST(CMakeEval, ProjectAndEnableLanguage) {
  Project p("project(p VERSION 1.0 LANGUAGES CXX CUDA)\n");
  auto r = p.eval();
  ASSERT_TRUE(r.facts.cuda_language);
  EXPECT_EQ(r.facts.cuda_language->value, "CUDA");
  EXPECT_EQ(p.text(r.facts.cuda_language->origin), "CUDA");
  EXPECT_TRUE(eval1("project(p CXX CUDA)").facts.cuda_language);
  EXPECT_FALSE(eval1("project(p CXX)").facts.cuda_language);
  EXPECT_FALSE(eval1("project(p DESCRIPTION CUDA)").facts.cuda_language);
  r = eval1("project(p CXX)\ninclude(CheckLanguage)\ncheck_language(CUDA)\nif(CMAKE_CUDA_COMPILER)\n enable_language(CUDA)\nendif()");
  ASSERT_TRUE(r.facts.cuda_language);
  EXPECT_TRUE(r.facts.cuda_language->conditional);
  r = eval1("enable_language(CUDA)");
  ASSERT_TRUE(r.facts.cuda_language);
  EXPECT_FALSE(r.facts.cuda_language->conditional);
  EXPECT_EQ(probe("project(myproj)\nset(TORCH_CUDA_ARCH_LIST \"${PROJECT_NAME}|${myproj_SOURCE_DIR}|${PROJECT_SOURCE_DIR}\")"),
            (V{"myproj|/p|/p"}));
}

TEST(CMakeEval, MinimumRequiredAndToolkitVersion) {
  Project p("cmake_minimum_required(VERSION 3.18...3.27)\nfind_package(CUDAToolkit 12.4 REQUIRED)\n");
  auto r = p.eval();
  ASSERT_TRUE(r.facts.cmake_minimum_required);
  EXPECT_EQ(r.facts.cmake_minimum_required->value, "3.18");
  EXPECT_EQ(p.text(r.facts.cmake_minimum_required->origin), "3.18...3.27");
  ASSERT_TRUE(r.facts.cuda_toolkit_version);
  EXPECT_EQ(r.facts.cuda_toolkit_version->value, "12.4");
  EXPECT_EQ(p.text(r.facts.cuda_toolkit_version->origin), "12.4");
  EXPECT_FALSE(eval1("find_package(CUDAToolkit REQUIRED)").facts.cuda_toolkit_version);
  EXPECT_EQ(eval1("cmake_minimum_required(VERSION 3.10 FATAL_ERROR)").facts.cmake_minimum_required->value, "3.10");
}

TEST(CMakeEval, TargetCudaArchitectures) {
  Project p(
      "set_property(TARGET a b PROPERTY CUDA_ARCHITECTURES 80 90)\n"
      "set_target_properties(c PROPERTIES CXX_STANDARD 17 CUDA_ARCHITECTURES \"80;90\")\n"
      "set_property(TARGET d APPEND PROPERTY CUDA_ARCHITECTURES native)\n");
  auto r = p.eval();
  ASSERT_EQ(values(r.facts.target_cuda_architectures), (V{"a=80;90", "b=80;90", "c=80;90", "d=native"}));
  EXPECT_EQ(p.text(r.facts.target_cuda_architectures[0].value.origin), "80 90");
  EXPECT_EQ(p.text(r.facts.target_cuda_architectures[2].value.origin), "\"80;90\"");
}

TEST(CMakeEval, AbiDefines) {
  Project p(
      "target_compile_definitions(t PRIVATE _GLIBCXX_USE_CXX11_ABI=0 OTHER=1)\n"
      "add_definitions(-DFOO -D_GLIBCXX_USE_CXX11_ABI=1)\n"
      "add_compile_definitions(_GLIBCXX_USE_CXX11_ABI=0)\n"
      "set(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} -D_GLIBCXX_USE_CXX11_ABI=0\")\n"
      "string(APPEND CMAKE_CXX_FLAGS \" -O2\")\n"
      "target_compile_options(u PRIVATE -D_GLIBCXX_USE_CXX11_ABI=1)\n"
      "target_compile_definitions(v PUBLIC $<$<CONFIG:Release>:_GLIBCXX_USE_CXX11_ABI=1>)\n"
      "target_compile_definitions(w PRIVATE _GLIBCXX_USE_CXX11_ABI=${ABI})\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  ASSERT_EQ(values(r.facts.abi_defines), (V{"t=0", "=1", "=0", "=0", "u=1", "v=1"}));
  EXPECT_EQ(p.text(r.facts.abi_defines[0].value.origin), "_GLIBCXX_USE_CXX11_ABI=0");
  EXPECT_EQ(p.text(r.facts.abi_defines[1].value.origin), "-D_GLIBCXX_USE_CXX11_ABI=1");
  EXPECT_EQ(p.text(r.facts.abi_defines[3].value.origin), "\"${CMAKE_CXX_FLAGS} -D_GLIBCXX_USE_CXX11_ABI=0\"");
}

TEST(CMakeEval, AbiDefineFromFlagsVariable) {
  // The value written through a variable is attributed to the CMAKE_CXX_FLAGS write.
  Project p("set(ABI_FLAG -D_GLIBCXX_USE_CXX11_ABI=1)\nset(CMAKE_CXX_FLAGS \"-O2 ${ABI_FLAG}\")\n");
  auto r = p.eval();
  ASSERT_EQ(values(r.facts.abi_defines), (V{"=1"}));
  EXPECT_EQ(p.text(r.facts.abi_defines[0].value.origin), "\"-O2 ${ABI_FLAG}\"");
}

TEST(CMakeEval, TorchFacts) {
  Project p(
      "find_package(Torch REQUIRED)\n"
      "add_executable(app main.cpp)\n"
      "target_link_libraries(app \"${TORCH_LIBRARIES}\")\n"
      "target_link_libraries(app torch)\n"
      "target_link_libraries(b PRIVATE Torch::Torch)\n"
      "set(LIBS ${TORCH_LIBRARIES} m)\n"
      "target_link_libraries(c PUBLIC ${LIBS})\n"
      "target_link_libraries(d PUBLIC m pthread)\n");
  auto r = p.eval();
  ASSERT_TRUE(r.facts.find_package_torch);
  EXPECT_EQ(p.text(r.facts.find_package_torch->origin), "Torch");
  ASSERT_EQ(values(r.facts.torch_linked_targets), (V{"app=${TORCH_LIBRARIES}", "b=Torch::Torch", "c=${LIBS}"}));
  EXPECT_EQ(p.text(r.facts.torch_linked_targets[0].value.origin), "\"${TORCH_LIBRARIES}\"");
  EXPECT_TRUE(r.facts.torch_cxx_flags_uses.empty());
}

TEST(CMakeEval, TorchCxxFlagsUses) {
  Project p("set(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} ${TORCH_CXX_FLAGS}\")\nset(CMAKE_CXX_FLAGS \"${CMAKE_CXX_FLAGS} -O2\")\n");
  auto r = p.eval();
  ASSERT_EQ(r.facts.torch_cxx_flags_uses.size(), 1u);  // the second set only carries it along
  EXPECT_EQ(p.text(r.facts.torch_cxx_flags_uses[0].origin), "\"${CMAKE_CXX_FLAGS} ${TORCH_CXX_FLAGS}\"");
  EXPECT_EQ(eval1("string(APPEND CMAKE_CXX_FLAGS \" ${TORCH_CXX_FLAGS}\")").facts.torch_cxx_flags_uses.size(), 1u);
  EXPECT_EQ(eval1("target_compile_options(t PRIVATE ${TORCH_CXX_FLAGS})").facts.torch_cxx_flags_uses.size(), 1u);
  EXPECT_EQ(eval1("list(APPEND CMAKE_CXX_FLAGS ${TORCH_CXX_FLAGS})").facts.torch_cxx_flags_uses.size(), 1u);
  EXPECT_EQ(eval1("set(F ${TORCH_CXX_FLAGS})\nset(CMAKE_CXX_FLAGS \"${F}\")").facts.torch_cxx_flags_uses.size(), 1u);
  EXPECT_TRUE(eval1("set(OTHER \"${TORCH_CXX_FLAGS}\")").facts.torch_cxx_flags_uses.empty());
}

TEST(CMakeEval, LegacyFindCuda) {
  Project p(
      "find_package(CUDA REQUIRED)\n"
      "cuda_add_library(k k.cu)\ncuda_add_executable(e e.cu)\n"
      "set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS};-O3)\nlist(APPEND CUDA_NVCC_FLAGS -lineinfo)\n");
  auto r = p.eval();
  ASSERT_EQ(values(r.facts.legacy_find_cuda),
            (V{"find_package(CUDA)", "cuda_add_library", "cuda_add_executable", "CUDA_NVCC_FLAGS", "CUDA_NVCC_FLAGS"}));
  EXPECT_EQ(p.text(r.facts.legacy_find_cuda[0].origin), "CUDA");
  EXPECT_EQ(p.text(r.facts.legacy_find_cuda[1].origin), "cuda_add_library");
  EXPECT_EQ(p.text(r.facts.legacy_find_cuda[3].origin), "CUDA_NVCC_FLAGS");
  // A project's own function of that name is not FindCUDA's.
  EXPECT_TRUE(eval1("function(cuda_add_library)\nendfunction()\ncuda_add_library(k k.cu)").facts.legacy_find_cuda.empty());
}

TEST(CMakeEval, CudaArchFlags) {
  Project p(
      "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -gencode=arch=compute_70,code=sm_70\")\n"
      "string(APPEND CMAKE_CUDA_FLAGS \" --use_fast_math -gencode arch=compute_80,code=sm_80\")\n"
      "set(CMAKE_CUDA_FLAGS_RELEASE \"-arch=sm_90 -O3\")\n"
      "target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--generate-code=arch=compute_86,code=sm_86>)\n"
      "add_compile_options(\"$<$<COMPILE_LANGUAGE:CUDA>:SHELL:--gpu-architecture sm_75>\" -march=native)\n"
      "target_compile_options(k PRIVATE -gencode arch=compute_89,code=sm_89)\n");
  auto r = p.eval();
  EXPECT_TRUE(r.errors.empty()) << errors_of(r);
  ASSERT_EQ(values(r.facts.cuda_arch_flags),
            (V{"-gencode=arch=compute_70,code=sm_70", "-gencode arch=compute_80,code=sm_80", "-arch=sm_90",
               "--generate-code=arch=compute_86,code=sm_86", "--gpu-architecture sm_75",
               "-gencode arch=compute_89,code=sm_89"}));
  EXPECT_EQ(p.text(r.facts.cuda_arch_flags[0].origin), "\"${CMAKE_CUDA_FLAGS} -gencode=arch=compute_70,code=sm_70\"");
  EXPECT_EQ(p.text(r.facts.cuda_arch_flags[5].origin), "-gencode");
}

TEST(CMakeEval, CudaArchFlagsThroughVariablesAndConditions) {
  Project p(
      "set(ARCH_FLAGS \"-gencode arch=compute_80,code=sm_80\")\n"
      "if(WIN32)\n set(MORE \"-arch=sm_75\")\nendif()\n"
      "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} ${ARCH_FLAGS} ${MORE}\")\n");
  auto r = p.eval();
  ASSERT_EQ(values(r.facts.cuda_arch_flags), (V{"-gencode arch=compute_80,code=sm_80", "-arch=sm_75?"}));
  EXPECT_EQ(p.text(r.facts.cuda_arch_flags[0].origin), "\"${CMAKE_CUDA_FLAGS} ${ARCH_FLAGS} ${MORE}\"");
}

TEST(CMakeEval, FixtureGencodeAndArchs) {
  auto r = eval1(
      "cmake_minimum_required(VERSION 3.18)\nproject(k LANGUAGES CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80 90)\n"
      "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -gencode=arch=compute_70,code=sm_70\")\nadd_library(k k.cu)\n");
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80;90"}));
  EXPECT_EQ(values(r.facts.cuda_arch_flags), (V{"-gencode=arch=compute_70,code=sm_70"}));
  r = eval1("set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} --use_fast_math\")");
  EXPECT_TRUE(r.facts.cuda_arch_flags.empty());
}

TEST(CMakeEval, FactsInsideUndecidableBranchesAreConditional) {
  auto r = eval1(
      "if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.8)\n"
      "  set(CMAKE_CUDA_ARCHITECTURES 80 90 100)\n"
      "  target_compile_definitions(t PRIVATE _GLIBCXX_USE_CXX11_ABI=1)\n"
      "  enable_language(CUDA)\n"
      "else()\n  set(CMAKE_CUDA_ARCHITECTURES 80 90)\nendif()\n");
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80;90;100?", "80;90?"}));
  EXPECT_EQ(values(r.facts.abi_defines), (V{"t=1?"}));
  ASSERT_TRUE(r.facts.cuda_language);
  EXPECT_TRUE(r.facts.cuda_language->conditional);
}

TEST(CMakeEval, ParseAndStructureErrorsOfFiles) {
  Project p("include(bad.cmake)\nendif()\nif(1)\nset(CMAKE_CUDA_ARCHITECTURES 80)\n");
  p.add("bad.cmake", "set(a \"unterminated\n");
  auto r = p.eval();
  ASSERT_EQ(r.errors.size(), 3u) << errors_of(r);
  EXPECT_EQ(r.errors[0].where.path, "CMakeLists.txt");
  EXPECT_NE(r.errors[0].message.find("`endif` without a matching `if`"), std::string::npos);
  EXPECT_NE(r.errors[1].message.find("`if` is never closed"), std::string::npos);
  EXPECT_EQ(r.errors[2].where.path, "bad.cmake");
  EXPECT_NE(r.errors[2].message.find("unterminated quoted argument"), std::string::npos);
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80"}));  // evaluated anyway
}

TEST(CMakeEval, MisnestedBlocks) {
  auto r = eval1("foreach(a 1)\nif(1)\nendforeach()\nset(TORCH_CUDA_ARCH_LIST x)\n");
  ASSERT_EQ(r.errors.size(), 1u) << errors_of(r);
  EXPECT_NE(r.errors[0].message.find("`if` is not closed before `endforeach`"), std::string::npos);
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"x"}));
}

TEST(CMakeEval, TopLevelMissing) {
  auto r = Project().eval();
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("cannot read"), std::string::npos);
  EXPECT_TRUE(r.files_read.empty());
}

TEST(CMakeEval, IncludeLoopIsBounded) {
  Project p("include(a.cmake)\nset(TORCH_CUDA_ARCH_LIST done)\n");
  p.add("a.cmake", "set(CMAKE_CUDA_ARCHITECTURES 80)\ninclude(b.cmake)\n");
  p.add("b.cmake", "include(a.cmake)\n");
  auto r = p.eval();
  ASSERT_EQ(r.errors.size(), 1u) << errors_of(r);
  EXPECT_NE(r.errors[0].message.find("include depth limit reached"), std::string::npos);
  EXPECT_EQ(values(r.facts.cmake_cuda_architectures), (V{"80"}));  // deduplicated
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"done"}));
  EXPECT_EQ(r.files_read, (V{"/p/CMakeLists.txt", "/p/a.cmake", "/p/b.cmake"}));
}

TEST(CMakeEval, ExponentialIncludeIsBounded) {
  Project p("include(a.cmake)\n");
  p.add("a.cmake", "include(a.cmake)\ninclude(a.cmake)\n");
  auto start = std::chrono::steady_clock::now();
  auto r = p.eval();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, 20.0);
  EXPECT_FALSE(r.errors.empty());
  EXPECT_LE(r.errors.size(), 3u) << errors_of(r);
}

TEST(CMakeEval, RecursiveFunctionIsBounded) {
  auto r = eval1("function(f)\n f()\nendfunction()\nf()\nset(TORCH_CUDA_ARCH_LIST done)\n");
  ASSERT_EQ(r.errors.size(), 1u) << errors_of(r);
  EXPECT_NE(r.errors[0].message.find("call depth limit reached"), std::string::npos);
  EXPECT_EQ(values(r.facts.torch_cuda_arch_list), (V{"done"}));
  r = eval1("macro(m)\n m()\nendmacro()\nm()\n");
  EXPECT_EQ(r.errors.size(), 1u) << errors_of(r);
}

TEST(CMakeEval, CommandLimit) {
  auto r = eval1("foreach(i RANGE 50000)\n set(x ${i})\n set(y ${i})\nendforeach()\nset(TORCH_CUDA_ARCH_LIST never)\n");
  ASSERT_EQ(r.errors.size(), 1u) << errors_of(r);
  EXPECT_NE(r.errors[0].message.find("100000 commands"), std::string::npos);
  EXPECT_TRUE(r.facts.torch_cuda_arch_list.empty());
  // An empty body still counts its iterations.
  r = eval1("foreach(i RANGE 1000000000)\nendforeach()\n");
  EXPECT_LE(r.errors.size(), 1u);
}

TEST(CMakeEval, ValueGrowthIsBounded) {
  std::string t = "set(x aaaaaaaaaaaaaaaa)\n";
  for (int i = 0; i < 64; ++i) t += "set(x \"${x}${x}\")\n";
  t += "list(LENGTH x n)\n";
  auto start = std::chrono::steady_clock::now();
  auto r = eval1(t);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, 20.0);
}

// Work that grows with the square of the commands: each list(APPEND) rewrites the whole list,
// each IN_LIST or list(LENGTH) reads it (the fuzzer's hang: an include loop appending to a list).
TEST(CMakeEval, QuadraticListWorkIsBounded) {
  const std::string item(60, 'a');
  std::string big = "set(L " + item + ")\n";
  for (int i = 0; i < 14; ++i) big += "set(L \"${L};${L}\")\n";  // about 1 MB
  for (std::string body : {"list(APPEND A " + item + ")", std::string("if(x IN_LIST L)\nendif()"),
                           std::string("list(LENGTH L n)")}) {
    auto start = std::chrono::steady_clock::now();
    auto r = eval1(big + "foreach(i RANGE 90000)\n" + body + "\nendforeach()\nset(TORCH_CUDA_ARCH_LIST never)\n");
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(s, 20.0) << body;
    ASSERT_EQ(r.errors.size(), 1u) << body << errors_of(r);
    EXPECT_NE(r.errors[0].message.find("grew past 64 MiB"), std::string::npos) << r.errors[0].message;
    EXPECT_TRUE(r.facts.torch_cuda_arch_list.empty());
  }
}

TEST(CMakeEval, DeepBlockNestingIsBounded) {
  std::string t;
  for (int i = 0; i < 10000; ++i) t += "if(1)\n";
  t += "set(TORCH_CUDA_ARCH_LIST deep)\n";
  for (int i = 0; i < 10000; ++i) t += "endif()\n";
  auto r = eval1(t);
  EXPECT_EQ(r.errors.size(), 1u) << errors_of(r);
  EXPECT_NE(r.errors[0].message.find("nesting limit"), std::string::npos);
}

TEST(CMakeEval, LargeFileStopsAtTheCommandLimit) {
  std::string t;
  while (t.size() < (4u << 20)) t += "set(a b)\n";
  auto r = eval1(t);
  EXPECT_EQ(r.errors.size(), 1u);
}

TEST(CMakeEval, RandomProgramsTerminate) {
  // Random sequences of control-flow and data commands over a few files that include each other.
  const std::vector<std::string> pieces = {
      "if(${A})\n", "elseif(B)\n", "else()\n", "endif()\n", "foreach(x ${L})\n", "endforeach()\n",
      "while(A)\n", "endwhile()\n", "function(f a)\n", "endfunction()\n", "macro(m)\n", "endmacro()\n",
      "f(${A} 1)\n", "m()\n", "set(A ${A}${A})\n", "set(L a b ${L})\n", "list(APPEND L ${A})\n",
      "include(a.cmake)\n", "include(b.cmake)\n", "add_subdirectory(s)\n", "return()\n", "break()\n",
      "set(CMAKE_CUDA_ARCHITECTURES ${L})\n", "string(APPEND CMAKE_CUDA_FLAGS \" -arch=sm_${A}\")\n",
      "set(A \"${A}\" PARENT_SCOPE)\n", "unset(A)\n", "if(NOT (A AND (B OR \"${L}\")))\n", "block()\n", "endblock()\n"};
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    Project p;
    for (const char* f : {"CMakeLists.txt", "a.cmake", "b.cmake", "s/CMakeLists.txt"}) {
      std::string t;
      for (int i = 0, n = static_cast<int>(rng() % 25); i < n; ++i) t += pieces[rng() % pieces.size()];
      p.add(f, t);
    }
    auto r = p.eval();
    for (const auto& e : r.errors) {
      EXPECT_FALSE(e.message.empty());
      EXPECT_NE(e.message.back(), '.');
    }
  }
}

}  // namespace
}  // namespace cudalint::cmake
