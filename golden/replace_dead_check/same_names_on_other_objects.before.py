import argparse
import xml.etree.ElementTree as ET

import pandas as pd
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import sandbox


@scorer(metrics=[mean()])
def demo_scorer(args: argparse.Namespace) -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        frame = pd.read_csv(target.text)
        if frame.empty:
            return Score(value=0.0, explanation="No reference rows")
        if args.completion == "":
            return Score(value=0.0, explanation="No completion template")
        run = await sandbox().exec(["cat", "/tmp/report.xml"])
        if not run.stdout:
            return Score(value=0.0, explanation="No report")
        root = ET.fromstring(run.stdout)
        found = [e for e in root.iter("answer") if e.text is not None]
        return Score(value=float(len(found) == len(frame)))

    return score
