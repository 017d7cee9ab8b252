"""Build small Inspect logs with old inspect-ai releases, as test data.

Run from the repository root (needs the network to reach the package index):

    python tests/audit/logs/build_logs.py                 # every release below
    python tests/audit/logs/build_logs.py 0.3.79 0.3.159  # only these
    python tests/audit/logs/build_logs.py --out DIR 0.3.120

For each release it makes a temporary venv (``python -m venv`` + pip), installs
``inspect-ai==<release>`` alone, and runs this same file inside it with
``--inside DIR``: stand-in tasks registered under real inspect_evals task names
(``gpqa_diamond``, ``mmlu_0_shot``, ``xstest``) run with a scripted
``mockllm/model`` whose every output is a ``ModelOutput`` of this file. The
logs land in ``DIR/<release>/`` (by default ``tests/audit/logs/data``), named
``<run>.eval`` and ``<run>.json``, each a few KB:

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

Every sample names its outputs in its metadata (one per epoch); a solver puts
that name in a context variable that the model's output generator reads, so
the script holds whatever order the samples run in.
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

CURRENT: contextvars.ContextVar[str] = contextvars.ContextVar("output")


# Inside the venv: runs with the release under test, imports only inspect_ai.


def _output(name: str) -> Any:
    from inspect_ai.model import ModelUsage

    output = _content_output(name)
    # usage given, so that no release counts tokens with a tokenizer it downloads
    used = 990 if name == "token_limit" else 5
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
    raise ValueError(f"unknown output {name!r}")


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


def _tasks() -> dict[str, Any]:
    from inspect_ai import Epochs, Task, task
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import choice, includes
    from inspect_ai.solver import multiple_choice

    scripted, generate_once = _solvers()

    def choices(script: list[list[str]]) -> list[Any]:
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

    def open_ended(script: list[list[str]]) -> list[Any]:
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
            dataset=open_ended(CANCELLED_SCRIPT),
            solver=[scripted(), generate_once()],
            scorer=includes(),
            epochs=2,
        )

    return {
        "gpqa_diamond": gpqa_diamond,
        "mmlu_0_shot": mmlu_0_shot,
        "xstest": xstest,
        "xstest_cancelled": xstest_cancelled,
    }


def build_inside(out: Path) -> None:
    """Write every stand-in run's logs to `out`, in each format, by run name."""
    from inspect_ai import eval
    from inspect_ai.model import get_model

    out.mkdir(parents=True, exist_ok=True)
    for run, make in _tasks().items():
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


def build_release(release: str, out: Path) -> Path:
    """Install inspect-ai `release` in a temporary venv and build its logs.

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
        run = [str(python), __file__, "--inside", str(staging)]
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
    args = parser.parse_args(argv)
    if args.inside:
        build_inside(args.inside)
        return 0
    for release in args.releases:
        target = build_release(release, args.out)
        sizes = {p.name: p.stat().st_size for p in sorted(target.iterdir())}
        print(release, json.dumps(sizes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
