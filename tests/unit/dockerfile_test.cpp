// Unit tests for the Dockerfile front-end (analyzer/frontends/dockerfile).
#include "analyzer/frontends/dockerfile/dockerfile.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace cudalint::docker {
namespace {

std::string_view at(std::string_view text, Span s) {
  EXPECT_LE(s.begin, s.end);
  EXPECT_LE(s.end, text.size());
  if (s.begin > s.end || s.end > text.size()) return {};
  return text.substr(s.begin, s.end - s.begin);
}

// Every error must point inside the file, at a non-empty range when the file is non-empty.
void check_errors(std::string_view text, const ParseResult& r) {
  for (const auto& e : r.errors) {
    EXPECT_FALSE(e.message.empty());
    EXPECT_LE(e.span.end, text.size()) << e.message;
    EXPECT_LE(e.span.begin, e.span.end) << e.message;
    if (!text.empty()) {
      EXPECT_LT(e.span.begin, e.span.end) << e.message;
    }
    if (!e.message.empty()) {
      EXPECT_NE(e.message.back(), '.') << e.message;
    }
  }
}

ParseResult ok(std::string_view text) {
  ParseResult r = parse(text);
  EXPECT_TRUE(r.errors.empty()) << (r.errors.empty() ? "" : r.errors[0].message);
  check_errors(text, r);
  return r;
}

ParseResult failing(std::string_view text) {
  ParseResult r = parse(text);
  EXPECT_FALSE(r.errors.empty());
  check_errors(text, r);
  return r;
}

std::vector<std::string> words_of(const ShellCommand& c) {
  std::vector<std::string> out;
  for (const auto& w : c.words) out.push_back(w.text);
  return out;
}

std::string expand_with(std::string_view word, const Environment& env, bool& known, char escape = '\\') {
  known = true;
  return expand(word, env, escape, known);
}

Environment env_of(std::initializer_list<std::pair<const char*, const char*>> vars) {
  Environment env;
  for (auto [k, v] : vars) env[k] = Var{v, true, false, 0, {}, {}};
  return env;
}

// ------------------------------------------------------------------------------------------
// Instructions, keywords, spans

TEST(Dockerfile, BasicInstructionsAndSpans) {
  std::string t = "FROM ubuntu:22.04\nRUN apt-get update\nCMD [\"bash\"]\n";
  auto r = ok(t);
  const auto& ins = r.ast.instructions;
  ASSERT_EQ(ins.size(), 3u);
  EXPECT_EQ(ins[0].keyword, "FROM");
  EXPECT_EQ(at(t, ins[0].keyword_span), "FROM");
  EXPECT_EQ(at(t, ins[0].span), "FROM ubuntu:22.04");
  EXPECT_EQ(ins[0].from_image, "ubuntu:22.04");
  EXPECT_EQ(at(t, ins[0].from_image_span), "ubuntu:22.04");
  EXPECT_EQ(ins[1].keyword, "RUN");
  EXPECT_EQ(ins[1].args.text, "apt-get update");
  EXPECT_EQ(at(t, ins[1].args.span_of(0, ins[1].args.text.size())), "apt-get update");
  EXPECT_EQ(at(t, ins[1].span), "RUN apt-get update");
  ASSERT_EQ(ins[1].args.offsets.size(), ins[1].args.text.size() + 1);
  EXPECT_TRUE(ins[2].json_form);
}

TEST(Dockerfile, KeywordsAreCaseInsensitiveAndUpperCased) {
  std::string t = "from ubuntu\n  Run echo hi\nwOrKdIr /src\n";
  auto r = ok(t);
  ASSERT_EQ(r.ast.instructions.size(), 3u);
  EXPECT_EQ(r.ast.instructions[0].keyword, "FROM");
  EXPECT_EQ(r.ast.instructions[1].keyword, "RUN");
  EXPECT_EQ(at(t, r.ast.instructions[1].keyword_span), "Run");
  EXPECT_EQ(r.ast.instructions[2].keyword, "WORKDIR");
  EXPECT_EQ(r.ast.instructions[2].args.text, "/src");
}

TEST(Dockerfile, ContinuationsDropCommentsAndBlankLines) {
  std::string t =
      "FROM ubuntu\n"
      "RUN apt-get update && \\\n"
      "# a comment inside\n"
      "    # an indented comment\n"
      "\n"
      "   \t\n"
      "    apt-get install -y git \\   \n"
      "    && rm -rf /var/lib/apt/lists/*\n"
      "CMD x\n";
  auto r = ok(t);
  ASSERT_EQ(r.ast.instructions.size(), 3u);
  const auto& run = r.ast.instructions[1];
  EXPECT_EQ(run.args.text, "apt-get update &&     apt-get install -y git     && rm -rf /var/lib/apt/lists/*");
  ASSERT_EQ(run.args.offsets.size(), run.args.text.size() + 1);
  // Every character maps back to the same byte in the file.
  for (size_t i = 0; i < run.args.text.size(); ++i) EXPECT_EQ(t[run.args.offsets[i]], run.args.text[i]);
  size_t git = run.args.text.find("git");
  EXPECT_EQ(at(t, run.args.span_of(git, git + 3)), "git");
  size_t rm = run.args.text.find("rm -rf");
  EXPECT_EQ(at(t, run.args.span_of(rm, rm + 6)), "rm -rf");
  // A range across the joined lines covers the file bytes in between.
  EXPECT_EQ(at(t, run.args.span_of(git, rm + 2)).substr(0, 3), "git");
  EXPECT_TRUE(at(t, run.span).starts_with("RUN apt-get update"));
  EXPECT_TRUE(at(t, run.span).ends_with("/var/lib/apt/lists/*"));
  EXPECT_EQ(r.ast.instructions[2].keyword, "CMD");
}

TEST(Dockerfile, ContinuationAtEndOfFileIsNotAnError) {
  std::string t = "FROM ubuntu\nRUN echo a \\\n";
  auto r = ok(t);
  ASSERT_EQ(r.ast.instructions.size(), 2u);
  EXPECT_EQ(r.ast.instructions[1].args.text, "echo a");
  auto r2 = ok("FROM ubuntu\nRUN echo a \\\n# trailing comment\n");
  EXPECT_EQ(r2.ast.instructions[1].args.text, "echo a");
  auto r3 = ok("FROM ubuntu\nRUN echo a \\");
  EXPECT_EQ(r3.ast.instructions[1].args.text, "echo a");
}

TEST(Dockerfile, ContinuationJoinsWithoutAddingSpace) {
  auto r = ok("FROM ubuntu\nRUN echo ab\\\ncd\n");
  EXPECT_EQ(r.ast.instructions[1].args.text, "echo abcd");
}

TEST(Dockerfile, CrLfLineEndings) {
  std::string t = "FROM ubuntu:22.04\r\nRUN apt-get update \\\r\n  && apt-get install -y git\r\nENV A=1\r\n";
  auto r = ok(t);
  ASSERT_EQ(r.ast.instructions.size(), 3u);
  const auto& run = r.ast.instructions[1];
  EXPECT_EQ(run.args.text, "apt-get update   && apt-get install -y git");
  EXPECT_EQ(at(t, run.span), "RUN apt-get update \\\r\n  && apt-get install -y git");
  EXPECT_EQ(r.ast.instructions[0].from_image, "ubuntu:22.04");
  ASSERT_EQ(r.ast.instructions[2].pairs.size(), 1u);
  EXPECT_EQ(r.ast.instructions[2].pairs[0].value, "1");
  EXPECT_EQ(at(t, r.ast.instructions[2].pairs[0].value_span), "1");
  for (char c : run.args.text) EXPECT_NE(c, '\r');
}

TEST(Dockerfile, CrOnlyLineEndings) {
  std::string t = "FROM ubuntu\rRUN a \\\r  b\rCMD c\r";
  auto r = ok(t);
  ASSERT_EQ(r.ast.instructions.size(), 3u);
  EXPECT_EQ(r.ast.instructions[1].args.text, "a   b");
  EXPECT_EQ(r.ast.instructions[2].args.text, "c");
}

TEST(Dockerfile, ByteOrderMarkIsSkipped) {
  std::string t = "\xEF\xBB\xBF# escape=`\nFROM ubuntu\nRUN echo `\n  hi\n";
  auto r = ok(t);
  EXPECT_EQ(r.ast.escape, '`');
  ASSERT_EQ(r.ast.instructions.size(), 2u);
  EXPECT_EQ(r.ast.instructions[0].keyword, "FROM");
  EXPECT_EQ(r.ast.instructions[0].keyword_span.begin, 3u + 11u);  // BOM + "# escape=`\n"
  EXPECT_EQ(r.ast.instructions[1].args.text, "echo   hi");

  std::string t2 = "\xEF\xBB\xBF" "FROM ubuntu\n";
  auto r2 = ok(t2);
  ASSERT_EQ(r2.ast.instructions.size(), 1u);
  EXPECT_EQ(at(t2, r2.ast.instructions[0].keyword_span), "FROM");
}

// ------------------------------------------------------------------------------------------
// Parser directives

TEST(Dockerfile, EscapeDirectiveBacktickWindowsStyle) {
  std::string t =
      "# escape=`\n"
      "FROM mcr.microsoft.com/windows/servercore:ltsc2022\n"
      "COPY testfile.txt c:\\\n"
      "RUN dir c:\\ `\n"
      "    && echo done\n"
      "ENV P=c:\\tools`\\bin\n";
  auto r = ok(t);
  EXPECT_EQ(r.ast.escape, '`');
  EXPECT_EQ(r.ast.directives.at("escape"), "`");
  ASSERT_EQ(r.ast.instructions.size(), 4u);
  EXPECT_EQ(r.ast.instructions[1].args.text, "testfile.txt c:\\");  // a backslash is no continuation
  EXPECT_EQ(r.ast.instructions[2].args.text, "dir c:\\     && echo done");
  ASSERT_EQ(r.ast.instructions[3].pairs.size(), 1u);
  EXPECT_EQ(r.ast.instructions[3].pairs[0].value, "c:\\tools\\bin");
  EXPECT_EQ(r.ast.instructions[3].pairs[0].raw_value, "c:\\tools`\\bin");
}

TEST(Dockerfile, FixtureStyleBacktickContinuation) {
  auto r = ok("# escape=`\nFROM mcr.microsoft.com/windows/servercore:ltsc2022\nRUN echo one `\n    two\n");
  ASSERT_EQ(r.ast.instructions.size(), 2u);
  EXPECT_EQ(r.ast.instructions[1].args.text, "echo one     two");
}

TEST(Dockerfile, SyntaxDirectiveAndCaseInsensitiveKeys) {
  auto r = ok("# syntax=docker/dockerfile:1.7\n#ESCAPE = `\nFROM a\n");
  EXPECT_EQ(r.ast.directives.at("syntax"), "docker/dockerfile:1.7");
  EXPECT_EQ(r.ast.directives.at("escape"), "`");
  EXPECT_EQ(r.ast.escape, '`');
}

TEST(Dockerfile, DirectivesOnlyAtTheVeryTop) {
  // After an instruction, a blank line or a plain comment, `# escape=` is just a comment.
  auto a = ok("FROM a\n# escape=`\nRUN echo \\\n b\n");
  EXPECT_EQ(a.ast.escape, '\\');
  EXPECT_TRUE(a.ast.directives.empty());
  EXPECT_EQ(a.ast.instructions[1].args.text, "echo  b");
  auto b = ok("\n# escape=`\nFROM a\n");
  EXPECT_EQ(b.ast.escape, '\\');
  auto c = ok("# hello\n# escape=`\nFROM a\n");
  EXPECT_EQ(c.ast.escape, '\\');
  auto d = ok("# unknowndirective=1\n# escape=`\nFROM a\n");
  EXPECT_EQ(d.ast.escape, '\\');
  EXPECT_TRUE(d.ast.directives.empty());
}

TEST(Dockerfile, InvalidEscapeDirectiveIsAnError) {
  std::string t = "# escape=x\nFROM a\n";
  auto r = failing(t);
  EXPECT_EQ(r.ast.escape, '\\');
  EXPECT_EQ(at(t, r.errors[0].span), "x");
  EXPECT_NE(r.errors[0].message.find("`x`"), std::string::npos);
}

// ------------------------------------------------------------------------------------------
// Flags

TEST(Dockerfile, FlagsOnFromRunCopyAddHealthcheck) {
  std::string t =
      "FROM --platform=$BUILDPLATFORM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build\n"
      "RUN --mount=type=cache,target=/root/.cache/pip --network=none pip install .\n"
      "COPY --from=build --chown=1000:1000 /out /out\n"
      "ADD --link --keep-git-dir=\"true\" https://x/y.git /src\n"
      "HEALTHCHECK --interval=5m --timeout=3s CMD curl -f http://localhost/\n"
      "RUN -- --not-a-flag\n"
      "ENV --x=1\n";
  auto r = ok(t);
  const auto& ins = r.ast.instructions;
  ASSERT_EQ(ins.size(), 7u);
  ASSERT_EQ(ins[0].flags.size(), 1u);
  EXPECT_EQ(ins[0].flags[0].name, "platform");
  EXPECT_EQ(ins[0].flags[0].value, "$BUILDPLATFORM");
  EXPECT_EQ(at(t, ins[0].flags[0].span), "--platform=$BUILDPLATFORM");
  EXPECT_EQ(ins[0].from_image, "nvidia/cuda:12.4.1-devel-ubuntu22.04");
  EXPECT_EQ(ins[0].from_alias, "build");
  ASSERT_EQ(ins[1].flags.size(), 2u);
  EXPECT_EQ(ins[1].flags[0].name, "mount");
  EXPECT_EQ(ins[1].flags[0].value, "type=cache,target=/root/.cache/pip");
  EXPECT_EQ(ins[1].flags[1].name, "network");
  EXPECT_EQ(ins[1].args.text, "pip install .");
  ASSERT_EQ(ins[2].flags.size(), 2u);
  EXPECT_EQ(ins[2].flags[0].value, "build");
  EXPECT_EQ(ins[2].flags[1].value, "1000:1000");
  EXPECT_EQ(ins[2].args.text, "/out /out");
  ASSERT_EQ(ins[3].flags.size(), 2u);
  EXPECT_EQ(ins[3].flags[0].name, "link");
  EXPECT_EQ(ins[3].flags[0].value, "");
  EXPECT_EQ(ins[3].flags[1].name, "keep-git-dir");
  EXPECT_EQ(ins[3].flags[1].value, "true");
  EXPECT_EQ(at(t, ins[3].flags[1].span), "--keep-git-dir=\"true\"");
  ASSERT_EQ(ins[4].flags.size(), 2u);
  EXPECT_EQ(ins[4].args.text, "CMD curl -f http://localhost/");
  EXPECT_TRUE(ins[5].flags.empty());
  EXPECT_EQ(ins[5].args.text, "--not-a-flag");
  EXPECT_TRUE(ins[6].flags.empty());  // ENV takes no flags
}

// ------------------------------------------------------------------------------------------
// JSON (exec) form

TEST(Dockerfile, JsonFormWithElementSpans) {
  std::string t = "FROM a\nCMD [ \"python\", \"-c\",\"print(\\\"hi\\\")\" ]\nENTRYPOINT [\"caf\\u00e9\", \"\\ud83d\\ude00\"]\n";
  auto r = ok(t);
  const auto& cmd = r.ast.instructions[1];
  ASSERT_TRUE(cmd.json_form);
  ASSERT_EQ(cmd.json_args.size(), 3u);
  EXPECT_EQ(cmd.json_args[0], "python");
  EXPECT_EQ(cmd.json_args[2], "print(\"hi\")");
  ASSERT_EQ(cmd.json_arg_spans.size(), 3u);
  EXPECT_EQ(at(t, cmd.json_arg_spans[0]), "\"python\"");
  EXPECT_EQ(at(t, cmd.json_arg_spans[1]), "\"-c\"");
  EXPECT_EQ(at(t, cmd.json_arg_spans[2]), "\"print(\\\"hi\\\")\"");
  const auto& ep = r.ast.instructions[2];
  ASSERT_TRUE(ep.json_form);
  EXPECT_EQ(ep.json_args[0], "caf\xC3\xA9");
  EXPECT_EQ(ep.json_args[1], "\xF0\x9F\x98\x80");
}

TEST(Dockerfile, JsonFormAcrossContinuationLines) {
  std::string t = "FROM a\nRUN [\"pip\", \\\n     \"install\", \\\n     \".\"]\n";
  auto r = ok(t);
  const auto& run = r.ast.instructions[1];
  ASSERT_TRUE(run.json_form);
  EXPECT_EQ(run.json_args, (std::vector<std::string>{"pip", "install", "."}));
  EXPECT_EQ(at(t, run.json_arg_spans[1]), "\"install\"");
  EXPECT_EQ(at(t, run.json_arg_spans[2]), "\".\"");
  EXPECT_TRUE(run.heredocs.empty());
}

TEST(Dockerfile, InvalidJsonFallsBackToShellForm) {
  for (const char* args : {"['a', 'b']", "[\"a\",]", "[\"a\"] extra", "[1, 2]", "[\"a\" \"b\"]", "[\"a\\x\"]",
                           "[\"unterminated]", "[ \"tab\there\" ]", "[\"a\", null]", "[", "[[\"a\"]]"}) {
    std::string t = std::string("FROM a\nCMD ") + args + "\n";
    auto r = ok(t);
    ASSERT_EQ(r.ast.instructions.size(), 2u);
    EXPECT_FALSE(r.ast.instructions[1].json_form) << args;
    EXPECT_TRUE(r.ast.instructions[1].json_args.empty()) << args;
    EXPECT_EQ(r.ast.instructions[1].args.text, args);
  }
  auto e = ok("FROM a\nCMD []\n");
  EXPECT_TRUE(e.ast.instructions[1].json_form);
  EXPECT_TRUE(e.ast.instructions[1].json_args.empty());
  // Not every instruction has an exec form.
  auto w = ok("FROM a\nWORKDIR [\"x\"]\n");
  EXPECT_FALSE(w.ast.instructions[1].json_form);
}

TEST(Dockerfile, HealthcheckExecFormAfterCmd) {
  std::string t = "FROM a\nHEALTHCHECK --retries=3 CMD [\"curl\", \"-f\", \"http://x/\"]\n";
  auto r = ok(t);
  const auto& hc = r.ast.instructions[1];
  ASSERT_TRUE(hc.json_form);
  EXPECT_EQ(hc.json_args, (std::vector<std::string>{"curl", "-f", "http://x/"}));
  EXPECT_EQ(at(t, hc.json_arg_spans[0]), "\"curl\"");
}

// ------------------------------------------------------------------------------------------
// Heredocs

TEST(Dockerfile, HeredocBasic) {
  std::string t =
      "FROM a\n"
      "RUN <<EOF\n"
      "apt-get update\n"
      "apt-get install -y git\n"
      "EOF\n"
      "CMD done\n";
  auto r = ok(t);
  ASSERT_EQ(r.ast.instructions.size(), 3u);
  const auto& run = r.ast.instructions[1];
  ASSERT_EQ(run.heredocs.size(), 1u);
  const auto& h = run.heredocs[0];
  EXPECT_EQ(h.delimiter, "EOF");
  EXPECT_FALSE(h.quoted);
  EXPECT_FALSE(h.strip_tabs);
  EXPECT_EQ(h.body, "apt-get update\napt-get install -y git");
  EXPECT_EQ(at(t, h.body_span), "apt-get update\napt-get install -y git");
  EXPECT_EQ(at(t, run.span), "RUN <<EOF\napt-get update\napt-get install -y git\nEOF");
  EXPECT_EQ(run.args.text, "<<EOF");
  EXPECT_EQ(r.ast.instructions[2].keyword, "CMD");
}

TEST(Dockerfile, HeredocQuotedAndStripTabs) {
  std::string t =
      "FROM a\n"
      "RUN <<\"EOF\"\n"
      "echo $HOME\n"
      "EOF\n"
      "RUN python3 - <<'PY'\n"
      "print('x')\n"
      "PY\n"
      "RUN <<-END\n"
      "\t\techo tabbed\n"
      "\tEND\n";
  auto r = ok(t);
  ASSERT_EQ(r.ast.instructions.size(), 4u);
  const auto& q = r.ast.instructions[1].heredocs.at(0);
  EXPECT_EQ(q.delimiter, "EOF");
  EXPECT_TRUE(q.quoted);
  EXPECT_EQ(q.body, "echo $HOME");
  const auto& py = r.ast.instructions[2].heredocs.at(0);
  EXPECT_EQ(py.delimiter, "PY");
  EXPECT_TRUE(py.quoted);
  EXPECT_EQ(py.body, "print('x')");
  const auto& tabs = r.ast.instructions[3].heredocs.at(0);
  EXPECT_EQ(tabs.delimiter, "END");
  EXPECT_TRUE(tabs.strip_tabs);
  EXPECT_FALSE(tabs.quoted);
  EXPECT_EQ(tabs.body, "echo tabbed");
  EXPECT_EQ(at(t, tabs.body_span), "\t\techo tabbed");
  EXPECT_TRUE(at(t, r.ast.instructions[3].span).ends_with("\tEND"));
}

TEST(Dockerfile, TwoHeredocsInOneRun) {
  std::string t =
      "FROM a\n"
      "RUN <<FILE1 cat > /a && <<FILE2 cat > /b\n"
      "one\n"
      "FILE1\n"
      "two\n"
      "three\n"
      "FILE2\n"
      "ENV X=1\n";
  auto r = ok(t);
  ASSERT_EQ(r.ast.instructions.size(), 3u);
  const auto& run = r.ast.instructions[1];
  ASSERT_EQ(run.heredocs.size(), 2u);
  EXPECT_EQ(run.heredocs[0].delimiter, "FILE1");
  EXPECT_EQ(run.heredocs[0].body, "one");
  EXPECT_EQ(run.heredocs[1].delimiter, "FILE2");
  EXPECT_EQ(run.heredocs[1].body, "two\nthree");
  EXPECT_EQ(at(t, run.heredocs[1].body_span), "two\nthree");
  EXPECT_TRUE(at(t, run.span).ends_with("three\nFILE2"));
  EXPECT_EQ(r.ast.instructions[2].keyword, "ENV");
}

TEST(Dockerfile, HeredocInCopyAndEmptyBodyAndCrLf) {
  std::string t = "FROM a\r\nCOPY <<EOF /etc/x.conf\r\nk=v\r\nEOF\r\nRUN <<EOF\r\nEOF\r\n";
  auto r = ok(t);
  ASSERT_EQ(r.ast.instructions.size(), 3u);
  EXPECT_EQ(r.ast.instructions[1].heredocs.at(0).body, "k=v");
  EXPECT_EQ(at(t, r.ast.instructions[1].heredocs[0].body_span), "k=v");
  const auto& empty = r.ast.instructions[2].heredocs.at(0);
  EXPECT_EQ(empty.body, "");
  EXPECT_EQ(empty.body_span.begin, empty.body_span.end);
}

TEST(Dockerfile, NoHeredocInQuotesJsonOrOtherInstructions) {
  auto r = ok("FROM a\nRUN echo \"<<EOF\" 'x<<y'\nRUN [\"cat\", \"<<EOF\"]\nCMD cat <<EOF\nLABEL a=\"<<EOF\"\n");
  ASSERT_EQ(r.ast.instructions.size(), 5u);
  for (const auto& ins : r.ast.instructions) EXPECT_TRUE(ins.heredocs.empty()) << ins.keyword;
}

TEST(Dockerfile, HeredocWithContinuationBeforeBody) {
  auto r = ok("FROM a\nRUN --mount=type=cache,target=/c \\\n    <<EOF\necho hi\nEOF\n");
  ASSERT_EQ(r.ast.instructions.size(), 2u);
  ASSERT_EQ(r.ast.instructions[1].heredocs.size(), 1u);
  EXPECT_EQ(r.ast.instructions[1].heredocs[0].body, "echo hi");
  EXPECT_EQ(r.ast.instructions[1].flags.size(), 1u);
}

TEST(Dockerfile, UnterminatedHeredocPointsAtMarker) {
  std::string t = "FROM a\nRUN cat <<EOF > /x\nline\nEOFX\n";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(at(t, r.errors[0].span), "<<EOF");
  EXPECT_NE(r.errors[0].message.find("unterminated heredoc `EOF`"), std::string::npos);
  ASSERT_EQ(r.ast.instructions.size(), 2u);
  EXPECT_EQ(r.ast.instructions[1].heredocs.at(0).body, "line\nEOFX");
  auto r2 = failing("FROM a\nRUN <<-'DONE'");
  EXPECT_EQ(at("FROM a\nRUN <<-'DONE'", r2.errors[0].span), "<<-'DONE'");
}

// ------------------------------------------------------------------------------------------
// ENV / ARG / LABEL

TEST(Dockerfile, EnvPairsQuotesAndEscapes) {
  std::string t =
      "FROM a\n"
      "ENV k=v k2=\"v 2\" k3='lit $X \\n' k4=a\\ b k5=\"q\\\"x\" k6= k7=${X:-d}\n";
  auto r = ok(t);
  const auto& p = r.ast.instructions[1].pairs;
  ASSERT_EQ(p.size(), 7u);
  EXPECT_EQ(p[0].key, "k");
  EXPECT_EQ(p[0].value, "v");
  EXPECT_EQ(at(t, p[0].key_span), "k");
  EXPECT_EQ(at(t, p[0].value_span), "v");
  EXPECT_EQ(p[1].value, "v 2");
  EXPECT_EQ(p[1].raw_value, "\"v 2\"");
  EXPECT_EQ(at(t, p[1].value_span), "\"v 2\"");
  EXPECT_EQ(p[2].value, "lit $X \\n");
  EXPECT_EQ(p[3].value, "a b");
  EXPECT_EQ(p[3].raw_value, "a\\ b");
  EXPECT_EQ(p[4].value, "q\"x");
  EXPECT_TRUE(p[5].has_value);
  EXPECT_EQ(p[5].value, "");
  EXPECT_EQ(p[5].value_span.begin, p[5].value_span.end);
  EXPECT_EQ(p[6].value, "${X:-d}");  // not expanded by the parser
  for (const auto& kv : p) EXPECT_TRUE(kv.has_value);
}

TEST(Dockerfile, EnvLegacyForm) {
  std::string t = "FROM a\nENV TORCH_CUDA_ARCH_LIST 8.0 8.6  9.0+PTX\nENV Q \"quoted value\"\n";
  auto r = ok(t);
  const auto& p = r.ast.instructions[1].pairs;
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].key, "TORCH_CUDA_ARCH_LIST");
  EXPECT_EQ(p[0].value, "8.0 8.6  9.0+PTX");
  EXPECT_EQ(at(t, p[0].value_span), "8.0 8.6  9.0+PTX");
  EXPECT_EQ(at(t, p[0].key_span), "TORCH_CUDA_ARCH_LIST");
  EXPECT_EQ(r.ast.instructions[2].pairs.at(0).value, "quoted value");
  EXPECT_EQ(r.ast.instructions[2].pairs.at(0).raw_value, "\"quoted value\"");
}

TEST(Dockerfile, EnvValueAcrossContinuation) {
  std::string t = "FROM a\nENV A=1 \\\n    B=\"x \\\n y\"\n";
  auto r = ok(t);
  const auto& p = r.ast.instructions[1].pairs;
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[1].key, "B");
  EXPECT_EQ(p[1].value, "x  y");
  EXPECT_EQ(at(t, p[1].value_span), "\"x \\\n y\"");
}

TEST(Dockerfile, ArgForms) {
  std::string t = "ARG A\nARG B=2 C=\"three 3\" D\nFROM x\nARG E=\nARG\tF\n";
  auto r = ok(t);
  const auto& ins = r.ast.instructions;
  ASSERT_EQ(ins[0].pairs.size(), 1u);
  EXPECT_EQ(ins[0].pairs[0].key, "A");
  EXPECT_FALSE(ins[0].pairs[0].has_value);
  EXPECT_EQ(ins[0].pairs[0].value_span.begin, ins[0].pairs[0].value_span.end);
  EXPECT_EQ(at(t, ins[0].pairs[0].key_span), "A");
  ASSERT_EQ(ins[1].pairs.size(), 3u);
  EXPECT_EQ(ins[1].pairs[0].value, "2");
  EXPECT_EQ(ins[1].pairs[1].value, "three 3");
  EXPECT_EQ(at(t, ins[1].pairs[1].value_span), "\"three 3\"");
  EXPECT_FALSE(ins[1].pairs[2].has_value);
  EXPECT_TRUE(ins[3].pairs.at(0).has_value);
  EXPECT_EQ(ins[3].pairs.at(0).value, "");
  EXPECT_EQ(ins[4].pairs.at(0).key, "F");
  EXPECT_EQ(r.ast.global_args, (std::vector<size_t>{0, 1}));
}

TEST(Dockerfile, LabelPairs) {
  std::string t = "FROM a\nLABEL \"com.example.vendor\"=\"ACME Inc\" version=1.0 description='multi word'\n";
  auto r = ok(t);
  const auto& p = r.ast.instructions[1].pairs;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].key, "com.example.vendor");
  EXPECT_EQ(at(t, p[0].key_span), "\"com.example.vendor\"");
  EXPECT_EQ(p[0].value, "ACME Inc");
  EXPECT_EQ(p[1].value, "1.0");
  EXPECT_EQ(p[2].value, "multi word");
}

TEST(Dockerfile, UnterminatedQuoteInEnvAndArg) {
  std::string t = "FROM a\nENV A=\"open B=2\nARG C='x\n";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(at(t, r.errors[0].span), "\"open B=2");
  EXPECT_NE(r.errors[0].message.find("`A`"), std::string::npos);
  EXPECT_EQ(at(t, r.errors[1].span), "'x");
  EXPECT_NE(r.errors[1].message.find("`C`"), std::string::npos);
  // What could be parsed is still there.
  EXPECT_EQ(r.ast.instructions[1].pairs.at(0).value, "open B=2");
}

TEST(Dockerfile, EnvErrors) {
  std::string t = "FROM a\nENV ONLYKEY\nENV A=1 B\nENV =x\n";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 3u);
  EXPECT_EQ(at(t, r.errors[0].span), "ONLYKEY");
  EXPECT_EQ(at(t, r.errors[1].span), "B");
  EXPECT_EQ(at(t, r.errors[2].span), "=x");
}

TEST(Dockerfile, TrailingCommentsAfterPairsAndImage) {
  // Not valid for BuildKit, but cudalint suppressions are written this way.
  std::string t =
      "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build  # cudalint: ignore[ARCH003]\n"
      "ENV TORCH_CUDA_ARCH_LIST=\"3.5;8.0\"  # cudalint: ignore[ARCH003]\n"
      "ARG X=1 #comment\n"
      "LABEL a=b # c\n"
      "ENV LEGACY value # stays in the value, as in Docker\n";
  auto r = ok(t);
  const auto& ins = r.ast.instructions;
  EXPECT_EQ(ins[0].from_alias, "build");
  ASSERT_EQ(ins[1].pairs.size(), 1u);
  EXPECT_EQ(ins[1].pairs[0].value, "3.5;8.0");
  EXPECT_EQ(at(t, ins[1].pairs[0].value_span), "\"3.5;8.0\"");
  ASSERT_EQ(ins[2].pairs.size(), 1u);
  ASSERT_EQ(ins[3].pairs.size(), 1u);
  EXPECT_EQ(ins[4].pairs.at(0).value, "value # stays in the value, as in Docker");
}

// ------------------------------------------------------------------------------------------
// FROM and stages

TEST(Dockerfile, FromAliasAndStages) {
  std::string t =
      "ARG CUDA=12.4.1\n"
      "FROM nvidia/cuda:${CUDA}-devel-ubuntu22.04 AS Build\n"
      "RUN make\n"
      "FROM build as test\n"
      "RUN make test\n"
      "FROM 0\n"
      "FROM ubuntu:22.04\n"
      "COPY --from=build /out /out\n";
  auto r = ok(t);
  const auto& st = r.ast.stages;
  ASSERT_EQ(st.size(), 4u);
  EXPECT_EQ(st[0].name, "Build");
  EXPECT_EQ(st[0].from_instruction, 1u);
  EXPECT_EQ(st[0].end_instruction, 3u);
  EXPECT_EQ(st[0].base_image, "nvidia/cuda:12.4.1-devel-ubuntu22.04");
  EXPECT_TRUE(st[0].base_image_known);
  EXPECT_FALSE(st[0].parent_stage);
  EXPECT_EQ(r.ast.instructions[1].from_image, "nvidia/cuda:${CUDA}-devel-ubuntu22.04");
  EXPECT_EQ(at(t, r.ast.instructions[1].from_image_span), "nvidia/cuda:${CUDA}-devel-ubuntu22.04");
  EXPECT_EQ(st[1].name, "test");
  EXPECT_EQ(st[1].parent_stage, 0u);  // `build` names `Build`
  EXPECT_EQ(st[1].end_instruction, 5u);
  EXPECT_EQ(st[2].parent_stage, 0u);  // numeric index
  EXPECT_EQ(st[3].name, "");
  EXPECT_FALSE(st[3].parent_stage);
  EXPECT_EQ(st[3].end_instruction, r.ast.instructions.size());
  EXPECT_EQ(r.ast.global_args, std::vector<size_t>{0});
  EXPECT_EQ(stage_of(r.ast, 0), std::nullopt);
  EXPECT_EQ(stage_of(r.ast, 1), 0u);
  EXPECT_EQ(stage_of(r.ast, 2), 0u);
  EXPECT_EQ(stage_of(r.ast, 4), 1u);
  EXPECT_EQ(stage_of(r.ast, 7), 3u);
  EXPECT_EQ(stage_of(r.ast, 8), std::nullopt);
}

TEST(Dockerfile, FromWithDefaultAndUnknownArgs) {
  auto a = ok("FROM nvidia/cuda:${CUDA:-12.4.1}-devel-ubuntu22.04\n");
  EXPECT_EQ(a.ast.stages.at(0).base_image, "nvidia/cuda:12.4.1-devel-ubuntu22.04");
  EXPECT_TRUE(a.ast.stages[0].base_image_known);  // nothing can set CUDA: the default is used

  auto b = ok("ARG CUDA\nFROM nvidia/cuda:${CUDA:-12.4.1}-devel-ubuntu22.04\n");
  EXPECT_EQ(b.ast.stages.at(0).base_image, "nvidia/cuda:12.4.1-devel-ubuntu22.04");
  EXPECT_FALSE(b.ast.stages[0].base_image_known);  // --build-arg CUDA=… may change it

  auto c = ok("ARG CUDA\nFROM nvidia/cuda:${CUDA}-devel\n");
  EXPECT_EQ(c.ast.stages.at(0).base_image, "nvidia/cuda:-devel");
  EXPECT_FALSE(c.ast.stages[0].base_image_known);

  auto d = ok("ARG V=12.4\nARG IMG=nvidia/cuda:${V}.1\nFROM $IMG-devel\n");
  EXPECT_EQ(d.ast.stages.at(0).base_image, "nvidia/cuda:12.4.1-devel");
  EXPECT_TRUE(d.ast.stages[0].base_image_known);

  // ARGs after the first FROM are not global.
  auto e = ok("FROM a\nARG B=x\nFROM ${B}\n");
  EXPECT_EQ(e.ast.stages.at(1).base_image, "");
  EXPECT_FALSE(e.ast.stages[1].base_image_known);

  auto f = ok("ARG BASE=builder\nFROM ubuntu AS builder\nFROM ${BASE}\n");
  EXPECT_EQ(f.ast.stages.at(1).parent_stage, 0u);
}

TEST(Dockerfile, FromErrors) {
  std::string t = "FROM\nFROM --platform=linux/amd64\nFROM a b\nFROM a AS\nFROM a AS b c\n";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 5u);
  EXPECT_EQ(at(t, r.errors[0].span), "FROM");
  EXPECT_NE(r.errors[0].message.find("missing image"), std::string::npos);
  EXPECT_EQ(r.errors[1].span.begin, 5u);
  EXPECT_EQ(at(t, r.errors[2].span), "b");
  EXPECT_EQ(at(t, r.errors[3].span), "AS");
  EXPECT_EQ(at(t, r.errors[4].span), "c");
}

// ------------------------------------------------------------------------------------------
// Environments

TEST(Dockerfile, EnvironmentAtExpandsEnvInOrder) {
  std::string t = "FROM a\nENV A=1\nENV B=$A/x C=${A}y\nENV A=2 D=$A\nRUN true\n";
  auto r = ok(t);
  auto env = environment_at(r.ast, 4);
  EXPECT_EQ(env.at("A").value, "2");
  EXPECT_EQ(env.at("B").value, "1/x");
  EXPECT_EQ(env.at("C").value, "1y");
  EXPECT_EQ(env.at("D").value, "1");  // pairs of one ENV see the environment before it
  EXPECT_FALSE(env.at("A").from_arg);
  EXPECT_EQ(env.at("A").instruction, 3u);
  EXPECT_EQ(at(t, env.at("B").value_span), "$A/x");
  EXPECT_EQ(at(t, env.at("B").key_span), "B");
  // Not including the instruction's own definitions.
  auto before = environment_at(r.ast, 2);
  EXPECT_EQ(before.count("B"), 0u);
  EXPECT_EQ(before.at("A").value, "1");
}

TEST(Dockerfile, EnvironmentAtArgsAndGlobals) {
  std::string t =
      "ARG TORCH_CUDA_ARCH_LIST=9.0\n"
      "ARG NODEF\n"
      "ARG G=global\n"
      "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
      "ARG TORCH_CUDA_ARCH_LIST\n"
      "ARG NODEF\n"
      "ARG LOCAL=\"l $G\"\n"
      "RUN pip install .\n"
      "FROM ubuntu\n"
      "RUN true\n";
  auto r = ok(t);
  // At FROM: the global ARGs.
  auto at_from = environment_at(r.ast, 3);
  EXPECT_EQ(at_from.at("TORCH_CUDA_ARCH_LIST").value, "9.0");
  EXPECT_EQ(at_from.at("G").value, "global");
  // Before FROM: those declared earlier.
  auto at_g = environment_at(r.ast, 2);
  EXPECT_EQ(at_g.size(), 2u);

  auto env = environment_at(r.ast, 7);
  const Var& arch = env.at("TORCH_CUDA_ARCH_LIST");
  EXPECT_EQ(arch.value, "9.0");
  EXPECT_TRUE(arch.known);
  EXPECT_TRUE(arch.from_arg);
  EXPECT_EQ(arch.instruction, 0u);  // where the value is written
  EXPECT_EQ(at(t, arch.value_span), "9.0");
  EXPECT_FALSE(env.at("NODEF").known);
  EXPECT_EQ(env.at("NODEF").value, "");
  EXPECT_EQ(env.count("G"), 0u);  // not redeclared in the stage
  EXPECT_EQ(env.at("LOCAL").value, "l ");
  EXPECT_FALSE(env.at("LOCAL").known);

  // ARGs do not cross stages.
  auto next = environment_at(r.ast, 9);
  EXPECT_TRUE(next.empty());
}

TEST(Dockerfile, EnvironmentInheritedThroughStages) {
  std::string t =
      "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS base\n"
      "ARG SECRET=s\n"
      "ENV TORCH_CUDA_ARCH_LIST=\"8.0 9.0\" FROM_ARG=$SECRET\n"
      "FROM base AS build\n"
      "ENV MAX_JOBS=4\n"
      "FROM BUILD\n"
      "RUN pip install .\n"
      "FROM ubuntu\n"
      "RUN true\n";
  auto r = ok(t);
  auto env = environment_at(r.ast, 6);
  EXPECT_EQ(env.at("TORCH_CUDA_ARCH_LIST").value, "8.0 9.0");
  EXPECT_EQ(at(t, env.at("TORCH_CUDA_ARCH_LIST").value_span), "\"8.0 9.0\"");
  EXPECT_EQ(env.at("FROM_ARG").value, "s");
  EXPECT_EQ(env.at("MAX_JOBS").value, "4");
  EXPECT_EQ(env.count("SECRET"), 0u);
  EXPECT_TRUE(environment_at(r.ast, 8).empty());
}

TEST(Dockerfile, EnvWinsOverArgAndArgSeesEarlierValues) {
  auto r = ok("FROM a\nENV X=env\nARG X=arg\nARG Y=$X-y Z=$Y\nRUN true\n");
  auto env = environment_at(r.ast, 4);
  EXPECT_EQ(env.at("X").value, "env");
  EXPECT_FALSE(env.at("X").from_arg);
  EXPECT_EQ(env.at("Y").value, "env-y");
  EXPECT_EQ(env.at("Z").value, "env-y");
}

TEST(Dockerfile, EnvironmentKnownPropagates) {
  auto r = ok("FROM a\nARG V\nENV A=${V}x B=${V:-d}\nENV C=$A\nRUN true\n");
  auto env = environment_at(r.ast, 4);
  EXPECT_FALSE(env.at("A").known);
  EXPECT_EQ(env.at("A").value, "x");
  EXPECT_FALSE(env.at("B").known);
  EXPECT_EQ(env.at("B").value, "d");
  EXPECT_FALSE(env.at("C").known);
}

TEST(Dockerfile, EnvironmentOutOfRangeAndEmpty) {
  auto r = ok("FROM a\nENV A=1\n");
  EXPECT_EQ(environment_at(r.ast, 99).at("A").value, "1");
  Dockerfile empty;
  EXPECT_TRUE(environment_at(empty, 0).empty());
  EXPECT_EQ(stage_of(empty, 0), std::nullopt);
}

bool same_env(const Environment& a, const Environment& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [k, v] : a) {
    auto it = b.find(k);
    if (it == b.end()) return false;
    const Var& w = it->second;
    if (v.value != w.value || v.known != w.known || v.from_arg != w.from_arg || v.instruction != w.instruction ||
        v.value_span != w.value_span || v.key_span != w.key_span)
      return false;
  }
  return true;
}

// Walking the file with apply_to_environment gives what environment_at gives everywhere.
void check_incremental(std::string_view t) {
  auto r = parse(t);
  Environment env;
  for (size_t i = 0; i < r.ast.instructions.size(); ++i) {
    EXPECT_TRUE(same_env(env, environment_at(r.ast, i))) << "instruction " << i << " of:\n" << t;
    apply_to_environment(r.ast, i, env);
  }
}

TEST(Dockerfile, ApplyToEnvironmentMatchesEnvironmentAt) {
  check_incremental(
      "ARG TORCH_CUDA_ARCH_LIST=9.0\nARG G=g H=$G\nFROM a AS base\nENV X=1 Y=$X\nARG TORCH_CUDA_ARCH_LIST\n"
      "ARG G\nENV X=2 Z=\"$X $G\"\nRUN true\nFROM base\nARG H\nENV W=$X\nFROM ubuntu\nENV Q=$W\n");
  check_incremental("FROM a\nENV X=env\nARG X=arg\nARG Y=$X-y Z=$Y\nRUN true\n");
  check_incremental("ARG A=1\nENV B=2\nRUN x\nFROM a\n");  // ENV before FROM is ignored
  check_incremental("ENV B=2\nARG A=1\n");                    // no FROM at all
}

// ------------------------------------------------------------------------------------------
// expand

TEST(Dockerfile, ExpandForms) {
  Environment env = env_of({{"A", "1"}, {"E", ""}, {"P", "/usr/local/cuda-12.4/bin"}});
  bool known = true;
  EXPECT_EQ(expand_with("$A", env, known), "1");
  EXPECT_TRUE(known);
  EXPECT_EQ(expand_with("${A}x$A-y", env, known), "1x1-y");
  EXPECT_EQ(expand_with("${E:-d}", env, known), "d");
  EXPECT_EQ(expand_with("${E-d}", env, known), "");
  EXPECT_EQ(expand_with("${A:-d}", env, known), "1");
  EXPECT_EQ(expand_with("${E:+a}", env, known), "");
  EXPECT_EQ(expand_with("${E+a}", env, known), "a");
  EXPECT_EQ(expand_with("${A:+a$A}", env, known), "a1");
  EXPECT_TRUE(known);
  EXPECT_EQ(expand_with("${U:-d}", env, known), "d");
  EXPECT_TRUE(known);
  EXPECT_EQ(expand_with("${U-${A}2}", env, known), "12");
  EXPECT_EQ(expand_with("${U:+a}", env, known), "");
  EXPECT_TRUE(known);
  EXPECT_EQ(expand_with("x${U}y", env, known), "xy");
  EXPECT_FALSE(known);
  EXPECT_EQ(expand_with("$U", env, known), "");
  EXPECT_FALSE(known);
  // Unused defaults do not affect `known`.
  EXPECT_EQ(expand_with("${A:-$U}", env, known), "1");
  EXPECT_TRUE(known);
  // Nested defaults.
  EXPECT_EQ(expand_with("${U:-${V:-${A}}}", env, known), "1");
  EXPECT_TRUE(known);
  EXPECT_EQ(expand_with("${U:-\"a b\"}", env, known), "a b");
  // Pattern removal.
  EXPECT_EQ(expand_with("${P%/bin}", env, known), "/usr/local/cuda-12.4");
  EXPECT_EQ(expand_with("${P##*/}", env, known), "bin");
  EXPECT_EQ(expand_with("${P#*/}", env, known), "usr/local/cuda-12.4/bin");
  EXPECT_EQ(expand_with("${P%%/*}", env, known), "");
  EXPECT_TRUE(known);
}

TEST(Dockerfile, ExpandQuotesAndEscapes) {
  Environment env = env_of({{"A", "1"}});
  bool known = true;
  EXPECT_EQ(expand_with("\\$A", env, known), "$A");
  EXPECT_EQ(expand_with("'$A'", env, known), "$A");
  EXPECT_EQ(expand_with("\"$A\"", env, known), "1");
  EXPECT_EQ(expand_with("\"\\$A \\\" \\x\"", env, known), "$A \" \\x");
  EXPECT_EQ(expand_with("a\\ b", env, known), "a b");
  EXPECT_EQ(expand_with("$", env, known), "$");
  EXPECT_EQ(expand_with("a$-", env, known), "a");
  EXPECT_EQ(expand_with("$/x", env, known), "$/x");
  EXPECT_EQ(expand_with("trailing\\", env, known), "trailing");
  EXPECT_TRUE(known);
  // Backtick escape: backslash is literal, backtick escapes.
  EXPECT_EQ(expand_with("c:\\dir\\$A", env, known, '`'), "c:\\dir\\1");
  EXPECT_EQ(expand_with("`$A", env, known, '`'), "$A");
}

TEST(Dockerfile, ExpandMalformed) {
  Environment env = env_of({{"A", "1"}});
  bool known = true;
  EXPECT_EQ(expand_with("${A", env, known), "${A");
  EXPECT_FALSE(known);
  EXPECT_EQ(expand_with("${}", env, known), "${}");
  EXPECT_FALSE(known);
  EXPECT_EQ(expand_with("${A/x/y}", env, known), "${A/x/y}");
  EXPECT_FALSE(known);
  EXPECT_EQ(expand_with("${U:?must be set}", env, known), "");
  EXPECT_FALSE(known);
  EXPECT_EQ(expand_with("\"unterminated $A", env, known), "unterminated 1");
  EXPECT_EQ(expand_with("'open", env, known), "open");
}

TEST(Dockerfile, ExpandArgWithoutDefaultIsUnsetButUnknown) {
  auto r = ok("FROM a\nARG V\nRUN true\n");
  auto env = environment_at(r.ast, 2);
  bool known = true;
  EXPECT_EQ(expand_with("${V:-d}", env, known), "d");
  EXPECT_FALSE(known);
  EXPECT_EQ(expand_with("${V+set}", env, known), "");
  EXPECT_FALSE(known);
}

TEST(Dockerfile, DeepNestingIsBounded) {
  std::string word;
  const int depth = 10000;
  for (int i = 0; i < depth; ++i) word += "${a:-";
  word += "x";
  for (int i = 0; i < depth; ++i) word += "}";
  Environment env;
  bool known = true;
  std::string out = expand(word, env, '\\', known);
  EXPECT_FALSE(known);
  EXPECT_FALSE(out.empty());
  EXPECT_LE(out.size(), word.size());

  std::string t = "ARG a\nFROM img:" + word + "\nENV X=" + word + "\nRUN echo $(" + std::string(depth, '(') + "\n";
  auto r = parse(t);
  check_errors(t, r);
  ASSERT_EQ(r.ast.stages.size(), 1u);
  EXPECT_FALSE(r.ast.stages[0].base_image_known);
  auto e = environment_at(r.ast, 3);
  EXPECT_FALSE(e.at("X").known);
  auto cmds = split_shell(r.ast.instructions[3].args);
  ASSERT_EQ(cmds.size(), 1u);
  EXPECT_EQ(words_of(cmds[0]).size(), 2u);
}

TEST(Dockerfile, ExpansionGrowthIsBounded) {
  std::string t = "FROM a\nENV A=0123456789abcdef\n";
  for (int i = 0; i < 40; ++i) t += "ENV A=$A$A\n";
  t += "RUN true\n";
  auto r = ok(t);
  auto env = environment_at(r.ast, r.ast.instructions.size() - 1);
  EXPECT_LE(env.at("A").value.size(), 4u << 20);
  EXPECT_FALSE(env.at("A").known);
}

// ------------------------------------------------------------------------------------------
// split_shell

MappedText mapped(std::string s) {
  MappedText m;
  m.text = std::move(s);
  for (size_t i = 0; i <= m.text.size(); ++i) m.offsets.push_back(static_cast<uint32_t>(i));
  return m;
}

TEST(Dockerfile, SplitShellTorchBuild) {
  std::string t =
      "FROM a\n"
      "RUN TORCH_CUDA_ARCH_LIST=\"8.0 8.6\" MAX_JOBS=4 pip install -v . && python setup.py bdist_wheel\n";
  auto r = ok(t);
  auto cmds = split_shell(r.ast.instructions[1].args);
  ASSERT_EQ(cmds.size(), 2u);
  ASSERT_EQ(cmds[0].assignments.size(), 2u);
  const auto& arch = cmds[0].assignments[0];
  EXPECT_EQ(arch.key, "TORCH_CUDA_ARCH_LIST");
  EXPECT_EQ(arch.value, "8.0 8.6");
  EXPECT_EQ(arch.raw_value, "\"8.0 8.6\"");
  EXPECT_TRUE(arch.has_value);
  EXPECT_EQ(at(t, arch.key_span), "TORCH_CUDA_ARCH_LIST");
  EXPECT_EQ(at(t, arch.value_span), "\"8.0 8.6\"");
  EXPECT_EQ(cmds[0].assignments[1].key, "MAX_JOBS");
  EXPECT_EQ(cmds[0].assignments[1].value, "4");
  EXPECT_EQ(words_of(cmds[0]), (std::vector<std::string>{"pip", "install", "-v", "."}));
  EXPECT_EQ(at(t, cmds[0].words[0].span), "pip");
  EXPECT_EQ(at(t, cmds[0].words[3].span), ".");
  EXPECT_EQ(words_of(cmds[1]), (std::vector<std::string>{"python", "setup.py", "bdist_wheel"}));
  EXPECT_EQ(at(t, cmds[1].words[2].span), "bdist_wheel");
}

TEST(Dockerfile, SplitShellOperatorsQuotesAndSubstitutions) {
  auto cmds = split_shell(mapped("a 'b c' \"d $X e\" ; f|g || h & i\nj $(k && l; m) `n | o` ${P:-q r}x \"$(s \"t)\")\" w"));
  ASSERT_EQ(cmds.size(), 6u);
  EXPECT_EQ(words_of(cmds[0]), (std::vector<std::string>{"a", "b c", "d $X e"}));
  EXPECT_EQ(words_of(cmds[1]), std::vector<std::string>{"f"});
  EXPECT_EQ(words_of(cmds[2]), std::vector<std::string>{"g"});
  EXPECT_EQ(words_of(cmds[3]), std::vector<std::string>{"h"});
  EXPECT_EQ(words_of(cmds[4]), std::vector<std::string>{"i"});
  EXPECT_EQ(words_of(cmds[5]),
            (std::vector<std::string>{"j", "$(k && l; m)", "`n | o`", "${P:-q r}x", "$(s \"t)\")", "w"}));
}

TEST(Dockerfile, SplitShellEscapesCommentsAndRedirections) {
  auto cmds = split_shell(mapped(
      "echo a\\ b \"x\\\"y\" 'it''s' # comment ; not a command\n"
      "pip install . > /tmp/log 2>&1 && make -j$(nproc) 2> err <in &>all\n"
      "cat <<EOF >>/etc/f\n"
      "long \\\n  line"));
  ASSERT_EQ(cmds.size(), 5u);
  EXPECT_EQ(words_of(cmds[0]), (std::vector<std::string>{"echo", "a b", "x\"y", "its"}));
  EXPECT_EQ(words_of(cmds[1]), (std::vector<std::string>{"pip", "install", "."}));
  EXPECT_EQ(words_of(cmds[2]), (std::vector<std::string>{"make", "-j$(nproc)"}));
  EXPECT_EQ(words_of(cmds[3]), (std::vector<std::string>{"cat"}));
  EXPECT_EQ(words_of(cmds[4]), (std::vector<std::string>{"long", "line"}));
}

TEST(Dockerfile, SplitShellExportEnvAndReservedWords) {
  auto cmds = split_shell(mapped(
      "export A=1 B=\"2 3\" C; env -i D=4 cmd E=5; F=6; if [ -f x ]; then G=7 pip install .; fi; echo if"));
  ASSERT_EQ(cmds.size(), 6u);
  EXPECT_EQ(words_of(cmds[0]), (std::vector<std::string>{"export", "C"}));
  ASSERT_EQ(cmds[0].assignments.size(), 2u);
  EXPECT_EQ(cmds[0].assignments[1].value, "2 3");
  EXPECT_EQ(words_of(cmds[1]), (std::vector<std::string>{"env", "-i", "cmd", "E=5"}));
  ASSERT_EQ(cmds[1].assignments.size(), 1u);
  EXPECT_EQ(cmds[1].assignments[0].key, "D");
  EXPECT_TRUE(cmds[2].words.empty());
  ASSERT_EQ(cmds[2].assignments.size(), 1u);
  EXPECT_EQ(words_of(cmds[3]), (std::vector<std::string>{"[", "-f", "x", "]"}));
  EXPECT_EQ(words_of(cmds[4]), (std::vector<std::string>{"pip", "install", "."}));
  EXPECT_EQ(cmds[4].assignments.at(0).key, "G");
  EXPECT_EQ(words_of(cmds[5]), (std::vector<std::string>{"echo", "if"}));
}

TEST(Dockerfile, SplitShellSpansAcrossContinuations) {
  std::string t = "FROM a\nRUN export TORCH_CUDA_ARCH_LIST=8.0 \\\n # note\n && pip \\\n  install .\n";
  auto r = ok(t);
  auto cmds = split_shell(r.ast.instructions[1].args);
  ASSERT_EQ(cmds.size(), 2u);
  EXPECT_EQ(at(t, cmds[0].assignments.at(0).value_span), "8.0");
  EXPECT_EQ(at(t, cmds[0].assignments.at(0).key_span), "TORCH_CUDA_ARCH_LIST");
  EXPECT_EQ(words_of(cmds[1]), (std::vector<std::string>{"pip", "install", "."}));
  EXPECT_EQ(at(t, cmds[1].words[1].span), "install");
}

TEST(Dockerfile, SplitShellHeredocBody) {
  std::string t =
      "FROM a\nRUN <<EOF\nset -eux\nexport TORCH_CUDA_ARCH_LIST=\"8.0;9.0\"\npip install --no-build-isolation /src\nEOF\n";
  auto r = ok(t);
  const auto& h = r.ast.instructions[1].heredocs.at(0);
  MappedText m;
  m.text = h.body;
  for (size_t i = 0; i <= h.body.size(); ++i) m.offsets.push_back(h.body_span.begin + static_cast<uint32_t>(i));
  auto cmds = split_shell(m);
  ASSERT_EQ(cmds.size(), 3u);
  EXPECT_EQ(words_of(cmds[1]), std::vector<std::string>{"export"});
  EXPECT_EQ(cmds[1].assignments.at(0).value, "8.0;9.0");
  EXPECT_EQ(at(t, cmds[1].assignments[0].value_span), "\"8.0;9.0\"");
  EXPECT_EQ(words_of(cmds[2]), (std::vector<std::string>{"pip", "install", "--no-build-isolation", "/src"}));
  // The RUN line itself has no command: the marker is a redirection.
  EXPECT_TRUE(split_shell(r.ast.instructions[1].args).empty());
}

TEST(Dockerfile, SplitShellEmptyAndDegenerate) {
  EXPECT_TRUE(split_shell(MappedText{}).empty());
  EXPECT_TRUE(split_shell(mapped("")).empty());
  EXPECT_TRUE(split_shell(mapped(" ;; && || \n\n # c")).empty());
  auto odd = split_shell(mapped("a \"unterminated 'x"));
  ASSERT_EQ(odd.size(), 1u);
  EXPECT_EQ(words_of(odd[0]), (std::vector<std::string>{"a", "unterminated 'x"}));
  auto trailing = split_shell(mapped("a \\"));
  EXPECT_EQ(words_of(trailing.at(0)), (std::vector<std::string>{"a", "\\"}));
  // Inconsistent offsets (too short) must not crash span computation.
  MappedText bad;
  bad.text = "pip install .";
  bad.offsets = {0, 1};
  auto c = split_shell(bad);
  EXPECT_EQ(words_of(c.at(0)).size(), 3u);
}

// ------------------------------------------------------------------------------------------
// Errors

TEST(Dockerfile, UnknownInstruction) {
  std::string t = "FROM ubuntu:22.04\n# expect: PARSE001\nRUNN apt-get update\nRUN ok\n";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message, "unknown instruction `RUNN`");
  EXPECT_EQ(at(t, r.errors[0].span), "RUNN");
  ASSERT_EQ(r.ast.instructions.size(), 3u);  // parsing went on
  EXPECT_EQ(r.ast.instructions[2].keyword, "RUN");
}

TEST(Dockerfile, NoInstructions) {
  auto e = parse("");
  ASSERT_EQ(e.errors.size(), 1u);
  EXPECT_EQ(e.errors[0].message, "Dockerfile has no instructions");
  EXPECT_EQ(e.errors[0].span, (Span{0, 0}));
  for (std::string t : {"# just a comment\n", "\n\n", "   ", "\xEF\xBB\xBF", "# escape=`\n", "\\\n"}) {
    auto r = failing(t);
    ASSERT_EQ(r.errors.size(), 1u) << t;
    EXPECT_EQ(r.errors[0].message, "Dockerfile has no instructions");
  }
}

TEST(Dockerfile, InstructionBeforeFirstFrom) {
  std::string t = "ARG A=1\nRUN echo\nENV X=1\nFROM a\n";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(at(t, r.errors[0].span), "RUN");
  EXPECT_NE(r.errors[0].message.find("`RUN`"), std::string::npos);
  EXPECT_EQ(r.ast.global_args, std::vector<size_t>{0});
  EXPECT_EQ(stage_of(r.ast, 1), std::nullopt);

  auto only_args = failing("ARG A\n");
  EXPECT_NE(only_args.errors[0].message.find("`FROM`"), std::string::npos);
}

TEST(Dockerfile, MessagesAreLowerCaseAndSanitised) {
  std::string t = "FROM a\n\x01\x02\xff\xfe junk\n";
  auto r = failing(t);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message, "unknown instruction `????`");
  for (std::string_view bad : {"FROM a\nENV\n", "FROM a\nARG\n", "FROM a\nLABEL\n"}) {
    auto b = failing(bad);
    ASSERT_EQ(b.errors.size(), 1u);
    EXPECT_TRUE(b.errors[0].message[0] >= 'a' && b.errors[0].message[0] <= 'z') << b.errors[0].message;
  }
}

// ------------------------------------------------------------------------------------------
// Robustness

const char* kRich =
    "\xEF\xBB\xBF# syntax=docker/dockerfile:1\n"
    "ARG CUDA=12.4.1\r\n"
    "FROM --platform=linux/amd64 nvidia/cuda:${CUDA:-12.4.1}-devel-ubuntu22.04 AS build\n"
    "ENV TORCH_CUDA_ARCH_LIST=\"8.0 8.6\" A='x' \\\n"
    "  # c\n"
    "  B=${A:+y}\n"
    "RUN --mount=type=cache,target=/c <<-\"EOF\" bash && echo `date` $(echo \"(\")\n"
    "\techo 'hi' \"there\"\n"
    "\tEOF\n"
    "COPY [\"a\", \"b\\u0041\"]\n"
    "ENV LEGACY some value\n"
    "FROM build\n"
    "LABEL a=b\n"
    "CMD [\"python\"]\n";

TEST(Dockerfile, RichFileParses) {
  std::string t = kRich;
  auto r = ok(t);
  ASSERT_EQ(r.ast.stages.size(), 2u);
  EXPECT_EQ(r.ast.stages[0].base_image, "nvidia/cuda:12.4.1-devel-ubuntu22.04");
  EXPECT_EQ(r.ast.stages[1].parent_stage, 0u);
  auto env = environment_at(r.ast, r.ast.instructions.size() - 1);
  EXPECT_EQ(env.at("B").value, "");  // A is set by the same ENV: not visible to B yet
  EXPECT_EQ(env.at("LEGACY").value, "some value");
  EXPECT_EQ(env.at("TORCH_CUDA_ARCH_LIST").value, "8.0 8.6");
}

void check_incremental(std::string_view t);

void exercise(std::string_view t) {
  check_incremental(t);
  ParseResult r = parse(t);
  check_errors(t, r);
  for (size_t i = 0; i < r.ast.instructions.size(); ++i) {
    const auto& ins = r.ast.instructions[i];
    EXPECT_EQ(ins.args.offsets.size(), ins.args.text.size() + 1);
    EXPECT_LE(ins.span.end, t.size());
    EXPECT_FALSE(ins.keyword.empty());
    (void)environment_at(r.ast, i);
    (void)stage_of(r.ast, i);
    for (const auto& c : split_shell(ins.args))
      for (const auto& w : c.words) EXPECT_LE(w.span.end, t.size());
  }
}

TEST(Dockerfile, TruncatedInputsDoNotCrash) {
  std::string t = kRich;
  for (size_t n = 0; n <= t.size(); ++n) exercise(std::string_view(t).substr(0, n));
}

TEST(Dockerfile, RandomJunkDoesNotCrash) {
  std::mt19937 rng(12345);
  const std::string alphabet = "FROMRUNENVARGCOPYADD as=\"'`\\$#{}[](),:-+<<EOF\n\r\t ;&|x0129";
  for (int iter = 0; iter < 400; ++iter) {
    std::string t;
    size_t len = rng() % 300;
    bool bytes = iter % 4 == 0;
    for (size_t i = 0; i < len; ++i)
      t += bytes ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
    if (iter % 3 == 0) t = "FROM a\n" + t;
    exercise(t);
    bool known = true;
    Environment env = env_of({{"a", "1"}, {"EOF", ""}});
    (void)expand(t, env, iter % 2 ? '\\' : '`', known);
  }
}

TEST(Dockerfile, LargeFileIsFast) {
  std::string t = "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n";
  std::string block =
      "RUN apt-get update && apt-get install -y --no-install-recommends git cmake ninja-build \\\n"
      "    # comment inside\n"
      "    && rm -rf /var/lib/apt/lists/* && echo \"$(date)\" 'single quoted' \\\n"
      "    && pip install -v .\n"
      "ENV A=1 B=\"two words\" C=$A\n";
  while (t.size() < (4u << 20)) t += block;
  t += "RUN " + std::string(1u << 20, 'x') + "\n";  // one very long line
  auto start = std::chrono::steady_clock::now();
  auto r = parse(t);
  size_t words = 0;
  for (size_t i = 1; i < r.ast.instructions.size(); i += 997)
    for (const auto& c : split_shell(r.ast.instructions[i].args)) words += c.words.size();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.errors.empty());
  EXPECT_GT(words, 0u);
  EXPECT_GT(r.ast.instructions.size(), 30000u);
  EXPECT_LT(secs, 30.0);  // generous: debug and sanitizer builds; linear time is what matters
}

}  // namespace
}  // namespace cudalint::docker
