// CUDA front-end: PreludeCache, and building the precompiled preludes it keeps (prelude_cache.h).
#include "analyzer/frontends/cuda/prelude_cache.h"

#include <sys/stat.h>

#include <chrono>
#include <unordered_map>

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Serialization/ASTWriter.h>
#include <clang/Serialization/InMemoryModuleCache.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <clang/Tooling/Tooling.h>
#include <fmt/format.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/MemoryBuffer.h>

#include "analyzer/core/disk_cache.h"
#include "analyzer/core/source_file.h"
#include "analyzer/frontends/cuda/cuda_frontend_internal.h"
#include "analyzer/frontends/cuda/driver_job.h"
#include "analyzer/frontends/cuda/preamble.h"
#include "analyzer/frontends/cuda/preamble_codec.h"
#include "analyzer/frontends/cuda/std_includes.h"
#include "analyzer/frontends/cuda/virtual_files.h"

namespace cudalint::cuda {

namespace detail {

namespace {

// Writes the AST of the prelude (the main file here) into a buffer, as `clang -emit-pch` would
// write it into a file.
class PchAction : public clang::ASTFrontendAction {
 public:
  PchAction(std::shared_ptr<clang::PCHBuffer> buf, bool skip_std) : buf_(std::move(buf)), skip_std_(skip_std) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> all;
    // The multiplexer skips a body only when every consumer agrees (the generator always does).
    if (skip_std_) all.push_back(std::make_unique<StdBodySkipper>());
    all.push_back(std::make_unique<clang::PCHGenerator>(
        ci.getPreprocessor(), ci.getModuleCache(), kPchPath, "", buf_,
        llvm::ArrayRef<std::shared_ptr<clang::ModuleFileExtension>>(), /*AllowASTWithErrors=*/false,
        /*IncludeTimestamps=*/false));
    return std::make_unique<clang::MultiplexConsumer>(std::move(all));
  }
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    ci.getLangOpts().CompilingPCH = true;
    if (skip_std_) ci.getFrontendOpts().SkipFunctionBodies = true;
    return true;
  }
  clang::TranslationUnitKind getTranslationUnitKind() override { return clang::TU_Prefix; }

 private:
  // Options::skip_std_bodies for the standard headers a PCH holds.
  class StdBodySkipper : public clang::ASTConsumer {
   public:
    void Initialize(clang::ASTContext& ctx) override { sm_ = &ctx.getSourceManager(); }
    bool shouldSkipFunctionBody(clang::Decl* d) override { return sm_ && in_std_library(*sm_, d->getLocation(), seen_); }

   private:
    const clang::SourceManager* sm_ = nullptr;
    std::unordered_map<unsigned, bool> seen_;
  };
  std::shared_ptr<clang::PCHBuffer> buf_;
  bool skip_std_;
};

class NullAction : public clang::ASTFrontendAction {
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<clang::ASTConsumer>();
  }
};

}  // namespace

PchBytes own_pch(std::string bytes, size_t offset) {
  auto holder = std::make_shared<std::pair<std::string, std::string_view>>(std::move(bytes), std::string_view());
  holder->second = std::string_view(holder->first).substr(offset);
  const std::string_view* view = &holder->second;
  return PchBytes(std::move(holder), view);
}

PchBytes build_prelude_pch(const std::vector<std::string>& args, const std::string& prelude, const Options& opts) {
  const std::string& resource_dir = opts.clang_resource_dir;
  std::shared_ptr<std::string> out;
  llvm::CrashRecoveryContext crc;
  crc.RunSafelyOnThread(
      [&] {
        auto buf = std::make_shared<clang::PCHBuffer>();
        {
          // The prelude included from a main file, as in a parse: `#pragma clang system_header`
          // does not apply to a main file, and the prelude relies on being a system header.
          VirtualFiles vf(resource_dir, prelude, nullptr);
          std::vector<std::string> a = args;
          a.push_back(std::string(kPchMain));
          ErrorCounter errs;
          clang::tooling::ToolInvocation inv(a, std::make_unique<PchAction>(buf, opts.skip_std_bodies), vf.files.get(),
                                             std::make_shared<clang::PCHContainerOperations>());
          inv.setDiagnosticConsumer(&errs);
          if (!inv.run() || errs.any || !buf->IsComplete || buf->Data.empty()) return;
        }
        auto bytes = std::make_shared<std::string>(buf->Data.data(), buf->Data.size());
        // Read it back once with an empty file: a PCH that does not load is not used.
        const std::string_view view = *bytes;
        VirtualFiles vf(resource_dir, prelude, &view);
        const std::string probe = "/cudalint/pch-probe.cu";
        vf.mem->addFile(probe, 0, llvm::MemoryBuffer::getMemBuffer("", probe));
        std::vector<std::string> a = args;
        a.insert(a.end(), {"-include-pch", std::string(kPchPath), probe});
        ErrorCounter errs;
        clang::tooling::ToolInvocation inv(a, std::make_unique<NullAction>(), vf.files.get(),
                                           std::make_shared<clang::PCHContainerOperations>());
        inv.setDiagnosticConsumer(&errs);
        if (inv.run() && !errs.any) out = std::move(bytes);
      },
      kParseStackBytes);
  return out ? own_pch(std::move(*out)) : nullptr;
}

std::string pch_key(const std::string& prelude, const std::vector<std::string>& args, const Options& opts) {
  std::string key = fmt::format("{:x}", std::hash<std::string>{}(std::string(kPchMainText) + prelude));
  for (const auto& a : args) (key += '\x1f') += a;
  if (!opts.skip_std_bodies) key += "\x1e+std-bodies";
  return key;
}

std::string content_hash(std::string_view bytes) { return DiskCache::key("content", {bytes}); }

}  // namespace detail

PreludeCache::PreludeCache(const DiskCache* disk, std::string_view embedded) : disk_(disk) {
  if (size_t nul = embedded.find('\0'); nul != std::string_view::npos) {
    embedded_key_ = embedded.substr(0, nul);
    embedded_pch_ = embedded.substr(nul + 1);
  }
}
PreludeCache::~PreludeCache() = default;

const std::string& PreludeCache::prelude(const FeatureTable& table) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = texts_.find(&table);
  if (it == texts_.end()) it = texts_.emplace(&table, prelude_text(table)).first;
  return it->second;
}

bool PreludeCache::prelude_names(const FeatureTable& table, const std::vector<std::string>& macros) {
  if (macros.empty()) return false;
  const std::string& text = prelude(table);
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, fresh] = prelude_idents_.try_emplace(&table);
  if (fresh)
    for (size_t i = 0; i < text.size();) {
      if (!detail::ident_char(text[i])) {
        ++i;
        continue;
      }
      size_t e = i;
      while (e < text.size() && detail::ident_char(text[e])) ++e;
      it->second.emplace(text.substr(i, e - i));
      i = e;
    }
  for (const auto& m : macros) {
    std::string_view name = std::string_view(m).substr(0, m.find_first_of("=("));
    if (!name.empty() && it->second.count(name)) return true;
  }
  return false;
}

const std::string& PreludeCache::arch_text(const domain::Arch& arch) {
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, fresh] = arch_texts_.try_emplace(arch.sm_name());
  if (fresh) it->second = prelude_arch_text_for(arch);
  return it->second;
}

bool PreludeCache::admit_std_set(const std::string& set) {
  std::lock_guard<std::mutex> lock(mu_);
  if (std_sets_.count(set)) return true;
  if (std_sets_.size() >= kMaxStdSets) return false;
  std_sets_.insert(set);
  return true;
}

const std::string& PreludeCache::generic_arch_text() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!generic_arch_text_) generic_arch_text_ = prelude_arch_text();
  return *generic_arch_text_;
}

std::optional<std::string> PreludeCache::file_hash(const std::string& path) {
  auto version = [&](FileVersion& v) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    v = {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino), static_cast<uint64_t>(st.st_size),
         st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec, st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec};
    return true;
  };
  FileVersion before;
  if (!version(before)) return std::nullopt;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = file_hashes_.find(path); it != file_hashes_.end() && it->second.first == before)
      return it->second.second;
  }
  auto bytes = read_regular_file(path);
  if (!bytes) return std::nullopt;
  std::string hash = detail::content_hash(*bytes);
  FileVersion after;
  // Changed while being read: this hash is of no version to remember.
  if (version(after) && after == before) {
    std::lock_guard<std::mutex> lock(mu_);
    file_hashes_[path] = {before, hash};
  }
  return hash;
}

void PreludeCache::keep_newest_parse(const std::string& key, std::shared_ptr<const detail::ArchParse> parse) {
  constexpr size_t kKept = 4;  // a first pass's files; the full run follows at once
  std::lock_guard<std::mutex> lock(mu_);
  std::erase_if(newest_parses_, [&](const auto& e) { return e.first == key; });
  if (newest_parses_.size() >= kKept) newest_parses_.erase(newest_parses_.begin());
  newest_parses_.emplace_back(key, std::move(parse));
}

std::shared_ptr<const detail::ArchParse> PreludeCache::take_newest_parse(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = newest_parses_.begin(); it != newest_parses_.end(); ++it)
    if (it->first == key) {
      auto p = std::move(it->second);
      newest_parses_.erase(it);
      return p;
    }
  return nullptr;
}

bool PreludeCache::has_newest_parses() {
  std::lock_guard<std::mutex> lock(mu_);
  return !newest_parses_.empty();
}

std::shared_ptr<const detail::Preamble> PreludeCache::preamble(
    const std::string& key, const std::function<std::shared_ptr<const detail::Preamble>()>& build, bool on_disk) {
  // One thread at a time checks, reads or builds the preamble of a key; the others wait for it.
  std::optional<KeptPreamble> kept;
  std::promise<void> done;
  while (true) {
    std::shared_future<void> other;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (auto b = preambles_building_.find(key); b != preambles_building_.end()) {
        other = b->second;
      } else {
        for (auto it = preambles_.begin(); it != preambles_.end(); ++it)
          if (it->key == key) {
            kept = std::move(*it);
            preambles_.erase(it);
            break;
          }
        preambles_building_.emplace(key, done.get_future().share());
      }
    }
    if (!other.valid()) break;
    other.wait();
  }
  struct Finish {
    PreludeCache& cache;
    const std::string& key;
    std::promise<void>& done;
    ~Finish() {
      {
        std::lock_guard<std::mutex> lock(cache.mu_);
        cache.preambles_building_.erase(key);
      }
      done.set_value();
    }
  } finish{*this, key, done};
  auto unchanged = [&](const KeptPreamble& k) {
    for (const auto& [path, probe] : k.preamble->probes) {
      if (probe == detail::Probe::Read) {
        auto it = k.hashes.find(path);
        if (it == k.hashes.end() || file_hash(path) != it->second) return false;
      } else if (probe == detail::Probe::Absent) {
        struct stat st;
        if (::stat(path.c_str(), &st) == 0) return false;
      }
    }
    return true;
  };
  // Not kept in this process: an earlier run's, from the disk.
  const auto disk_key = [&] { return DiskCache::key("preamble", {key}); };
  if (!kept && disk_ && on_disk)
    if (auto bytes = disk_->load_large("preamble", disk_key()))
      if (auto stored = detail::decode_preamble(std::move(*bytes)))
        kept = KeptPreamble{key, std::move(stored->preamble), std::move(stored->hashes)};
  if (!kept || !unchanged(*kept)) {
    kept.reset();
    ++preambles_built_;
    auto p = build();
    if (!p) return nullptr;
    KeptPreamble k{key, std::move(p), {}};
    for (const auto& [path, probe] : k.preamble->probes)
      if (probe == detail::Probe::Read) {
        auto h = file_hash(path);
        if (!h) return k.preamble;  // unreadable now: use it once, keep nothing
        k.hashes[path] = std::move(*h);
      }
    if (disk_ && on_disk) disk_->store_large("preamble", disk_key(), detail::encode_preamble({k.preamble, k.hashes}), kMaxDiskPreambles);
    kept = std::move(k);
  }
  std::lock_guard<std::mutex> lock(mu_);
  std::erase_if(preambles_, [&](const KeptPreamble& k) { return k.key == key; });
  if (preambles_.size() >= kMaxPreambles) preambles_.erase(preambles_.begin());
  preambles_.push_back(std::move(*kept));
  return preambles_.back().preamble;
}

void PreludeCache::drop_preambles(std::string_view prefix) {
  std::lock_guard<std::mutex> lock(mu_);
  std::erase_if(preambles_, [&](const KeptPreamble& k) { return k.key.starts_with(prefix); });
}

std::shared_ptr<const DriverJob> PreludeCache::driver_job(const std::string& key,
                                                          const std::function<std::shared_ptr<const DriverJob>()>& make) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = jobs_.find(key); it != jobs_.end()) return it->second;
  }
  std::shared_ptr<const DriverJob> job = make();  // outside the lock: two threads may both make it
  std::lock_guard<std::mutex> lock(mu_);
  return jobs_.emplace(key, std::move(job)).first->second;
}

PchBytes PreludeCache::get(const std::string& key, const std::function<PchBytes()>& build, bool may_build) {
  std::promise<PchBytes> promise;
  std::shared_future<PchBytes> fut;
  bool mine = false;
  const bool embedded = !embedded_pch_.empty() && key == embedded_key_;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_key_.find(key);
    if (it != by_key_.end()) {
      fut = it->second.pch;
      it->second.used = ++uses_;
    } else if (!embedded && !may_build && !disk_) {
      return nullptr;  // nothing at hand
    } else {
      fut = promise.get_future().share();
      by_key_.emplace(key, KeptPch{fut, ++uses_, 0});
      mine = true;
    }
  }
  // Other threads wanting the same key wait for this build rather than repeat it.
  if (mine) {
    PchBytes pch;
    std::string disk_key, failed_key;
    bool failed_before = false;
    if (embedded) {
      pch = std::make_shared<const std::string_view>(embedded_pch_);
    } else if (disk_) {
      // The key holds the flags and the prelude's text; the build id in it stands for Clang.
      disk_key = DiskCache::key("prelude-pch", {key});
      if (auto bytes = disk_->load("pch", disk_key)) pch = detail::own_pch(std::move(*bytes));
      // A build that failed (standard headers with an error: Clang's own stddef.h missing where
      // the binary runs without its LLVM installation) is not tried again by later runs of the
      // same day: each try cost an editor save or a pre-commit run a parse or two. A day later
      // it is (the installation may have changed).
      const auto day = std::chrono::duration_cast<std::chrono::hours>(
                           std::chrono::system_clock::now().time_since_epoch()).count() / 24;
      failed_key = DiskCache::key("prelude-pch-failed", {key, std::to_string(day)});
      if (!pch && may_build) failed_before = disk_->load("pch", failed_key).has_value();
    }
    if (!pch && may_build && !failed_before) {
      pch = build();
      if (disk_) disk_->store("pch", pch ? disk_key : failed_key, pch ? std::string_view(*pch) : std::string_view("1"));
    }
    promise.set_value(pch);
    std::lock_guard<std::mutex> lock(mu_);
    if (!pch && !may_build) {
      by_key_.erase(key);  // not found and not built: a later caller that may build should
    } else if (pch && !embedded && disk_) {
      // Kept on disk too: past kMaxPchBytes in memory, the least recently used go (a later
      // use reads it back), so that a run over many projects does not hold every one's.
      if (auto mine_it = by_key_.find(key); mine_it != by_key_.end()) {
        mine_it->second.bytes = pch->size();
        pch_bytes_ += pch->size();
      }
      while (pch_bytes_ > kMaxPchBytes) {
        auto oldest = by_key_.end();
        for (auto e = by_key_.begin(); e != by_key_.end(); ++e)
          if (e->second.bytes > 0 && e->first != key && (oldest == by_key_.end() || e->second.used < oldest->second.used))
            oldest = e;
        if (oldest == by_key_.end()) break;
        pch_bytes_ -= oldest->second.bytes;
        by_key_.erase(oldest);
      }
    }
  }
  return fut.get();
}

}  // namespace cudalint::cuda
