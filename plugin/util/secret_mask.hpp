#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tazuna::util {

/// kubectl's mask for a Secret value.
inline constexpr std::string_view kSecretMask = "***";

/// Whether `object` is a core Secret: kind "Secret" with apiVersion "v1" or none.
bool IsSecret(const nlohmann::json& object);

/// The one Secret masker: for a Secret, replaces the value of every key under `data` and `stringData`
/// with `mask(field, key)` and returns whether there was such a field; anything else is left alone.
bool MaskSecretValues(nlohmann::json& object,
                      const std::function<std::string(std::string_view field, const std::string& key)>& mask);

/// MaskSecretValues with kSecretMask for every value.
bool MaskSecretValues(nlohmann::json& object);

}  // namespace tazuna::util
