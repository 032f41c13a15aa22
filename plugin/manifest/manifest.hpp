#pragma once

/// The manifest layer's public interface in one include: the tazuna.yaml model and loader,
/// selection, context checks, dependency layers, and rendering.
#include "manifest/load.hpp"
#include "manifest/model.hpp"
#include "manifest/render.hpp"
#include "manifest/select.hpp"
