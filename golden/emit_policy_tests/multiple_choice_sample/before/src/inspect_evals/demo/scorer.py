from inspect_ai.scorer import accuracy, choice, scorer


@scorer(metrics=[accuracy()])
def demo_scorer():
    return choice()
