// Reporters, round trip: findings built from the fuzz bytes are written as JSON, SARIF, GitLab
// and GitHub annotations; the JSON outputs are re-parsed with llvm::json and every field must
// come back (strings that are not UTF-8 come back repaired, as the writers document), URIs must
// decode to the original path, and one GitHub command line must be written per finding.
#include <algorithm>
#include <set>
#include <sstream>

#include "analyzer/report/report.h"
#include "llvm/Support/JSON.h"
#include "rules/registry.h"
#include "rules/rule.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

namespace json = llvm::json;
using namespace cudalint;

std::string expected(const std::string& s) { return json::isUTF8(s) ? s : json::fixUTF8(s); }

Region region(fuzz::Bytes& b) {
  Region r;
  r.start_line = b.u32() & 0xFFFFF;
  r.start_column = b.small(200);
  r.end_line = b.small(1) ? r.start_line : b.u32() & 0xFFFFF;
  r.end_column = b.small(200);
  return r;
}

int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decodes a SARIF URI; every byte the writer did not leave alone must be encoded.
std::string decode_uri(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      CUDALINT_FUZZ_CHECK(i + 2 < s.size() && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0);
      out += static_cast<char>(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
      i += 2;
    } else {
      CUDALINT_FUZZ_CHECK(static_cast<unsigned char>(s[i]) > 0x20 && static_cast<unsigned char>(s[i]) < 0x7F);
      out += s[i];
    }
  }
  return out;
}

int64_t at_least_1(uint32_t v) { return v == 0 ? 1 : v; }

void check_json_region(const json::Object* o, const Region& r) {
  CUDALINT_FUZZ_CHECK(o);
  CUDALINT_FUZZ_CHECK(o->getInteger("start_line") == int64_t(r.start_line));
  CUDALINT_FUZZ_CHECK(o->getInteger("start_column") == int64_t(r.start_column));
  CUDALINT_FUZZ_CHECK(o->getInteger("end_line") == int64_t(r.end_line));
  CUDALINT_FUZZ_CHECK(o->getInteger("end_column") == int64_t(r.end_column));
}

void check_sarif_region(const json::Object* o, const Region& r) {
  CUDALINT_FUZZ_CHECK(o);
  CUDALINT_FUZZ_CHECK(o->getInteger("startLine") == at_least_1(r.start_line));
  CUDALINT_FUZZ_CHECK(o->getInteger("startColumn") == at_least_1(r.start_column));
  CUDALINT_FUZZ_CHECK(o->getInteger("endLine") == at_least_1(r.end_line));
  CUDALINT_FUZZ_CHECK(o->getInteger("endColumn") == at_least_1(r.end_column));
}

void check_sarif_artifact(const json::Object* loc, const std::string& path) {
  CUDALINT_FUZZ_CHECK(loc);
  const json::Object* art = loc->getObject("artifactLocation");
  CUDALINT_FUZZ_CHECK(art);
  auto uri = art->getString("uri");
  CUDALINT_FUZZ_CHECK(uri);
  std::string_view u(uri->data(), uri->size());
  if (path.starts_with('/')) {
    CUDALINT_FUZZ_CHECK(u.starts_with("file://"));
    CUDALINT_FUZZ_CHECK(!art->get("uriBaseId"));
    u.remove_prefix(7);
  } else {
    CUDALINT_FUZZ_CHECK(art->getString("uriBaseId") == llvm::StringRef("%SRCROOT%"));
  }
  CUDALINT_FUZZ_CHECK(decode_uri(u) == path);
}

std::string s(std::optional<llvm::StringRef> v) {
  CUDALINT_FUZZ_CHECK(v.has_value());
  return v->str();
}

}  // namespace

CUDALINT_FUZZ_TARGET(report) {
  // The registry's metadata is built once; each input picks a few rules, so that a run does not
  // spend its time rendering every rule's documentation into SARIF (88 inputs/s with all of them).
  static const std::vector<report::RuleEntry> all_rules = [] {
    std::vector<report::RuleEntry> v;
    for (const auto& e : rules::registry()) {
      const RuleInfo& info = e.make()->info();  // static objects: they outlive the rule instance
      v.push_back({&info, rules::doc_for(info.name)});
    }
    return v;
  }();
  fuzz::Bytes b(data, size);
  report::RunInfo run;
  run.tool_version = b.str(8);
  run.root_uri = b.str(40);
  std::set<size_t> picked;  // RunInfo::rules is sorted by id and unique, as the registry is
  for (size_t i = 0, n = 1 + b.small(3); i < n; ++i) picked.insert(b.byte() % all_rules.size());
  for (size_t i : picked) run.rules.push_back(all_rules[i]);
  std::vector<Finding> findings;
  size_t n = b.small(6);
  for (size_t i = 0; i < n && !b.empty(); ++i) {
    Finding f;
    uint8_t r = b.byte();
    f.rule = r == 255 ? nullptr : run.rules[r % run.rules.size()].info;
    f.severity = static_cast<Severity>(b.small(2));
    f.location.path = b.str(40);
    f.location.region = region(b);
    f.message = b.str(80);
    size_t nrel = b.small(2);
    for (size_t k = 0; k < nrel; ++k) {
      FindingRelated rel;
      rel.location.path = b.str(20);
      rel.location.region = region(b);
      rel.message = b.str(20);
      f.related.push_back(std::move(rel));
    }
    if (b.small(1)) {
      FindingFix fx;
      fx.title = b.str(20);
      fx.applicability = static_cast<Applicability>(b.small(2));
      size_t ne = b.small(2);
      for (size_t k = 0; k < ne; ++k) fx.edits.push_back({region(b), b.str(20)});
      f.fix = std::move(fx);
    }
    f.line_hash = b.str(20);
    f.source_line = b.str(40);
    findings.push_back(std::move(f));
  }
  std::sort(findings.begin(), findings.end(), finding_less);
  run.files_checked = findings.size();

  // JSON.
  {
    std::ostringstream os;
    report::write_json(os, findings, run);
    auto v = json::parse(os.str());
    CUDALINT_FUZZ_CHECK(static_cast<bool>(v));
    const json::Object* top = v->getAsObject();
    CUDALINT_FUZZ_CHECK(top && top->getInteger("version") == 1);
    const json::Array* arr = top->getArray("findings");
    CUDALINT_FUZZ_CHECK(arr && arr->size() == findings.size());
    for (size_t i = 0; i < findings.size(); ++i) {
      const Finding& f = findings[i];
      const json::Object* o = (*arr)[i].getAsObject();
      CUDALINT_FUZZ_CHECK(o);
      if (f.rule) CUDALINT_FUZZ_CHECK(s(o->getString("rule")) == f.rule->id);
      else CUDALINT_FUZZ_CHECK(o->get("rule") && o->get("rule")->getAsNull());
      CUDALINT_FUZZ_CHECK(s(o->getString("severity")) == to_string(f.severity));
      CUDALINT_FUZZ_CHECK(s(o->getString("message")) == expected(f.message));
      CUDALINT_FUZZ_CHECK(s(o->getString("path")) == expected(f.location.path));
      check_json_region(o->getObject("region"), f.location.region);
      const json::Array* rel = o->getArray("related");
      CUDALINT_FUZZ_CHECK(rel && rel->size() == f.related.size());
      for (size_t k = 0; k < f.related.size(); ++k) {
        const json::Object* ro = (*rel)[k].getAsObject();
        CUDALINT_FUZZ_CHECK(ro && s(ro->getString("path")) == expected(f.related[k].location.path));
        CUDALINT_FUZZ_CHECK(s(ro->getString("message")) == expected(f.related[k].message));
        check_json_region(ro->getObject("region"), f.related[k].location.region);
      }
      if (f.fix) {
        const json::Object* fo = o->getObject("fix");
        CUDALINT_FUZZ_CHECK(fo && s(fo->getString("title")) == expected(f.fix->title));
        CUDALINT_FUZZ_CHECK(s(fo->getString("applicability")) == to_string(f.fix->applicability));
        const json::Array* ed = fo->getArray("edits");
        CUDALINT_FUZZ_CHECK(ed && ed->size() == f.fix->edits.size());
        for (size_t k = 0; k < ed->size(); ++k) {
          const json::Object* eo = (*ed)[k].getAsObject();
          CUDALINT_FUZZ_CHECK(eo && s(eo->getString("replacement")) == expected(f.fix->edits[k].replacement));
          check_json_region(eo->getObject("region"), f.fix->edits[k].region);
        }
      } else {
        CUDALINT_FUZZ_CHECK(o->get("fix") && o->get("fix")->getAsNull());
      }
      if (f.line_hash.empty()) CUDALINT_FUZZ_CHECK(o->get("fingerprint")->getAsNull());
      else CUDALINT_FUZZ_CHECK(s(o->getString("fingerprint")) == expected(f.line_hash));
    }
  }

  // SARIF.
  {
    std::ostringstream os;
    report::write_sarif(os, findings, run);
    auto v = json::parse(os.str());
    CUDALINT_FUZZ_CHECK(static_cast<bool>(v));
    const json::Object* top = v->getAsObject();
    CUDALINT_FUZZ_CHECK(top && top->getString("version") == llvm::StringRef("2.1.0"));
    const json::Array* runs = top->getArray("runs");
    CUDALINT_FUZZ_CHECK(runs && runs->size() == 1);
    const json::Object* r0 = (*runs)[0].getAsObject();
    CUDALINT_FUZZ_CHECK(r0);
    const json::Array* rules_arr = r0->getObject("tool")->getObject("driver")->getArray("rules");
    CUDALINT_FUZZ_CHECK(rules_arr && rules_arr->size() == run.rules.size());
    if (!run.root_uri.empty()) {
      auto root = r0->getObject("originalUriBaseIds")->getObject("%SRCROOT%")->getString("uri");
      CUDALINT_FUZZ_CHECK(root);
      for (char c : *root) CUDALINT_FUZZ_CHECK(static_cast<unsigned char>(c) > 0x20 && static_cast<unsigned char>(c) < 0x7F);
    }
    const json::Array* results = r0->getArray("results");
    CUDALINT_FUZZ_CHECK(results && results->size() == findings.size());
    for (size_t i = 0; i < findings.size(); ++i) {
      const Finding& f = findings[i];
      const json::Object* o = (*results)[i].getAsObject();
      CUDALINT_FUZZ_CHECK(o);
      if (f.rule) {
        CUDALINT_FUZZ_CHECK(s(o->getString("ruleId")) == f.rule->id);
        auto idx = o->getInteger("ruleIndex");
        CUDALINT_FUZZ_CHECK(idx && *idx >= 0 && size_t(*idx) < rules_arr->size());
        CUDALINT_FUZZ_CHECK(s((*rules_arr)[*idx].getAsObject()->getString("id")) == f.rule->id);
      }
      CUDALINT_FUZZ_CHECK(s(o->getObject("message")->getString("text")) == expected(f.message));
      const json::Array* locs = o->getArray("locations");
      CUDALINT_FUZZ_CHECK(locs && locs->size() == 1);
      const json::Object* phys = (*locs)[0].getAsObject()->getObject("physicalLocation");
      check_sarif_artifact(phys, f.location.path);
      check_sarif_region(phys->getObject("region"), f.location.region);
      const json::Array* rel = o->getArray("relatedLocations");
      CUDALINT_FUZZ_CHECK(f.related.empty() ? !rel : rel && rel->size() == f.related.size());
      for (size_t k = 0; k < f.related.size(); ++k) {
        const json::Object* ro = (*rel)[k].getAsObject();
        const json::Object* rp = ro->getObject("physicalLocation");
        check_sarif_artifact(rp, f.related[k].location.path);
        check_sarif_region(rp->getObject("region"), f.related[k].location.region);
        if (!f.related[k].message.empty())
          CUDALINT_FUZZ_CHECK(s(ro->getObject("message")->getString("text")) == expected(f.related[k].message));
      }
      const json::Array* fixes = o->getArray("fixes");
      bool has_fix = f.fix && !f.fix->edits.empty();
      CUDALINT_FUZZ_CHECK(has_fix ? fixes && fixes->size() == 1 : !fixes);
      if (has_fix) {
        const json::Object* fo = (*fixes)[0].getAsObject();
        CUDALINT_FUZZ_CHECK(s(fo->getObject("description")->getString("text")) == expected(f.fix->title));
        const json::Object* ch = (*fo->getArray("artifactChanges"))[0].getAsObject();
        check_sarif_artifact(ch, f.location.path);
        const json::Array* reps = ch->getArray("replacements");
        CUDALINT_FUZZ_CHECK(reps && reps->size() == f.fix->edits.size());
        for (size_t k = 0; k < reps->size(); ++k) {
          const json::Object* ro = (*reps)[k].getAsObject();
          check_sarif_region(ro->getObject("deletedRegion"), f.fix->edits[k].region);
          CUDALINT_FUZZ_CHECK(s(ro->getObject("insertedContent")->getString("text")) ==
                              expected(f.fix->edits[k].replacement));
        }
      }
      if (!f.line_hash.empty())
        CUDALINT_FUZZ_CHECK(s(o->getObject("partialFingerprints")->getString("primaryLocationLineHash")) ==
                            expected(f.line_hash));
    }
  }

  // GitLab Code Quality: valid JSON, one issue per finding, unique fingerprints.
  {
    std::ostringstream os;
    report::write_gitlab(os, findings, run);
    auto v = json::parse(os.str());
    CUDALINT_FUZZ_CHECK(static_cast<bool>(v));
    const json::Array* arr = v->getAsArray();
    CUDALINT_FUZZ_CHECK(arr && arr->size() == findings.size());
    std::set<std::string> fps;
    for (size_t i = 0; i < arr->size(); ++i) {
      const json::Object* o = (*arr)[i].getAsObject();
      CUDALINT_FUZZ_CHECK(o && s(o->getObject("location")->getString("path")) == expected(findings[i].location.path));
      fps.insert(s(o->getString("fingerprint")));
    }
    CUDALINT_FUZZ_CHECK(fps.size() == findings.size());
  }

  // GitHub workflow commands: exactly one line per finding, whatever the message holds.
  {
    std::ostringstream os;
    report::write_github(os, findings, run);
    std::string out = os.str();
    CUDALINT_FUZZ_CHECK(size_t(std::count(out.begin(), out.end(), '\n')) == findings.size());
    CUDALINT_FUZZ_CHECK(out.find('\r') == std::string::npos);
  }

  // Text: anything goes, but no crash (carets under arbitrary columns and source lines).
  {
    std::ostringstream os;
    report::TextOptions to;
    to.color = b.small(1);
    report::write_text(os, findings, run, to);
  }
  return 0;
}
