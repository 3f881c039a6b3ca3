// CUDA front-end: precompiled preambles (preamble.h).
#include "analyzer/frontends/cuda/preamble.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include <clang/Basic/LangOptions.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Serialization/ASTWriter.h>
#include <clang/Serialization/InMemoryModuleCache.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include "analyzer/frontends/cuda/driver_job.h"
#include "analyzer/frontends/cuda/prelude_cache.h"

namespace cudalint::cuda::detail {

bool MissingIncludes::FileNotFound(llvm::StringRef name) {
  if (std::find(missing_.begin(), missing_.end(), name.str()) == missing_.end()) missing_.push_back(name.str());
  return true;
}

namespace {

// The language a preamble is lexed in (its directives' tokens do not depend on the rest).
clang::LangOptions preamble_lang() {
  clang::LangOptions lo;
  lo.CPlusPlus = lo.CPlusPlus11 = lo.CPlusPlus14 = lo.CPlusPlus17 = true;
  lo.CUDA = true;
  return lo;
}

}  // namespace

size_t preamble_size(std::string_view text) {
  clang::PreambleBounds b =
      clang::Lexer::ComputePreamble(llvm::StringRef(text.data(), text.size()), preamble_lang());
  size_t n = std::min<size_t>(b.Size, text.size());
  if (!b.PreambleEndsAtStartOfLine) {  // up to the last line start in it
    size_t nl = text.substr(0, n).rfind('\n');
    n = nl == std::string_view::npos ? 0 : nl + 1;
  }
  return text.substr(0, n).find("include") == std::string_view::npos ? 0 : n;
}

std::string blank_preamble(std::string_view text, size_t n) {
  std::string out(text);
  for (size_t i = 0; i < n && i < out.size(); ++i)
    if (out[i] != '\n' && out[i] != '\r') out[i] = ' ';
  return out;
}

namespace {

// Calls `f(begin, token)` for each token of `text`, lexed raw (comments skipped). As
// Lexer::ComputePreamble does, the lexer's file starts at the fake location 1, so a token's
// location is its offset plus 1.
template <class F>
void raw_tokens(std::string_view view, F f) {
  const std::string text(view);  // the lexer reads up to a NUL past the end
  const clang::LangOptions lo = preamble_lang();
  constexpr clang::SourceLocation::UIntTy kStart = 1;
  clang::Lexer lex(clang::SourceLocation::getFromRawEncoding(kStart), lo, text.data(), text.data(),
                   text.data() + text.size());
  clang::Token t;
  while (true) {
    const bool at_end = lex.LexFromRawLexer(t);
    if (t.is(clang::tok::eof)) break;
    f(static_cast<uint32_t>(t.getLocation().getRawEncoding() - kStart), t);
    if (at_end) break;
  }
}

}  // namespace

std::string preamble_signature(std::string_view text) {
  std::string out;
  raw_tokens(text, [&](uint32_t begin, const clang::Token& t) {
    out += t.isAtStartOfLine() ? '\n' : t.hasLeadingSpace() ? ' ' : '\x1f';
    out += text.substr(begin, t.getLength());
  });
  return out;
}

PreambleShift::PreambleShift(std::string_view from, std::string_view to) {
  std::vector<uint32_t> a, b;
  raw_tokens(from, [&](uint32_t begin, const clang::Token&) { a.push_back(begin); });
  raw_tokens(to, [&](uint32_t begin, const clang::Token&) { b.push_back(begin); });
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) starts_.emplace_back(a[i], b[i]);
}

uint32_t PreambleShift::operator()(uint32_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), std::make_pair(offset, UINT32_MAX));
  if (it == starts_.begin()) return offset;
  --it;
  return it->second + (offset - it->first);
}

std::shared_ptr<const SpilledPch> SpilledPch::write(std::string_view bytes) {
  int fd = -1;
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("cudalint-preamble", "pch", fd, path)) return nullptr;
  // Unlinked at once: nothing is left behind, whatever ends the process.
  (void)llvm::sys::fs::remove(path);
  std::shared_ptr<const SpilledPch> out(new SpilledPch(fd, bytes.size()));
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      return nullptr;
    }
    done += static_cast<size_t>(n);
  }
  return out;
}

SpilledPch::~SpilledPch() {
  if (fd_ >= 0) ::close(fd_);
}

PchBytes SpilledPch::read() const {
  std::string bytes(size_, '\0');
  for (size_t done = 0; done < size_;) {
    const ssize_t n = ::pread(fd_, bytes.data() + done, size_ - done, static_cast<off_t>(done));
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      return nullptr;
    }
    done += static_cast<size_t>(n);
  }
  return own_pch(std::move(bytes));
}

namespace {

// Errors while building: any in the preamble's own text makes it unusable.
class BuildDiags : public clang::DiagnosticConsumer {
 public:
  bool errors = false, own_errors = false;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    errors = true;
    if (!info.hasSourceManager() || info.getLocation().isInvalid()) {
      own_errors = true;  // the flags', an unreadable PCH
      return;
    }
    const clang::SourceManager& sm = info.getSourceManager();
    clang::SourceLocation f = sm.getFileLoc(info.getLocation());
    if (f.isInvalid() || sm.getFileID(f) == sm.getMainFileID()) own_errors = true;
  }
};

// Writes the preamble's AST (a PCH chained on the prelude's), recording its preprocessing.
class BuildAction : public clang::ASTFrontendAction {
 public:
  BuildAction(std::shared_ptr<clang::PCHBuffer> buf, Preamble& p, const domain::Arch& arch)
      : buf_(std::move(buf)), p_(p), arch_(arch) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    return std::make_unique<clang::PCHGenerator>(ci.getPreprocessor(), ci.getModuleCache(), kPreamblePchPath, "", buf_,
                                                 llvm::ArrayRef<std::shared_ptr<clang::ModuleFileExtension>>(),
                                                 /*AllowASTWithErrors=*/true, /*IncludeTimestamps=*/false);
  }
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    ci.getLangOpts().CompilingPCH = true;
    ci.getPreprocessor().SetSuppressIncludeNotFoundError(true);
    ci.getPreprocessor().addPPCallbacks(std::make_unique<MissingIncludes>(p_.missing));
    ci.getPreprocessor().addPPCallbacks(arch_tracer(ci.getPreprocessor(), arch_, p_.trace));
    return true;
  }
  clang::TranslationUnitKind getTranslationUnitKind() override { return clang::TU_Prefix; }

 private:
  std::shared_ptr<clang::PCHBuffer> buf_;
  Preamble& p_;
  domain::Arch arch_;
};

}  // namespace

std::shared_ptr<const Preamble> build_preamble(const DriverJob& job, const std::string& resource_dir,
                                               const std::map<std::string, std::string>& unsaved,
                                               const std::string& file, std::string_view text, size_t size,
                                               const domain::Arch& arch, bool shared, bool own_stack) {
  if (!job.invocation || size == 0 || size > text.size()) return nullptr;
  auto p = std::make_shared<Preamble>();
  p->text = std::string(text.substr(0, size));
  llvm::SmallString<256> path(llvm::sys::path::parent_path(file));
  llvm::sys::path::append(path, shared ? std::string(".cudalint-preamble")
                                      : ".cudalint-preamble-" + llvm::sys::path::filename(file).str());
  p->path = path.str().str();
  bool ok = false;
  llvm::CrashRecoveryContext crc;
  auto run = [&] {
    auto buf = std::make_shared<clang::PCHBuffer>();
    VirtualFiles vf(resource_dir, job.prelude, nullptr, &p->probes, nullptr, job.files);
    for (const auto& [u, t] : unsaved)
      if (llvm::sys::path::is_absolute(u) && u != file) vf.mem->addFile(u, 0, llvm::MemoryBuffer::getMemBuffer(t, u));
    vf.mem->addFile(p->path, 0, llvm::MemoryBuffer::getMemBuffer(p->text, p->path));
    BuildDiags diags;
    OneAction(std::make_unique<BuildAction>(buf, *p, arch))
        .runInvocation(invocation_for(job, p->path), vf.files.get(), std::make_shared<clang::PCHContainerOperations>(),
                       &diags);
    if (diags.own_errors || !buf->IsComplete || buf->Data.empty()) return;
    p->errors = diags.errors;
    if (shared) p->spilled = SpilledPch::write(std::string_view(buf->Data.data(), buf->Data.size()));
    if (!p->spilled) p->pch = own_pch(std::string(buf->Data.data(), buf->Data.size()));
    ok = true;
  };
  // On the caller's stack when it is large enough, as parses run: a thread made for each build
  // may take a malloc arena of its own, whose freed memory stays in the process.
  if (own_stack)
    crc.RunSafely(run);
  else
    crc.RunSafelyOnThread(run, kParseStackBytes);
  return ok ? std::move(p) : nullptr;
}

void merge_preamble_trace(const ArchTrace& pre, const PreambleShift& shift, ArchTrace& into) {
  into.unpredictable = into.unpredictable || pre.unpredictable;
  into.conds.insert(into.conds.begin(), pre.conds.begin(), pre.conds.end());
  into.ifdefs.insert(into.ifdefs.begin(), pre.ifdefs.begin(), pre.ifdefs.end());
  into.expanded.insert(pre.expanded.begin(), pre.expanded.end());
  std::vector<ArchTrace::Span> spans = pre.arch_spans;
  for (auto& sp : spans)
    if (sp.file.empty()) {  // the analysed file's
      sp.begin = shift(sp.begin);
      sp.end = shift(sp.end);
    }
  into.arch_spans.insert(into.arch_spans.begin(), spans.begin(), spans.end());
  into.defines_in_arch_groups = into.defines_in_arch_groups || pre.defines_in_arch_groups;
  into.groups.clear();
}

}  // namespace cudalint::cuda::detail

namespace cudalint::cuda {

std::string preamble_group_signature(std::string_view text) {
  const size_t n = detail::preamble_size(text);
  return n ? detail::preamble_signature(text.substr(0, n)) : std::string();
}

}  // namespace cudalint::cuda
