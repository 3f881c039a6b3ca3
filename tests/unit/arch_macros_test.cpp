// The `#if` evaluator and the arch macro values behind sharing one parse between archs
// (analyzer/frontends/cuda/arch_macros.h). The values are checked against Clang itself in
// cuda_arch_sharing_test.cpp.
#include <gtest/gtest.h>

#include <map>

#include "analyzer/frontends/cuda/arch_macros.h"

namespace cudalint::cuda {
namespace {

std::optional<long long> eval(std::string_view text, std::map<std::string, Ident, std::less<>> ids = {}) {
  return eval_condition(text, [&](std::string_view id) -> std::optional<Ident> {
    if (auto it = ids.find(id); it != ids.end()) return it->second;
    if (id == "UNKNOWN") return std::nullopt;
    return Ident{false, 0};
  });
}

TEST(ArchMacros, EvaluatesConditionsLikeThePreprocessor) {
  EXPECT_EQ(eval("1 + 2 * 3"), 7);
  EXPECT_EQ(eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval("10 / 3 == 3 && 10 % 3 == 1"), 1);
  EXPECT_EQ(eval("1 << 4 | 1"), 17);
  EXPECT_EQ(eval("!0 + ~0 - -2"), 2);
  EXPECT_EQ(eval("0x10 + 010 + 0b11 + 12UL"), 16 + 8 + 3 + 12);
  EXPECT_EQ(eval("1 ? 2 : 3"), 2);
  EXPECT_EQ(eval("0 ? 2 : 1 ? 4 : 5"), 4);
  EXPECT_EQ(eval("true && !false"), 1);
  EXPECT_EQ(eval("NOT_A_MACRO"), 0);  // an identifier that is no macro is 0
  Ident arch{true, 800};
  EXPECT_EQ(eval("defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800", {{"__CUDA_ARCH__", arch}}), 1);
  EXPECT_EQ(eval("defined __CUDA_ARCH__ && __CUDA_ARCH__ < 800", {{"__CUDA_ARCH__", arch}}), 0);
  EXPECT_EQ(eval("!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700", {{"__CUDA_ARCH__", arch}}), 1);
}

TEST(ArchMacros, UnknownsOnlyMatterWhereEvaluated) {
  EXPECT_EQ(eval("UNKNOWN"), std::nullopt);
  EXPECT_EQ(eval("defined(UNKNOWN)"), std::nullopt);
  EXPECT_EQ(eval("0 && UNKNOWN"), 0);
  EXPECT_EQ(eval("1 || UNKNOWN"), 1);
  EXPECT_EQ(eval("1 ? 2 : UNKNOWN"), 2);
  EXPECT_EQ(eval("1 && UNKNOWN"), std::nullopt);
  EXPECT_EQ(eval("0 && 1 / 0"), 0);
  EXPECT_EQ(eval("1 / 0"), std::nullopt);
  // Defined, but only its definedness is known.
  EXPECT_EQ(eval("defined(FOO)", {{"FOO", Ident{true, std::nullopt}}}), 1);
  EXPECT_EQ(eval("FOO", {{"FOO", Ident{true, std::nullopt}}}), std::nullopt);
}

TEST(ArchMacros, RejectsWhatItDoesNotModel) {
  for (std::string_view t : {"__has_include(<x.h>)", "'a' == 97", "1.5 > 1", "1'000 > 1", "(1", "1 +", "", "1 2",
                             "defined", "defined(", "9223372036854775807 + 1", "99999999999999999999", "@"})
    EXPECT_EQ(eval(t), std::nullopt) << t;
  std::string deep(100000, '(');
  EXPECT_EQ(eval(deep), std::nullopt);
  std::string nots(100000, '!');
  EXPECT_EQ(eval(nots + "1"), std::nullopt);
}

TEST(ArchMacros, DirectiveConditionJoinsLinesAndDropsComments) {
  EXPECT_EQ(directive_condition("#if A && \\\n  B // note\nint x;", 4), "A &&   B ");
  EXPECT_EQ(directive_condition("#if A /* x\n y */ && B\nint", 4), "A   && B");
  EXPECT_EQ(directive_condition("#if A \\\r\n&& B\r\nint", 4), "A && B");
  EXPECT_EQ(directive_condition("#if A", 4), "A");
}

// The line's end (just past its newline) and whether a block comment starts in it: what
// derivation needs to place an #if's branches.
TEST(ArchMacros, DirectiveLineEndsAfterItsNewline) {
  const std::string joined = "#if A && \\\n  B // note \\\n still the comment\nint x;";
  DirectiveLine l = directive_line(joined, 4);
  EXPECT_EQ(l.text, "A &&   B ");
  EXPECT_EQ(joined.substr(l.end), "int x;");
  EXPECT_FALSE(l.block_comment);
  const std::string crlf = "#else\r\nint y;";
  l = directive_line(crlf, 5);
  EXPECT_EQ(crlf.substr(l.end), "int y;");
  const std::string block = "#if A /* x\n y */ && B\nint";
  l = directive_line(block, 4);
  EXPECT_TRUE(l.block_comment);
  EXPECT_EQ(block.substr(l.end), "int");
  l = directive_line("#if A // a /* not a block\nint", 4);
  EXPECT_FALSE(l.block_comment);
  l = directive_line("#if A", 4);
  EXPECT_EQ(l.end, 5u);
}

TEST(ArchMacros, ValuesPerArch) {
  domain::Arch sm75{7, 5}, sm80{8, 0}, sm90a{9, 0, 'a'}, sm100f{10, 0, 'f'}, sm103a{10, 3, 'a'}, sm120{12, 0};
  EXPECT_EQ(arch_macro("__CUDA_ARCH__", sm75), (MacroState{true, 750}));
  EXPECT_EQ(arch_macro("__CUDA_ARCH__", sm120), (MacroState{true, 1200}));
  EXPECT_EQ(arch_macro("__CUDA_ARCH_FEAT_SM90_ALL", sm90a), (MacroState{true, 1}));
  EXPECT_EQ(arch_macro("__CUDA_ARCH_FEAT_SM90_ALL", sm80), MacroState{});
  EXPECT_EQ(arch_macro("__CUDA_ARCH_SPECIFIC__", sm90a), (MacroState{true, 900}));
  EXPECT_EQ(arch_macro("__CUDA_ARCH_SPECIFIC__", sm100f), MacroState{});
  EXPECT_EQ(arch_macro("__CUDA_ARCH_FAMILY_SPECIFIC__", sm100f), (MacroState{true, 1000}));
  EXPECT_EQ(arch_macro("__CL_NV_NV_PROVIDES_SM_80", sm75), (MacroState{true, 0}));
  EXPECT_EQ(arch_macro("__CL_NV_NV_PROVIDES_SM_80", sm80), (MacroState{true, 1}));
  EXPECT_EQ(arch_macro("__CL_NV_NV_IS_EXACTLY_SM_80", sm90a), (MacroState{true, 0}));
  EXPECT_EQ(arch_macro("__CL_NV_NV_HAS_FEATURE_SM_90a", sm90a), (MacroState{true, 1}));
  EXPECT_EQ(arch_macro("__CL_NV_NV_HAS_FEATURE_SM_100f", sm103a), (MacroState{true, 1}));
  EXPECT_EQ(arch_macro("__CL_NV_NV_HAS_FEATURE_SM_100f", sm120), (MacroState{true, 0}));
  // Not arch-dependent: the caller treats these as ordinary macros.
  EXPECT_EQ(arch_macro("__CUDACC_VER_MAJOR__", sm80), std::nullopt);
  EXPECT_EQ(arch_macro("__CL_NV_NV_IS_DEVICE", sm80), std::nullopt);
  EXPECT_EQ(arch_macro("__CUDA_ARCH_LIST__", sm80), std::nullopt);
  EXPECT_EQ(arch_macro("__CUDA_ARCH_FEAT_SMx_ALL", sm80), std::nullopt);
}

}  // namespace
}  // namespace cudalint::cuda
