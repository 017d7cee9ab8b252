"""Build small Inspect logs with old inspect-ai releases, as test data.

Run from the repository root (needs the network to reach the package index):

    python tests/logs/build_logs.py                 # every release below
    python tests/logs/build_logs.py 0.3.79 0.3.159  # only these
    python tests/logs/build_logs.py --out DIR 0.3.120
    python tests/logs/build_logs.py --inside DIR --scale 50  # installed release

For each release it makes a temporary venv (``python -m venv`` + pip), installs
``inspect-ai==<release>`` alone, and runs this same file inside it with
``--inside DIR``: stand-in tasks registered under real inspect_evals task names
(``gpqa_diamond``, ``mmlu_0_shot``, ``xstest``) run with a scripted
``mockllm/model`` whose every output is a ``ModelOutput`` of this file. The
logs land in ``DIR/<release>/`` (by default ``tests/logs/data``), named
``<run>.eval`` and ``<run>.json``, 5-32 KB each as .eval, up to 160 KB as .json:

- ``gpqa_diamond``: ``choice()`` over two epochs with the default reducer (so
  old releases record ``reducer: None`` beside ``epochs_reducer: ['mean']``);
  answers, an empty output, length cuts (with and without visible text), a
  content filter and a refusal text.
- ``mmlu_0_shot``: ``choice()`` over two epochs reduced by ``mean`` and ``max``.
- ``xstest``: ``includes()``, one epoch: the same non-answers, a
  tool-calls-only output, a solver that raises (a sample error, the run goes
  on), a message limit and a token limit.
- ``xstest_cancelled``: two epochs, cancelled (a SIGINT, as Ctrl+C sends) at
  the third sample: a log with status ``cancelled`` holding what had finished.

Four runs leave the model's answer somewhere other than the output slot, or
say what they are in other ways (one epoch each, ``includes()``):

- ``xstest_output_unset``: as SciCode's own solver does, each sample's two
  sub-steps generate on a copy of the state (the model answers, with usage;
  the last sub-step of sample 3 is empty) and keep the answers in the store:
  the model events hold the turns, the messages only the prompt, and the
  output slot stays empty.
- ``xstest_agent``: as control-arena's protocols do, a loop of its own over
  the model: assistant turns with tool calls, each answered by a
  ``ChatMessageTool``, and the output slot never written. The last turn is a
  tool-calls-only one (sample 1), an empty text (2) or an answer (3).
- ``xstest_reasoning_cut``: ``max_tokens=2000`` in the task's generate config;
  gpt-oss through OpenRouter: reasoning only, no text, stop reason ``stop``
  and exactly 2000 output tokens (sample 1); the same with 1200 (2); with
  2000 and a visible answer (3).
- ``scicode``: another package's task of an inspect_evals name (SciCode's
  own): registered under the bare name ``scicode`` in this file, so the log
  records ``inspect_ai`` alone among its packages, and this file as its task
  file.

Every release above can express every run: none is dropped for any.

Every sample names its outputs in its metadata (one per epoch; a list of
turns per epoch for the sub-step and agent runs); a solver puts each name in a
context variable that the model's output generator reads, so the script holds
whatever order the samples run in.

``--scale N`` repeats each run's samples N times (ids go on counting; the
cancelled run stops at its third sample whatever the scale), for a store of
many samples (bench/large_store.py). ``--inside DIR`` alone builds with the
inspect-ai installed where the script runs, with no venv and no network.

A rebuild writes new ids and times into every log; the committed logs were
kept where only those changed (a run added later: build into ``--out`` and
copy only its logs).
"""

import argparse
import contextvars
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import venv
from pathlib import Path
from typing import Any

RELEASES = ["0.3.79", "0.3.120", "0.3.159", "0.3.200", "0.3.285"]
DATA = Path(__file__).parent / "data"

# output name per sample (one per epoch); "raise" makes the solver raise
CHOICE_SCRIPT = [
    ["answer_a", "answer_a"],
    ["answer_b", "answer_a"],
    ["empty", "answer_a"],
    ["length", "content_filter"],
    ["refusal", "length_partial"],
]
XSTEST_SCRIPT = [
    ["answer_a"],
    ["answer_b"],
    ["empty"],
    ["length"],
    ["content_filter"],
    ["refusal"],
    ["tool_calls"],
    ["raise"],
    ["message_limit"],
    ["token_limit"],
]
CANCELLED_SCRIPT = [["answer_a", "empty"], ["refusal", "answer_a"], ["cancel", "empty"]]
# one epoch each: the model's turns in order (sub-steps, or an agent's turns)
KEPT_ELSEWHERE_SCRIPT = [
    [["answer_a", "answer_b"]],
    [["answer_b", "answer_a"]],
    [["answer_a", "empty"]],
]
AGENT_SCRIPT = [
    [["tool_calls", "tool_calls", "tool_calls"]],
    [["tool_calls", "tool_calls", "empty"]],
    [["tool_calls", "answer_a"]],
]
REASONING_SCRIPT = [
    ["reasoning_at_limit"],
    ["reasoning_below_limit"],
    ["reasoning_then_answer_at_limit"],
]
FOREIGN_SCRIPT = [["answer_a"], ["answer_b"]]
MAX_TOKENS = 2000
"""The reasoning run's ``max_tokens``: its cut turns report exactly this many."""

CURRENT: contextvars.ContextVar[str] = contextvars.ContextVar("output")


# Inside the venv: runs with the release under test, imports only inspect_ai.


def _output(name: str) -> Any:
    from inspect_ai.model import ModelUsage

    output = _content_output(name)
    # usage given, so that no release counts tokens with a tokenizer it downloads
    used = {
        "token_limit": 990,
        "reasoning_at_limit": MAX_TOKENS,
        "reasoning_then_answer_at_limit": MAX_TOKENS,
        "reasoning_below_limit": MAX_TOKENS - 800,
    }.get(name, 5)
    output.usage = ModelUsage(
        input_tokens=10, output_tokens=used, total_tokens=10 + used
    )
    return output


def _content_output(name: str) -> Any:
    from inspect_ai.model import ModelOutput

    model = "mockllm/model"
    texts = {
        "answer_a": "ANSWER: A",
        "answer_b": "ANSWER: B",
        "empty": "",
        "refusal": "I'm sorry, but I can't help with that.",
        "token_limit": "ANSWER: A",
    }
    if name in texts:
        return ModelOutput.from_content(model, texts[name])
    if name == "length":
        # a reasoning model cut at max_tokens before any visible text
        return ModelOutput.from_content(model, "", stop_reason="max_tokens")
    if name == "length_partial":
        return ModelOutput.from_content(model, "Let me think", stop_reason="max_tokens")
    if name == "content_filter":
        return ModelOutput.from_content(model, "", stop_reason="content_filter")
    if name in ("tool_calls", "message_limit"):
        return _tool_calls_only(model)
    if name.startswith("reasoning_"):
        return _reasoning(model, "answer" in name)
    raise ValueError(f"unknown output {name!r}")


def _reasoning(model: str, answers: bool) -> Any:
    from inspect_ai.model import (
        ChatCompletionChoice,
        ChatMessageAssistant,
        ContentReasoning,
        ContentText,
        ModelOutput,
    )

    # gpt-oss through OpenRouter: reasoning, no text, and "stop" at the limit
    content: list[Any] = [ContentReasoning(reasoning="The user asks... let me think")]
    if answers:
        content.append(ContentText(text="ANSWER: A"))
    message = ChatMessageAssistant(content=content)
    choice = ChatCompletionChoice(message=message, stop_reason="stop")
    return ModelOutput(model=model, choices=[choice])


def _tool_calls_only(model: str) -> Any:
    from inspect_ai.model import (
        ChatCompletionChoice,
        ChatMessageAssistant,
        ModelOutput,
    )

    # for_tool_call's message has a text; a tool-calls-only output has none
    calls = ModelOutput.for_tool_call(model, "search", {"query": "A"})
    message = ChatMessageAssistant(
        content="", tool_calls=calls.choices[0].message.tool_calls
    )
    choice = ChatCompletionChoice(message=message, stop_reason="tool_calls")
    return ModelOutput(model=model, choices=[choice])


def _outputs() -> Any:
    while True:
        yield _output(CURRENT.get())


def _solvers() -> Any:
    import asyncio

    from inspect_ai.solver import solver

    @solver
    def scripted() -> Any:
        async def solve(state: Any, generate: Any) -> Any:
            name = state.metadata["outputs"][state.epoch - 1]
            if name == "raise":
                raise RuntimeError("stand-in solver error")
            if name == "cancel":
                # Ctrl+C: the run stops, and its log is "cancelled"
                os.kill(os.getpid(), signal.SIGINT)
                await asyncio.sleep(5)
            CURRENT.set(name)
            return state

        return solve

    @solver
    def generate_once() -> Any:
        async def solve(state: Any, generate: Any) -> Any:
            # a tool call ends the sample unless it is run into a limit
            loop = state.metadata["outputs"][state.epoch - 1] == "message_limit"
            return await generate(state, tool_calls="loop" if loop else "none")

        return solve

    return scripted, generate_once


def _turn_solvers() -> Any:
    import copy

    from inspect_ai.model import ChatMessageTool, get_model
    from inspect_ai.solver import solver

    @solver
    def answer_kept_elsewhere() -> Any:
        async def solve(state: Any, generate: Any) -> Any:
            # SciCode's own solver: each sub-step generates on a copy of the
            # state and keeps the answer elsewhere; the state's output slot
            # and messages stay as they were
            answers = []
            for name in state.metadata["outputs"][state.epoch - 1]:
                CURRENT.set(name)
                step = await generate(copy.deepcopy(state))
                answers.append(step.output.completion)
            state.store.set("answers", answers)
            return state

        return solve

    @solver
    def agent_turns() -> Any:
        async def solve(state: Any, generate: Any) -> Any:
            # control-arena's protocols: their own loop over the model, which
            # fills the messages and never writes the output slot
            model = get_model()
            for name in state.metadata["outputs"][state.epoch - 1]:
                CURRENT.set(name)
                output = await model.generate(state.messages)
                state.messages.append(output.message)
                for call in output.message.tool_calls or []:
                    reply = ChatMessageTool(
                        content="3 results",
                        tool_call_id=call.id,
                        function=call.function,
                    )
                    state.messages.append(reply)
            return state

        return solve

    return answer_kept_elsewhere, agent_turns


def _tasks(scale: int = 1) -> dict[str, Any]:
    from inspect_ai import Epochs, Task, task
    from inspect_ai.dataset import Sample
    from inspect_ai.model import GenerateConfig
    from inspect_ai.scorer import choice, includes
    from inspect_ai.solver import multiple_choice

    scripted, generate_once = _solvers()
    answer_kept_elsewhere, agent_turns = _turn_solvers()

    def choices(script: list[list[str]]) -> list[Any]:
        script = script * scale
        return [
            Sample(
                id=i,
                input=f"Question {i}?",
                choices=["Yes", "No"],
                target="A",
                metadata={"outputs": names},
            )
            for i, names in enumerate(script, start=1)
        ]

    def open_ended(script: list[Any], scaled: bool = True) -> list[Any]:
        script = script * scale if scaled else script
        return [
            Sample(
                id=i,
                input=f"Prompt {i}",
                target="ANSWER: A",
                metadata={"outputs": names, "label": "safe"},
            )
            for i, names in enumerate(script, start=1)
        ]

    @task
    def gpqa_diamond() -> Task:
        return Task(
            dataset=choices(CHOICE_SCRIPT),
            solver=[scripted(), multiple_choice()],
            scorer=choice(),
            epochs=2,
        )

    @task
    def mmlu_0_shot() -> Task:
        return Task(
            dataset=choices(CHOICE_SCRIPT),
            solver=[scripted(), multiple_choice()],
            scorer=choice(),
            epochs=Epochs(2, ["mean", "max"]),
        )

    @task
    def xstest() -> Task:
        return Task(
            dataset=open_ended(XSTEST_SCRIPT),
            solver=[scripted(), generate_once()],
            scorer=includes(),
            message_limit=5,
            token_limit=500,
        )

    @task(name="xstest")
    def xstest_cancelled() -> Task:
        return Task(
            dataset=open_ended(CANCELLED_SCRIPT, scaled=False),
            solver=[scripted(), generate_once()],
            scorer=includes(),
            epochs=2,
        )

    @task(name="xstest")
    def xstest_output_unset() -> Task:
        return Task(
            dataset=open_ended(KEPT_ELSEWHERE_SCRIPT),
            solver=answer_kept_elsewhere(),
            scorer=includes(),
        )

    @task(name="xstest")
    def xstest_agent() -> Task:
        return Task(
            dataset=open_ended(AGENT_SCRIPT), solver=agent_turns(), scorer=includes()
        )

    @task(name="xstest")
    def xstest_reasoning_cut() -> Task:
        return Task(
            dataset=open_ended(REASONING_SCRIPT),
            solver=[scripted(), generate_once()],
            scorer=includes(),
            config=GenerateConfig(max_tokens=MAX_TOKENS),
        )

    @task
    def scicode() -> Task:
        # another package's task of an inspect_evals name (SciCode's own)
        return Task(
            dataset=open_ended(FOREIGN_SCRIPT),
            solver=[scripted(), generate_once()],
            scorer=includes(),
        )

    return {
        "gpqa_diamond": gpqa_diamond,
        "mmlu_0_shot": mmlu_0_shot,
        "xstest": xstest,
        "xstest_cancelled": xstest_cancelled,
        "xstest_output_unset": xstest_output_unset,
        "xstest_agent": xstest_agent,
        "xstest_reasoning_cut": xstest_reasoning_cut,
        "scicode": scicode,
    }


def build_inside(out: Path, scale: int = 1) -> None:
    """Write every stand-in run's logs to `out`, in each format, by run name.

    Each run's samples are repeated `scale` times (the cancelled run's are not).
    """
    from inspect_ai import eval
    from inspect_ai.model import get_model

    out.mkdir(parents=True, exist_ok=True)
    for run, make in _tasks(scale).items():
        for log_format in ("eval", "json"):
            model = get_model("mockllm/model", custom_outputs=_outputs())
            with tempfile.TemporaryDirectory() as scratch:
                try:
                    eval(
                        make(),
                        model=model,
                        log_dir=scratch,
                        log_format=log_format,
                        display="none",
                        fail_on_error=False,
                        max_samples=1,
                    )
                except KeyboardInterrupt:
                    pass
                [written] = Path(scratch).glob(f"*.{log_format}")
                shutil.move(str(written), out / f"{run}.{log_format}")


# Outside: the repository's Python, one venv per release.


def build_release(release: str, out: Path, scale: int = 1) -> Path:
    """Install inspect-ai `release` in a temporary venv and build its logs.

    Each run's samples are repeated `scale` times (`build_inside`).

    Returns:
        The folder of the release's logs, ``out/<release>``, replaced whole.
    """
    target = out / release
    with tempfile.TemporaryDirectory(prefix=f"inspect-{release}-") as scratch:
        env = Path(scratch) / "venv"
        venv.create(env, with_pip=True)
        python = env / "bin" / "python"
        pip = [str(python), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, f"inspect-ai=={release}"], check=True)
        staging = Path(scratch) / "logs"
        run = [str(python), __file__, "--inside", str(staging), "--scale", str(scale)]
        subprocess.run(run, check=True, cwd=scratch)
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(staging, target)
    return target


def main(argv: list[str] | None = None) -> int:
    """Build the logs of the releases named (all of `RELEASES` by default)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("releases", nargs="*", default=RELEASES)
    parser.add_argument("--out", type=Path, default=DATA)
    parser.add_argument("--inside", type=Path, help=argparse.SUPPRESS)
    parser.add_argument(
        "--scale", type=int, default=1, help="repeat each run's samples N times"
    )
    args = parser.parse_args(argv)
    if args.inside:
        build_inside(args.inside, args.scale)
        return 0
    for release in args.releases:
        target = build_release(release, args.out, args.scale)
        sizes = {p.name: p.stat().st_size for p in sorted(target.iterdir())}
        print(release, json.dumps(sizes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
