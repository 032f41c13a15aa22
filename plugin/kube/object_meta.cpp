#include "kube/object_meta.hpp"

namespace tazuna::kube {
namespace {

using nlohmann::json;

/// Keeps the two strings of the top-level metadata object; every other event is dropped.
class MetaReader : public nlohmann::json_sax<json> {
 public:
  explicit MetaReader(ObjectMeta& out) : out_(out) {}

  bool null() override { return Scalar(); }
  bool boolean(bool) override { return Scalar(); }
  bool number_integer(number_integer_t) override { return Scalar(); }
  bool number_unsigned(number_unsigned_t) override { return Scalar(); }
  bool number_float(number_float_t, const string_t&) override { return Scalar(); }
  bool binary(binary_t&) override { return Scalar(); }
  bool string(string_t& value) override {
    if (in_metadata_ && depth_ == 2) {
      if (key_ == "uid") out_.uid = value;
      if (key_ == "resourceVersion") out_.resource_version = value;
    }
    return Scalar();
  }
  bool start_object(std::size_t) override {
    in_metadata_ = depth_ == 1 && key_ == "metadata" ? true : in_metadata_;
    ++depth_;
    key_.clear();
    return true;
  }
  bool end_object() override {
    if (--depth_ == 1) in_metadata_ = false;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth_;
    return true;
  }
  bool end_array() override {
    if (--depth_ == 1) in_metadata_ = false;
    return true;
  }
  bool key(string_t& value) override {
    if (depth_ <= 2) key_ = value;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool Scalar() { return true; }

  ObjectMeta& out_;
  int depth_ = 0;
  bool in_metadata_ = false;
  std::string key_;  ///< the last key at depth 1 or 2
};

}  // namespace

util::Result<ObjectMeta> ReadObjectMeta(std::string_view body) {
  ObjectMeta meta;
  MetaReader reader(meta);
  if (!json::sax_parse(body.begin(), body.end(), &reader, json::input_format_t::json, true, false)) {
    return util::MakeError(util::ErrorKind::kApi, "invalid JSON in the response");
  }
  return meta;
}

std::string JsonWithMetadata(const json& object, const json& metadata) {
  std::string out = "{";
  bool wrote_metadata = false;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (out.size() > 1) out += ',';
    out += json(it.key()).dump();
    out += ':';
    if (it.key() == "metadata") {
      out += metadata.dump();
      wrote_metadata = true;
    } else {
      out += it.value().dump();
    }
  }
  if (!wrote_metadata) {
    if (out.size() > 1) out += ',';
    out += "\"metadata\":" + metadata.dump();
  }
  return out + "}";
}

}  // namespace tazuna::kube
