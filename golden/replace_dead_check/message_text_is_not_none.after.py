from inspect_ai.model import ChatMessage
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        answer = ""
        for message in reversed(state.messages):
            if message.role == "assistant" and message.text.strip():
                answer = message.text
                break

        def first_text(messages: list[ChatMessage]) -> str:
            return next((msg.text for msg in messages if msg.text.strip()), "")

        last_msg = state.messages[-1]
        if not last_msg.text.strip():
            return Score(value=0.0, answer=first_text(state.messages))
        return Score(value=float(target.text in answer), answer=answer)

    return score
