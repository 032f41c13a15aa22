#include "util/error.hpp"

namespace tazuna::util {

Error Error::WithContext(std::string_view prefix) const {
  Error copy = *this;
  copy.message = std::string(prefix) + ": " + message;
  return copy;
}

Error Error::PartWay() const {
  Error copy = *this;
  copy.part_way = true;
  return copy;
}

Error MakeError(ErrorKind kind, std::string message) {
  Error e;
  e.kind = kind;
  e.message = std::move(message);
  return e;
}

}  // namespace tazuna::util
