"""Model outputs shaped exactly as inspect-ai 0.3.285's provider adapters build them.

The router decides what a scorer does with the final output of the model under
test. Its tests need outputs that look like the ones real
providers produce, not idealised ones: a refusal that arrives as a flagged text
block, as a stop reason, as an API error turned into text or as a canned apology;
silence that is really a filter, a token ceiling or a tool call. Each
:class:`ProviderOutput` pairs a builder of a real ``ModelOutput`` with the adapter
code it mirrors (``source``, relative to the installed ``inspect_ai`` package), a
one-sentence ``shape`` and the ``expected`` outcome the policy assigns to it.

Builders use the real inspect-ai classes and call the adapter's own helpers
wherever they run without a provider SDK or network: ``collect_stop_details``,
``as_stop_reason``, ``ModelOutput.from_content``, ``parse_tool_call``,
``parse_content_with_reasoning``, ``malformed_function_apology``, Bedrock's
``model_output_from_response``, ``AgentState`` and ``TaskState`` (the private
ones come through ``empty_migrate.testing.inspect_internals``). Helpers that need
the OpenAI, Anthropic, Google, Mistral or xAI SDK (none is a dependency of this
project) are mirrored by hand in the builders of each provider's module, which
keep the adapter's choices of ``str`` versus list content, ``None`` versus ``[]``
tool calls, and present versus dropped ``stop_details``.

Ids, token counts and message texts are illustrative; the structure is not.
"""

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.provider_outputs import (
    anthropic,
    azure,
    bedrock,
    google,
    grok,
    mistral,
    openai,
    openai_responses,
    states,
    together,
    vllm,
)
from empty_migrate.testing.provider_outputs.fixture import ProviderOutput

PROVIDER_OUTPUTS: tuple[ProviderOutput, ...] = (
    *openai.SHAPES,
    *openai_responses.SHAPES,
    *azure.SHAPES,
    *anthropic.SHAPES,
    *google.SHAPES,
    *bedrock.SHAPES,
    *mistral.SHAPES,
    *together.SHAPES,
    *grok.SHAPES,
    *vllm.SHAPES,
    *states.SHAPES,
)
"""Every output, provider by provider, each in its module's order."""

_BY_NAME = {fixture.name: fixture for fixture in PROVIDER_OUTPUTS}


def provider_output(name: str) -> ProviderOutput:
    """Return the fixture called ``name``.

    Raises:
        KeyError: If no fixture has that name; the message lists the known names.
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(
            f"unknown provider output {name!r}; known: {', '.join(sorted(_BY_NAME))}"
        ) from None


OUTCOME_EXAMPLES: dict[Outcome, str] = {
    Outcome.ANSWERED: "openai_chat_answer",
    Outcome.EMPTY: "openai_chat_whitespace_only",
    Outcome.REASONING_ONLY: "openai_chat_reasoning_content_only",
    Outcome.TOOL_CALLS_ONLY: "openai_chat_tool_calls_only",
    Outcome.TRUNCATED: "anthropic_thinking_cut_at_max_tokens",
    Outcome.REFUSED: "openai_chat_refusal_field",
    Outcome.REFUSED_AFTER_PARTIAL: "anthropic_refusal_stop_partial_text",
    Outcome.FILTERED: "azure_content_filter_empty",
    Outcome.OVERFLOW: "openai_chat_400_context_length_exceeded",
    Outcome.NO_OUTPUT: "task_state_never_generated",
}

"""One fixture per outcome class: the matrix of ``audit`` and the emitted tests."""


__all__ = ["OUTCOME_EXAMPLES", "PROVIDER_OUTPUTS", "ProviderOutput", "provider_output"]
