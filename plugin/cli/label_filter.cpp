#include "cli/label_filter.hpp"

#include <algorithm>

#include "cli/pipeline.hpp"

namespace tazuna::cli {

void AddSelectorFlag(FlagSet& flags, std::string& selector) {
  flags.String(&selector, "selector", 'l',
               "Selector (label query) to filter on, as kubectl's (e.g. -l key1=value1,key2=value2, -l 'tier in "
               "(web,db)', -l '!legacy'): matched against the labels of the objects as tazuna.yaml renders them; an "
               "object it does not render matches as one without labels.");
}

namespace {

std::map<std::string, std::string> LabelsOf(const nlohmann::json& object) {
  std::map<std::string, std::string> labels;
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return labels;
  const auto l = meta->find("labels");
  if (l == meta->end() || !l->is_object()) return labels;
  for (const auto& [k, v] : l->items()) labels[k] = v.is_string() ? v.get<std::string>() : v.dump();
  return labels;
}

}  // namespace

void RenderedLabels::Add(const state::DesiredManifest& manifest) {
  for (const auto& o : manifest.objects) labels_[{manifest.name, o.identity}] = LabelsOf(o.object);
}

bool RenderedLabels::Matches(const util::LabelSelector& selector, const std::string& manifest,
                             const state::ObjectIdentity& id) const {
  const auto it = labels_.find({manifest, id});
  return selector.Matches(it == labels_.end() ? std::map<std::string, std::string>{} : it->second);
}

util::Result<RenderedLabels> RenderLabels(Context& ctx, const FileOptions& file, const std::vector<std::string>& names,
                                          kube::Client& client, util::Logger& log) {
  FileOptions whole = file;
  whole.manifests.clear();  // -m may name a state tazuna.yaml no longer has
  auto selection = LoadSelection(ctx, whole);
  if (!selection) return selection.error().WithContext("-l/--selector matches the labels tazuna.yaml renders");
  std::vector<const manifest::Manifest*> picked;
  for (const auto* m : selection->manifests) {
    if (std::find(names.begin(), names.end(), m->name) != names.end()) picked.push_back(m);
  }
  RenderedLabels out;
  if (picked.empty()) return out;
  auto run = RenderManifests(ctx, selection->file, picked, log, &client, {});
  if (!run) return run.error();
  for (const auto& m : run->manifests) out.Add(m);
  return out;
}

}  // namespace tazuna::cli
