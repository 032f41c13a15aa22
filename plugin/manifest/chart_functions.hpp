#pragma once

// Whether helm's render of local charts depends only on what an input digest records (helmfile_digest.cpp):
// every function their templates call is on an allowlist of functions whose result depends on their arguments
// alone. Pure: no I/O, the caller reads the files.

#include <string>
#include <vector>

namespace tazuna::manifest {

/// A text helm's render can read, named by where it comes from.
struct ChartText {
  std::string path;  ///< relative to the chart's directory ("templates/cm.yaml"), or a values source's name
  std::string text;
  bool operator==(const ChartText&) const = default;
};

/// A chart in a directory: every file under it, unpacked subcharts (charts/<name>/...) included.
struct LocalChartFiles {
  std::string name;              ///< how a reason names the chart
  std::vector<ChartText> files;  ///< paths relative to the chart's directory
  bool operator==(const LocalChartFiles&) const = default;
};

/// Why helm's render of `charts` with `values` (the release's values as YAML texts: values files, inline
/// values, set entries) may differ from one render to the next; "" when it cannot.
///
/// Every template helm loads (templates/ of each chart and unpacked subchart, .helmignore applied) is parsed
/// with the functions helm defines; each function it calls must be on the allowlist: Go's builtins but `call`,
/// sprig's string, list, dict, math, encoding, hash, path, regex, semver and reflection functions, helm's
/// include, tpl, required, fail, toYaml and the like. Refused: random values and keys (rand*, uuidv4, shuffle,
/// gen*, bcrypt, htpasswd, encryptAES, decryptAES), the clock and the local time zone (sprig's date
/// functions), Go's random map order (keys and values, unless piped into sortAlpha), the cluster (lookup),
/// DNS (getHostByName) and `call`. When a template calls tpl, every string of every values text and every
/// other file of the charts (what .Files reads) holding "{{" is checked the same way. A text that does not
/// parse, and an archived subchart (charts/*.tgz, not opened), are reasons too.
std::string ImpureRenderReason(const std::vector<LocalChartFiles>& charts, const std::vector<ChartText>& values);

}  // namespace tazuna::manifest
