from pydantic import BaseModel


class Dimension(BaseModel):
    name: str
    question: str
