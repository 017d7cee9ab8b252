"""A tool an agent can call offline, for runs that need a trajectory."""

from inspect_ai.tool import Tool, tool


@tool
def add() -> Tool:
    """Add two integers: the smallest tool a scripted agent can call."""

    async def execute(x: int, y: int) -> int:
        """Add two numbers.

        Args:
            x: The first number.
            y: The second number.
        """
        return x + y

    return execute
