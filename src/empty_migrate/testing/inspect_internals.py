"""The private inspect_ai names this package uses, all of them and only here.

Only code that never leaves this package imports them: the fixture library
(``provider_outputs``), which calls the provider adapters' own helpers so its
outputs are shaped as the adapters shape them, the log audit
(``logs.replay``), the reading of remote logs (``logs.locations``), which
lists and fetches them through inspect_ai's own filesystem layer, and the
Scout scanner (``scout.scanner``), which reads the sample of a live eval it
is attached to. The code copied into a target (``empty_migrate.runtime``)
uses inspect_ai's public API alone; ``tests/test_private_api.py`` checks both.

Each name is defined identically in inspect-ai 0.3.278 (the floor in
``pyproject.toml``) and 0.3.285 (the pin of the test extra), and CI runs the
tests that use them on both. The public converters ``model_output_from_openai``,
``model_output_from_openai_responses``, ``model_output_from_anthropic`` and
``model_output_from_google`` serve none of them: each needs its provider's SDK,
which is no dependency of this package.
"""

from inspect_ai._util.constants import (
    # "(no content)": the text the Google adapter gives a reply with no candidates
    NO_CONTENT,
)
from inspect_ai._util.file import (
    # the filesystem (fsspec, with inspect_ai's options) of a local or remote path
    filesystem,
)
from inspect_ai._util.registry import (
    # a registered object by name, not built (registry_create would build it)
    registry_lookup,
)
from inspect_ai.log._samples import (
    # the sample the current task runs (its dataset Sample): None outside an eval
    sample_active,
)
from inspect_ai.model._call_tools import (
    # a tool call (id, function, JSON arguments) parsed as the adapters parse it
    parse_tool_call,
)
from inspect_ai.model._model_output import (
    # a provider's finish reason as a StopReason: the OpenAI-style adapters' map
    as_stop_reason,
    # the adapters' filter on a stop's details: details with nothing in are dropped
    collect_stop_details,
)
from inspect_ai.model._providers._gemini_function_calling import (
    # the text the Gemini adapters put in place of a malformed function call
    malformed_function_apology,
)
from inspect_ai.model._providers.bedrock import (
    # Bedrock's Converse response, as the adapter validates it (no SDK needed)
    ConverseResponse,
    # the Bedrock adapter's conversion of a Converse response to a ModelOutput
    model_output_from_response,
)
from inspect_ai.model._reasoning import (
    # a <think>...</think> block split off a completion, as the OpenAI adapter does
    parse_content_with_reasoning,
)
from inspect_ai.solver._task_state import (
    # the current sample's TaskState, as its scorers saw it: None outside an eval
    sample_state,
)

__all__ = [
    "NO_CONTENT",
    "ConverseResponse",
    "as_stop_reason",
    "collect_stop_details",
    "filesystem",
    "malformed_function_apology",
    "model_output_from_response",
    "parse_content_with_reasoning",
    "parse_tool_call",
    "registry_lookup",
    "sample_active",
    "sample_state",
]
