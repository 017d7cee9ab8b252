"""Time `classify_output` and a routed scorer on every provider-shaped output.

The router runs once per sample in every migrated eval, so its cost must stay
negligible beside a model call. Prints microseconds per classification and per
routed score (non-answers only: they never reach the wrapped scorer).

Usage:
    python bench/classify_throughput.py [--rounds N]
"""

import argparse
import asyncio
import time

from inspect_ai.scorer import Score, Target, accuracy, scorer

from empty_migrate.runtime.probe import task_state
from empty_migrate.runtime.router import Outcome, classify_output, route_empty_responses
from empty_migrate.testing.provider_outputs import PROVIDER_OUTPUTS


@scorer(metrics=[accuracy()])
def constant():
    async def score(state, target):
        return Score(value="C")

    return score


def time_classify(rounds: int) -> float:
    outputs = [fixture.output for fixture in PROVIDER_OUTPUTS]
    start = time.perf_counter()
    for _ in range(rounds):
        for output in outputs:
            classify_output(output)
    return (time.perf_counter() - start) / (rounds * len(outputs))


async def time_routed(rounds: int) -> float:
    routed = route_empty_responses(constant(), category="qa")
    states = [
        task_state(f.output)
        for f in PROVIDER_OUTPUTS
        if f.expected not in (Outcome.OVERFLOW, Outcome.NO_OUTPUT)
    ]
    target = Target("Paris")
    start = time.perf_counter()
    for _ in range(rounds):
        for state in states:
            await routed(state, target)
    return (time.perf_counter() - start) / (rounds * len(states))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    rounds = parser.parse_args().rounds
    print(f"outputs: {len(PROVIDER_OUTPUTS)}, rounds: {rounds}")
    print(f"classify_output: {time_classify(rounds) * 1e6:8.1f} us per output")
    routed = asyncio.run(time_routed(rounds))
    print(f"routed scorer:   {routed * 1e6:8.1f} us per sample")


if __name__ == "__main__":
    main()
