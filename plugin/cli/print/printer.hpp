#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/print/list.hpp"
#include "cli/print/name.hpp"
#include "util/result.hpp"

namespace tazuna::cli::print {

/// The `-o` formats. kTable is also the default ("" for `version`, "table" elsewhere).
enum class Format { kTable, kWide, kJson, kYaml, kName };

/// Maps `-o` to a Format when it is one of `allowed` (e.g. {"table","wide","json","yaml","name"}); otherwise a
/// kUsage error in kubectl's words, listing `allowed` sorted.
util::Result<Format> ParseFormat(const std::string& output, const std::vector<std::string>& allowed);

/// Prints one command's result to a stream (kubectl's ResourcePrinter). Picked once from `-o` by
/// NewPrinter; commands hold it as `std::unique_ptr<Printer<R>>`.
template <class R>
class Printer {
 public:
  virtual ~Printer() = default;
  virtual void Print(const R& result, std::ostream& out) const = 0;
};

/// A command's renderings of its result: `machine` builds the object printed for json/yaml (a List
/// for row results, see ListOf); `human` prints table/wide (it is told which); `names` lists the objects
/// `-o name` prints, in row order (needed only by commands that allow "name").
template <class R>
struct Renderers {
  std::function<nlohmann::json(const R&)> machine;
  std::function<void(const R&, Format, std::ostream&)> human;
  std::function<std::vector<ObjectRef>(const R&)> names;
};

/// Wraps items as {"apiVersion":"v1","kind":"List","items":[...]}, moving them (lists can be large).
nlohmann::json ListOf(std::vector<nlohmann::json> items);

namespace internal {

template <class R>
class MachinePrinter : public Printer<R> {
 public:
  MachinePrinter(Format format, std::function<nlohmann::json(const R&)> machine)
      : format_(format), machine_(std::move(machine)) {}
  void Print(const R& result, std::ostream& out) const override {
    PrintObject(out, machine_(result), format_ == Format::kYaml ? "yaml" : "json");
  }

 private:
  Format format_;
  std::function<nlohmann::json(const R&)> machine_;
};

template <class R>
class HumanPrinter : public Printer<R> {
 public:
  HumanPrinter(Format format, std::function<void(const R&, Format, std::ostream&)> human)
      : format_(format), human_(std::move(human)) {}
  void Print(const R& result, std::ostream& out) const override { human_(result, format_, out); }

 private:
  Format format_;
  std::function<void(const R&, Format, std::ostream&)> human_;
};

// kubectl's NamePrinter: one `kind[.group]/name` line per object, no headers.
template <class R>
class NamePrinter : public Printer<R> {
 public:
  explicit NamePrinter(std::function<std::vector<ObjectRef>(const R&)> names) : names_(std::move(names)) {}
  void Print(const R& result, std::ostream& out) const override {
    for (const auto& ref : names_(result)) out << ResourceName(ref) << '\n';
  }

 private:
  std::function<std::vector<ObjectRef>(const R&)> names_;
};

}  // namespace internal

/// The one place a format becomes a printer: json/yaml print `machine`, table/wide call `human`, name
/// prints `names`.
template <class R>
std::unique_ptr<Printer<R>> NewPrinter(Format format, Renderers<R> renderers) {
  switch (format) {
    case Format::kJson:
    case Format::kYaml:
      return std::make_unique<internal::MachinePrinter<R>>(format, std::move(renderers.machine));
    case Format::kName:
      return std::make_unique<internal::NamePrinter<R>>(std::move(renderers.names));
    case Format::kTable:
    case Format::kWide:
      break;
  }
  return std::make_unique<internal::HumanPrinter<R>>(format, std::move(renderers.human));
}

}  // namespace tazuna::cli::print
