#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tazuna::util {

/// kubectl's mask for a Secret value.
inline constexpr std::string_view kSecretMask = "***";

/// Whether `object` is a core Secret: kind "Secret" with apiVersion "v1" or none.
bool IsSecret(const nlohmann::json& object);

/// Whether to take an object for a Secret by its kind, or whatever its kind says (a PartialObjectMetadata,
/// a Status or a list item from a Secret's request path).
enum class SecretBy { kKind, kForce };

/// The one Secret masker: for a Secret (see SecretBy), replaces the value of every key under `data` and
/// `stringData` with `mask(field, key)` (a field that is not a map, as in a mistyped Secret, has every
/// scalar in it replaced by `mask(field, "")`), and masks the values inside every annotation that holds a JSON
/// copy of the object (`kubectl.kubernetes.io/last-applied-configuration` and any other) with kSecretMask.
/// Returns whether anything was masked; anything that is not a Secret is left alone.
bool MaskSecretValues(nlohmann::json& object,
                      const std::function<std::string(std::string_view field, const std::string& key)>& mask,
                      SecretBy by = SecretBy::kKind);

/// MaskSecretValues with kSecretMask for every value.
bool MaskSecretValues(nlohmann::json& object, SecretBy by = SecretBy::kKind);

/// Every form in which a value of this Secret (see SecretBy) can be echoed: each `data` value as sent
/// (base64) and decoded, each `stringData` value and its base64 (every scalar under either field, whatever
/// its shape), from the object and from the JSON copies in its annotations. Values shorter than 3 bytes are left out (masking them would garble any text).
std::vector<std::string> SecretValues(const nlohmann::json& object, SecretBy by = SecretBy::kKind);

/// `text` with every occurrence of each of `values` replaced by kSecretMask, in whatever form the text
/// holds it: raw, JSON-escaped (with or without `\u003c`-style HTML escapes), Go-quoted (`%q`, `%#v`:
/// `\"`, `\t`, `\x01`, `\u00a0`), and those inside one or two more JSON strings (a server message in a
/// raw body). The text is decoded level by level (secret_scrub.cpp); a match masks what it came from.
std::string ScrubValues(std::string text, const std::vector<std::string>& values);

}  // namespace tazuna::util
