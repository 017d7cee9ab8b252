from inspect_ai.scorer import Scorer, model_graded_qa


def demo_judge(grader: str = "openai/gpt-4o") -> Scorer:
    return model_graded_qa(model=grader)
