// CUDA front-end: the preprocessor's arch-dependent work in one parse (arch_trace.h).
#include "analyzer/frontends/cuda/arch_trace.h"

#include <algorithm>

#include <clang/Lex/MacroInfo.h>

#include "analyzer/frontends/cuda/cuda_frontend_internal.h"

namespace cudalint::cuda::detail {

std::optional<std::string> reuse_file_name(const clang::SourceManager& sm, clang::FileID fid) {
  if (fid == sm.getMainFileID()) return std::string();
  auto fe = sm.getFileEntryRefForID(fid);
  if (!fe) return std::nullopt;
  return fe->getName().str();
}

std::optional<Ident> cond_ident(const ArchTrace::Cond& c, std::string_view id, const domain::Arch& arch) {
  if (auto m = arch_macro(id, arch)) return Ident{m->defined, m->value};
  if (c.expanded.count(id)) return std::nullopt;  // another macro: its value was not recorded
  if (auto it = c.defined.find(id); it != c.defined.end()) return Ident{it->second, std::nullopt};
  return Ident{false, 0};  // not a macro: 0, as in the preprocessor
}

namespace {

// What a recorded test gives for `arch`: the condition's truth, whether an `#ifdef` macro is
// defined; nullopt when that cannot be told.
std::optional<bool> cond_value(const ArchTrace::Cond& c, const domain::Arch& arch) {
  auto v = eval_condition(c.text, [&](std::string_view id) { return cond_ident(c, id, arch); });
  if (!v) return std::nullopt;
  return *v != 0;
}

std::optional<bool> ifdef_value(std::string_view name, const domain::Arch& arch) {
  auto m = arch_macro(name, arch);
  if (!m) return std::nullopt;
  return m->defined;
}

}  // namespace

bool cond_holds_for(const ArchTrace::Cond& c, const domain::Arch& arch) { return cond_value(c, arch) == c.value; }

bool same_tokens(const ArchTrace& t, const domain::Arch& j, const domain::Arch& k) {
  if (t.unpredictable) return false;
  for (const auto& name : t.expanded)
    if (arch_macro(name, j) != arch_macro(name, k)) return false;
  for (const auto& [name, defined] : t.ifdefs)
    if (ifdef_value(name, k) != defined) return false;
  for (const auto& c : t.conds)
    if (!cond_holds_for(c, k)) return false;
  return true;
}

bool alike_under(const ArchTrace& t, const domain::Arch& a, const domain::Arch& b) {
  if (t.unpredictable) return false;
  for (const auto& name : t.expanded)
    if (arch_macro(name, a) != arch_macro(name, b)) return false;
  for (const auto& [name, defined] : t.ifdefs)
    if (auto v = ifdef_value(name, a); !v || v != ifdef_value(name, b)) return false;
  for (const auto& c : t.conds)
    if (auto v = cond_value(c, a); !v || v != cond_value(c, b)) return false;
  return true;
}

namespace {

// The offset of the `#` of the directive whose name starts at `name_off` (only blanks between).
std::optional<uint32_t> directive_hash(std::string_view buf, uint32_t name_off) {
  size_t i = name_off;
  while (i > 0 && (buf[i - 1] == ' ' || buf[i - 1] == '\t')) --i;
  if (i == 0 || buf[i - 1] != '#') return std::nullopt;
  return static_cast<uint32_t>(i - 1);
}

// The offset just past the directive's logical line holding `off`; none when a block comment
// starts in it (it may run on past the line).
std::optional<uint32_t> directive_line_end(std::string_view buf, uint32_t off) {
  DirectiveLine line = directive_line(buf, off);
  if (line.block_comment) return std::nullopt;
  return static_cast<uint32_t>(line.end);
}

class ArchTracer : public clang::PPCallbacks {
  // The open `#if` groups of user files: where each began, whether it tests an arch macro,
  // whether it has the form ArchTrace::groups describes (`cond`: its condition's index).
  struct OpenGroup {
    clang::SourceLocation loc;
    bool arch = false, simple = true;
    long cond = -1;
    clang::SourceLocation else_loc;
  };

 public:
  ArchTracer(const clang::Preprocessor& pp, const domain::Arch& arch, ArchTrace& t) : pp_(pp), arch_(arch), t_(t) {}

  void MacroExpands(const clang::Token& name, const clang::MacroDefinition& md, clang::SourceRange,
                    const clang::MacroArgs*) override {
    const clang::IdentifierInfo* ii = name.getIdentifierInfo();
    if (!ii) return;
    std::string_view n = ii->getName();
    const bool in_condition = pp_.isParsingIfOrElifDirective();
    // Every macro expansion of the file comes here: outside conditions only arch macros count.
    if (!in_condition && !n.starts_with("__CUDA_ARCH") && !n.starts_with("__CL_NV_")) return;
    if (!user(name.getLocation())) return;
    auto m = arch_macro(n, arch_);
    if (in_condition) {
      if (m) cur_arch_ = true;
      else cur_.expanded.emplace(n);
      return;
    }
    if (!m) return;
    // Its definition must be the value the check assumes (a -D of the project could differ).
    const clang::MacroInfo* mi = md.getMacroInfo();
    if (!m->defined || !mi || mi->getNumTokens() != 1 || !mi->getReplacementToken(0).is(clang::tok::numeric_constant) ||
        pp_.getSpelling(mi->getReplacementToken(0)) != std::to_string(m->value))
      t_.unpredictable = true;
    t_.expanded.emplace(n);
    span(name.getLocation(), name.getLocation(), 1);
  }
  void Defined(const clang::Token& name, const clang::MacroDefinition& md, clang::SourceRange) override {
    const clang::IdentifierInfo* ii = name.getIdentifierInfo();
    if (!ii || !user(name.getLocation())) return;
    std::string_view n = ii->getName();
    if (auto m = arch_macro(n, arch_)) {
      cur_arch_ = true;
      if (m->defined != static_cast<bool>(md)) t_.unpredictable = true;
    } else {
      cur_.defined.emplace(n, static_cast<bool>(md));
    }
  }
  void If(clang::SourceLocation loc, clang::SourceRange cond, ConditionValueKind v) override {
    open_group(loc);
    const size_t before = t_.conds.size();
    condition(loc, cond, v);
    if (!groups_.empty() && groups_.back().loc == loc && t_.conds.size() == before + 1)
      groups_.back().cond = static_cast<long>(before);
  }
  void Elif(clang::SourceLocation loc, clang::SourceRange cond, ConditionValueKind v, clang::SourceLocation) override {
    not_simple();
    condition(loc, cond, v);
  }
  void Else(clang::SourceLocation loc, clang::SourceLocation if_loc) override {
    if (!groups_.empty() && groups_.back().loc == if_loc) groups_.back().else_loc = loc;
  }
  void Ifdef(clang::SourceLocation loc, const clang::Token& name, const clang::MacroDefinition& md) override {
    open_group(loc);
    not_simple();
    test(loc, name, md);
  }
  void Ifndef(clang::SourceLocation loc, const clang::Token& name, const clang::MacroDefinition& md) override {
    open_group(loc);
    not_simple();
    test(loc, name, md);
  }
  void Endif(clang::SourceLocation loc, clang::SourceLocation if_loc) override {
    if (groups_.empty() || groups_.back().loc != if_loc) return;  // not a group of a user file
    const OpenGroup& g = groups_.back();
    if (g.arch) {
      span(if_loc, loc, 5);
      if (g.simple && g.cond >= 0) simple_group(g, loc);
    }
    groups_.pop_back();
  }
  void Elifdef(clang::SourceLocation loc, const clang::Token& name, const clang::MacroDefinition& md) override {
    not_simple();
    test(loc, name, md);
  }
  void Elifndef(clang::SourceLocation loc, const clang::Token& name, const clang::MacroDefinition& md) override {
    not_simple();
    test(loc, name, md);
  }
  void MacroDefined(const clang::Token& name, const clang::MacroDirective*) override { redefined(name); }
  void MacroUndefined(const clang::Token& name, const clang::MacroDefinition&, const clang::MacroDirective*) override {
    redefined(name);
  }

 private:
  // In the analysed file or a header it includes (not the prelude, the command line or Clang's
  // predefines).
  bool user(clang::SourceLocation loc) {
    if (loc.isInvalid()) return false;
    const clang::SourceManager& sm = pp_.getSourceManager();
    clang::SourceLocation f = sm.getExpansionLoc(loc);
    if (sm.isWrittenInBuiltinFile(f) || sm.isWrittenInCommandLineFile(f) || sm.isWrittenInScratchSpace(f)) return false;
    clang::FileID fid = sm.getFileID(f);
    if (fid != last_fid_) {
      last_fid_ = fid;
      auto fe = sm.getFileEntryRefForID(fid);
      last_user_ = fe && fe->getName() != llvm::StringRef(kPreludePath.data(), kPreludePath.size()) &&
                   fe->getName() != llvm::StringRef(kArchPath.data(), kArchPath.size());
    }
    return last_user_;
  }

  void open_group(clang::SourceLocation loc) {
    if (!user(loc)) return;
    OpenGroup g;
    g.loc = loc;
    groups_.push_back(g);
  }
  void arch_group(clang::SourceLocation loc) {
    if (!groups_.empty() && user(loc)) groups_.back().arch = true;
  }
  // `#elif`, `#ifdef`...: the innermost open group (the one the directive opens or continues) is
  // not one ArchTrace::groups describes.
  void not_simple() {
    if (!groups_.empty()) groups_.back().simple = false;
  }
  // Records a simple group's branches: the text after each directive's line up to the next
  // directive's `#`.
  void simple_group(const OpenGroup& g, clang::SourceLocation endif_loc) {
    const clang::SourceManager& sm = pp_.getSourceManager();
    auto [fid, if_off] = sm.getDecomposedLoc(sm.getExpansionLoc(g.loc));
    auto [ef, endif_off] = sm.getDecomposedLoc(sm.getExpansionLoc(endif_loc));
    auto file = reuse_file_name(sm, fid);
    bool invalid = false;
    llvm::StringRef buf = sm.getBufferData(fid, &invalid);
    if (!file || ef != fid || invalid) return;
    std::string_view b(buf.data(), buf.size());
    ArchTrace::Group out;
    out.file = std::move(*file);
    out.fid = fid;
    out.cond = static_cast<size_t>(g.cond);
    auto hash = directive_hash(b, if_off);
    auto endif_hash = directive_hash(b, endif_off);
    if (!hash || !endif_hash) return;
    out.begin = *hash;
    out.end = endif_off + 5;
    auto if_end = directive_line_end(b, if_off);
    if (!if_end) return;
    out.branch_begin[0] = *if_end;
    if (g.else_loc.isValid()) {
      auto [lf, else_off] = sm.getDecomposedLoc(sm.getExpansionLoc(g.else_loc));
      auto else_hash = directive_hash(b, else_off);
      auto else_end = directive_line_end(b, else_off);
      if (lf != fid || !else_hash || !else_end) return;
      out.has_else = true;
      out.branch_end[0] = *else_hash;
      out.branch_begin[1] = *else_end;
      out.branch_end[1] = *endif_hash;
    } else {
      out.branch_end[0] = *endif_hash;
    }
    for (int i = 0; i < 2; ++i)
      if (out.branch_end[i] < out.branch_begin[i]) out.branch_end[i] = out.branch_begin[i];
    t_.groups.push_back(std::move(out));
  }
  // Records [begin, end + extra) of one file as arch-dependent.
  void span(clang::SourceLocation begin, clang::SourceLocation end, uint32_t extra) {
    const clang::SourceManager& sm = pp_.getSourceManager();
    auto [bf, bo] = sm.getDecomposedLoc(sm.getExpansionLoc(begin));
    auto [ef, eo] = sm.getDecomposedLoc(sm.getExpansionLoc(end));
    if (bf != ef || eo < bo) {
      t_.unpredictable = true;
      return;
    }
    auto file = reuse_file_name(sm, bf);
    if (!file) {
      t_.unpredictable = true;
      return;
    }
    t_.arch_spans.push_back({std::move(*file), bo, eo + extra});
  }

  void condition(clang::SourceLocation loc, clang::SourceRange cond, ConditionValueKind v) {
    if (cur_arch_) arch_group(loc);
    if (cur_arch_ && v != CVK_NotEvaluated && user(loc)) {
      const clang::SourceManager& sm = pp_.getSourceManager();
      auto [fid, off] = sm.getDecomposedLoc(sm.getExpansionLoc(cond.getBegin()));
      bool invalid = false;
      llvm::StringRef buf = sm.getBufferData(fid, &invalid);
      if (invalid) {
        t_.unpredictable = true;
      } else {
        cur_.text = directive_condition(std::string_view(buf.data(), buf.size()), off);
        cur_.value = v == CVK_True;
        // The evaluator must agree with Clang on this arch before it is trusted for another.
        if (!cond_holds_for(cur_, arch_)) t_.unpredictable = true;
        t_.conds.push_back(std::move(cur_));
      }
    }
    cur_ = {};
    cur_arch_ = false;
  }

  void test(clang::SourceLocation loc, const clang::Token& name, const clang::MacroDefinition& md) {
    const clang::IdentifierInfo* ii = name.getIdentifierInfo();
    if (!ii || !user(loc)) return;
    if (auto m = arch_macro(ii->getName(), arch_)) {
      arch_group(loc);
      if (m->defined != static_cast<bool>(md)) t_.unpredictable = true;
      t_.ifdefs.emplace_back(ii->getName().str(), static_cast<bool>(md));
    }
  }

  void redefined(const clang::Token& name) {
    const clang::IdentifierInfo* ii = name.getIdentifierInfo();
    if (!ii || !user(name.getLocation())) return;
    if (arch_macro(ii->getName(), arch_)) t_.unpredictable = true;
    if (std::any_of(groups_.begin(), groups_.end(), [](const OpenGroup& g) { return g.arch; }))
      t_.defines_in_arch_groups = true;
  }

  const clang::Preprocessor& pp_;
  domain::Arch arch_;
  ArchTrace& t_;
  ArchTrace::Cond cur_;
  bool cur_arch_ = false;
  std::vector<OpenGroup> groups_;
  clang::FileID last_fid_;
  bool last_user_ = false;
};

}  // namespace

std::unique_ptr<clang::PPCallbacks> arch_tracer(const clang::Preprocessor& pp, const domain::Arch& arch, ArchTrace& t) {
  return std::make_unique<ArchTracer>(pp, arch, t);
}

}  // namespace cudalint::cuda::detail
