// The inline-PTX parser: statements, blocks, predicates, labels, comments, operand templates.
#include <gtest/gtest.h>

#include <random>

#include "analyzer/frontends/cuda/ptx.h"

using namespace cudalint::cuda;

namespace {

std::vector<std::string> mnemonics(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& i : parse_ptx(text)) out.push_back(i.mnemonic);
  return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST(PtxParser, SingleInstructionWithOperandTemplates) {
  auto ins = parse_ptx("cp.async.ca.shared.global [%0], [%1], 4;\n");
  ASSERT_EQ(ins.size(), 1u);
  EXPECT_EQ(ins[0].mnemonic, "cp.async.ca.shared.global");
  EXPECT_EQ(ins[0].opcode, "cp");
  EXPECT_EQ(ins[0].qualifiers, (V{"async", "ca", "shared", "global"}));
  EXPECT_EQ(ins[0].offset, 0u);
  EXPECT_TRUE(ins[0].predicate.empty());
}

TEST(PtxParser, SeveralInstructionsSeparatedBySemicolonsAndNewlines) {
  EXPECT_EQ(mnemonics("cp.async.commit_group;\ncp.async.wait_group 0;\n"),
            (V{"cp.async.commit_group", "cp.async.wait_group"}));
  EXPECT_EQ(mnemonics("bar.sync 0; membar.gl;"), (V{"bar.sync", "membar.gl"}));
  // A newline ends a statement that lacks its `;`.
  EXPECT_EQ(mnemonics("cp.async.wait_all\nbar.sync 0"), (V{"cp.async.wait_all", "bar.sync"}));
}

TEST(PtxParser, BlocksDirectivesAndPredicates) {
  auto ins = parse_ptx(
      "{\n"
      "  .reg .pred p;\n"
      "  setp.ne.b32 p, %1, 0;\n"
      "  @p mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %2;\n"
      "  @!p bra.uni DONE;\n"
      "DONE:\n"
      "  elect.sync %%rx|%%px, 0xffffffff;\n"
      "}\n");
  ASSERT_EQ(ins.size(), 4u);
  EXPECT_EQ(ins[0].mnemonic, "setp.ne.b32");
  EXPECT_EQ(ins[1].mnemonic, "mbarrier.try_wait.parity.shared::cta.b64");
  EXPECT_EQ(ins[1].predicate, "@p");
  EXPECT_EQ(ins[1].qualifiers, (V{"try_wait", "parity", "shared::cta", "b64"}));
  EXPECT_EQ(ins[2].mnemonic, "bra.uni");
  EXPECT_EQ(ins[2].predicate, "@!p");
  EXPECT_EQ(ins[3].mnemonic, "elect.sync");
}

TEST(PtxParser, NestedBlocksAndLabelsOnTheSameLine) {
  EXPECT_EQ(mnemonics("{ { .reg .b32 r; mov.b32 r, %0; } } L1: bar.sync 0; $L2: exit;"),
            (V{"mov.b32", "bar.sync", "exit"}));
}

TEST(PtxParser, CommentsAreSkipped) {
  EXPECT_EQ(mnemonics("// wgmma.fence.sync.aligned;\n"
                      "/* setmaxnreg.inc.sync.aligned.u32 240; */ fence.proxy.async; // tcgen05.alloc\n"),
            (V{"fence.proxy.async"}));
  EXPECT_EQ(mnemonics("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4]; /* unterminated"), (V{"ld.global.nc.v4.f32"}));
}

TEST(PtxParser, VectorOperandsWithNamesAndLineBreaks) {
  // `{lo, hi}` is an operand, not a block; operand lists may continue after a comma.
  EXPECT_EQ(mnemonics("mov.b64 %0, {lo, hi};\nst.global.b32 [%1], lo;"), (V{"mov.b64", "st.global.b32"}));
  EXPECT_EQ(mnemonics("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 \n"
                      "{%0, %1, %2, %3},\n"
                      " %4,\n"
                      " %5, p, 1, 1;\n"
                      "wgmma.commit_group.sync.aligned;\n"),
            (V{"wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", "wgmma.commit_group.sync.aligned"}));
  EXPECT_EQ(mnemonics("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                      "{%8,%9}, {%10,%11,%12,%13};"),
            (V{"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"}));
}

TEST(PtxParser, ModernInstructions) {
  EXPECT_EQ(mnemonics("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"),
            (V{"cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"}));
  EXPECT_EQ(mnemonics("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"),
            (V{"ldmatrix.sync.aligned.m8n8.x4.shared.b16"}));
  EXPECT_EQ(mnemonics("stmatrix.sync.aligned.x4.m8n8.shared.b16 [%0], {%1, %2, %3, %4};"),
            (V{"stmatrix.sync.aligned.x4.m8n8.shared.b16"}));
  EXPECT_EQ(mnemonics("setmaxnreg.dec.sync.aligned.u32 40;"), (V{"setmaxnreg.dec.sync.aligned.u32"}));
  EXPECT_EQ(mnemonics("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 128;"),
            (V{"tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32"}));
  EXPECT_EQ(mnemonics("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;"), (V{"cvt.rn.satfinite.e4m3x2.f32"}));
  EXPECT_EQ(mnemonics("fence.proxy.async.shared::cta;"), (V{"fence.proxy.async.shared::cta"}));
  EXPECT_EQ(mnemonics("redux.sync.add.u32 %0, %1, 0xffffffff;"), (V{"redux.sync.add.u32"}));
  EXPECT_EQ(mnemonics("griddepcontrol.wait;"), (V{"griddepcontrol.wait"}));
  EXPECT_EQ(mnemonics("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"),
            (V{"mbarrier.arrive.expect_tx.shared::cta.b64"}));
}

TEST(PtxParser, PragmasAndQuotedOperands) {
  EXPECT_EQ(mnemonics(".pragma \"nounroll; not code\";\nbar.sync 0;"), (V{"bar.sync"}));
}

TEST(PtxParser, OffsetsPointAtTheMnemonic) {
  std::string_view t = "  @p bar.sync 0;\n  cp.async.wait_all;";
  auto ins = parse_ptx(t);
  ASSERT_EQ(ins.size(), 2u);
  EXPECT_EQ(t.substr(ins[0].offset, 8), "bar.sync");
  EXPECT_EQ(t.substr(ins[1].offset, 17), "cp.async.wait_all");
}

TEST(PtxParser, EmptyAndGarbageInput) {
  EXPECT_TRUE(parse_ptx("").empty());
  EXPECT_TRUE(parse_ptx(";;;\n\n{}").empty());
  EXPECT_TRUE(parse_ptx("%0 %1 {{{{ [[[ ").empty());
  EXPECT_TRUE(parse_ptx("@").empty());
  EXPECT_TRUE(parse_ptx("/*").empty());
  EXPECT_TRUE(parse_ptx("L:").empty());
  // Any bytes: no crash, no hang, offsets in range.
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::string s(rng() % 300, '\0');
    for (auto& c : s) c = static_cast<char>(rng() % 256);
    for (const auto& i : parse_ptx(s)) {
      EXPECT_LT(i.offset, s.size());
      EXPECT_FALSE(i.mnemonic.empty());
    }
  }
  std::string deep(100000, '{');
  EXPECT_TRUE(parse_ptx(deep).empty());
}
