"""Reading YAML: the target's configuration files and this package's registry."""

from typing import Any

import yaml

LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML has it (about ten times faster; the same
marks), else PyYAML's."""


def load_yaml(text: str) -> Any:
    """The data of a YAML text, read safely (raises `yaml.YAMLError`)."""
    return yaml.load(text, Loader=LOADER)
