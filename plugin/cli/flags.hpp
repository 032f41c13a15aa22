#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/result.hpp"

namespace tazuna::cli {

/// pflag-like flag set: `--name=value`, `--name value`, `-n value`, `-nvalue`, boolean `--name`
/// and `--name=false`, `--` ends flags. Flags and positional arguments may be interleaved.
class FlagSet {
 public:
  enum class Type { kString, kBool, kInt, kStringArray };

  /// Declares a flag. `shorthand` may be 0. The pointer must outlive Parse.
  void String(std::string* target, const std::string& name, char shorthand, const std::string& usage);
  void Bool(bool* target, const std::string& name, char shorthand, const std::string& usage);
  void Int(int* target, const std::string& name, char shorthand, const std::string& usage);
  /// Repeatable; a comma-separated value is NOT split (kubectl StringArray).
  void StringArray(std::vector<std::string>* target, const std::string& name, char shorthand, const std::string& usage);
  /// Repeatable and comma-split (pflag StringSlice, e.g. -t a,b).
  void StringSlice(std::vector<std::string>* target, const std::string& name, char shorthand, const std::string& usage);
  /// Optional<bool> flag: stays nullopt unless given.
  void OptionalBool(std::optional<bool>* target, const std::string& name, const std::string& usage);

  /// Parses `args`; fills targets and returns the positional arguments. kUsage errors read like
  /// pflag's: `unknown flag: --bogus`, `flag needs an argument: --file`, `invalid argument "x" for "-v" flag`.
  util::Result<std::vector<std::string>> Parse(const std::vector<std::string>& args);
  /// True when the flag was given on the command line.
  bool Changed(const std::string& name) const;
  /// Help lines: `  -f, --file='': usage` in kubectl's Options style.
  std::string Usage() const;
  /// Names of all flags (for completion), with their leading dashes.
  std::vector<std::string> Names() const;

 private:
  struct Flag {
    std::string name;
    char shorthand = 0;
    Type type = Type::kString;
    std::string usage;
    std::string default_text;
    void* target = nullptr;
    bool slice = false;
    bool optional_bool = false;
  };
  void Add(Flag flag);
  Flag* Find(const std::string& name);
  Flag* FindShort(char c);
  util::Status Set(Flag& flag, const std::string& value, const std::string& spelled);
  util::Status ParseLong(const std::vector<std::string>& args, size_t& i);
  util::Status ParseShort(const std::vector<std::string>& args, size_t& i);

  std::vector<Flag> flags_;
  std::map<std::string, bool> changed_;
};

}  // namespace tazuna::cli
