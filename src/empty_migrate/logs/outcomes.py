"""Classify the model outputs recorded in Inspect eval logs.

Measures how often, and why, a model gave no usable answer in a real run: the
outcome class and stop reason of every sample's final output. This is how to
check, before migrating an eval, whether its empty answers are silence,
truncation at a small ``max_tokens``, filters or refusals. A sample the run
stopped (a sample error, or a message, token, time... limit) is named as such
beside its output's class, so a machinery failure does not read as the model's
silence; a log of a run that ended early says how much of the run it holds.
"""

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Generic, TypeVar
from zipfile import ZipFile

from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.model import ModelName
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState
from pydantic import ValidationError

from empty_migrate.entries.output_locations import locator
from empty_migrate.errors import EmptyMigrateError
from empty_migrate.logs.bounds import log_out_of_bounds
from empty_migrate.logs.locations import (
    Location,
    LocationError,
    file_name,
    is_folder,
    is_remote,
    local_copy,
    logs_in_folder,
    suffix,
)
from empty_migrate.runtime.router import (
    Outcome,
    classify_outputs,
    located_outputs,
    replayed_sample,
)

DEFAULT_LOCATION = "state.output"
"""The registry location the router's own rule reads (`state_output`)."""


@dataclass(frozen=True)
class SampleOutcome:
    """The classified final output of one sample epoch in a log.

    ``stopped_by`` says when the run, not the model, ended the sample:
    ``error: <the error's first line>`` or ``limit: <type>`` (message, token,
    time, working, cost...); None when the model finished it. ``signal`` is
    what decided the class, ``flags`` its refinements (``truncated_partial``:
    an answer cut at the token limit that still counts as one), ``excerpt`` the
    start of the visible text the class was read from.
    """

    log: str
    sample_id: int | str
    epoch: int
    outcome: Outcome
    signal: str
    stop_reason: str
    stopped_by: str | None = None
    model: str = ""
    flags: tuple[str, ...] = ()
    excerpt: str = ""


def outcome_row(found: SampleOutcome) -> dict[str, Any]:
    """One sample's row as ``outcomes --format json`` writes it, in JSON values.

    The keys are the fields of `SampleOutcome`; the Scout scanner's results
    carry the same row (`empty_migrate.scout`).
    """
    row = asdict(found)
    row["outcome"] = str(found.outcome)
    row["flags"] = list(found.flags)
    return row


@dataclass(frozen=True)
class LogCoverage:
    """How much of its planned run a log holds.

    Attributes:
        status: The log's status: ``success``, ``cancelled``, ``error``, or
            ``started`` (a run still going, or killed).
        held: The sample epochs in the log.
        planned: The sample epochs the run planned, when the log records it.
        epochs: The epochs each sample was to run.
        error: The first line of the run's error, if it stopped on one.
    """

    status: str
    held: int
    planned: int | None
    epochs: int
    error: str | None = None

    @property
    def partial(self) -> bool:
        """Whether the run did not finish or the log holds fewer than planned."""
        short = self.planned is not None and self.held < self.planned
        return self.status != "success" or short

    def stopped(self) -> str | None:
        """Why the run ended before its end, if it did."""
        if self.status == "cancelled":
            return "the run was cancelled"
        if self.status == "error":
            return "the run stopped on an error" + (
                f" ({self.error})" if self.error else ""
            )
        if self.status != "success":
            return f"the run did not finish (status {self.status!r})"
        return None

    def note(self) -> str | None:
        """One line for a partial log: what it holds, and that only that counts."""
        if not self.partial:
            return None
        unit = "samples" if self.epochs == 1 else "sample epochs"
        held = f"the log holds {self.held} "
        held += f"of the {self.planned} {unit} planned" if self.planned else unit
        why = self.stopped()
        return (f"{why}: " if why else "") + held + "; only these are counted"


@dataclass(frozen=True)
class LogOutcomes:
    """The classified samples of one log, and how much of its run it holds."""

    log: str
    outcomes: list[SampleOutcome]
    coverage: LogCoverage


class LogReadError(EmptyMigrateError):
    """A path is not a readable Inspect eval log.

    ``not_a_log`` is set when the file reads but holds no eval log (a
    ``.json`` that is some other document), rather than a log that is
    missing, cut short or damaged.
    """

    def __init__(self, message: str, *, not_a_log: bool = False) -> None:
        super().__init__(message)
        self.not_a_log = not_a_log


def logs_to_read(paths: Iterable[Location]) -> list[tuple[Location, bool]]:
    """The logs named by files and folders, each with whether a folder held it.

    A folder stands for every ``.eval`` and ``.json`` file under it, found
    recursively and sorted (`logs_in_folder`); a file stands for itself,
    whatever its name. A path is local, or a location inspect_ai reads
    (``s3://bucket/logs``).

    Raises:
        LogReadError: If a folder holds no ``.eval`` or ``.json`` file, or a
            remote location cannot be reached.
    """
    found: list[tuple[Location, bool]] = []
    for path in paths:
        path = path if is_remote(path) else Path(path)
        try:
            logs = logs_in_folder(path) if is_folder(path) else None
        except LocationError as error:
            raise LogReadError(str(error)) from None
        if logs is None:
            found.append((path, False))
        elif not logs:
            raise LogReadError(f"{path} holds no .eval or .json log; {_PASS_A_LOG}")
        else:
            found.extend((log, True) for log in logs)
    return found


LogProgress = Callable[[int, int, str], None]
"""``progress(done, total, name)``: `done` of `total` logs read, `name` next."""

T = TypeVar("T")


@dataclass(frozen=True)
class LogsRead(Generic[T]):
    """What reading every log named by files and folders gave.

    Attributes:
        read: One result per log read, in order.
        skipped: One note per ``.json`` found in a folder that is not an
            Inspect log (a folder may hold other JSON documents).
        unreadable: One line per log found in a folder that is cut short or
            damaged, naming the file; the others are still read.
    """

    read: list[T]
    skipped: list[str]
    unreadable: list[str]


def read_each(
    paths: Iterable[Location],
    read: Callable[[Location], T],
    progress: LogProgress | None = None,
) -> LogsRead[T]:
    """Read every log named by files and folders with `read`, one at a time.

    A file named explicitly must be a readable log; of the logs found in a
    folder, one that is not a log is skipped and one cut short or damaged is
    named, and the rest are read (`LogsRead`).

    Raises:
        LogReadError: If a file named explicitly is not a readable log, or a
            folder holds no log.
    """
    logs = logs_to_read(paths)
    done = LogsRead[T]([], [], [])
    for index, (path, in_folder) in enumerate(logs):
        if progress:
            progress(index, len(logs), file_name(path))
        try:
            done.read.append(read(path))
        except LogReadError as error:
            if not in_folder:
                raise
            if error.not_a_log:
                done.skipped.append(f"{path}: skipped, not an Inspect eval log")
            else:
                done.unreadable.append(str(error))
    if progress:
        progress(len(logs), len(logs), "")
    return done


AnswerLocation = Callable[[EvalLog], str]
"""Where a log's eval keeps the model's answer: a registry output location."""


def read_logs(
    paths: Iterable[Location],
    progress: LogProgress | None = None,
    location_of: AnswerLocation | None = None,
) -> LogsRead[LogOutcomes]:
    """Classify every log named by files and folders (`read_each` says which).

    Args:
        paths: Logs, and folders of logs.
        progress: Called before each log is read.
        location_of: Where each log's eval keeps the model's answer (the
            registry's location for a known eval); the router's rule if None.

    Raises:
        LogReadError: If a file named explicitly is not a readable log, or a
            folder holds no log.
    """
    return read_each(paths, lambda path: log_outcomes(path, location_of), progress)


def sample_outcomes(log_path: str | Path) -> list[SampleOutcome]:
    """Classify the final output of every sample in one eval log.

    Args:
        log_path: A ``.eval`` or ``.json`` Inspect log.

    Returns:
        One `SampleOutcome` per sample epoch, in log order.

    Raises:
        LogReadError: If the file is missing or is not an Inspect log.
    """
    return log_outcomes(log_path).outcomes


def log_outcomes(
    log_path: str | Path, location_of: AnswerLocation | None = None
) -> LogOutcomes:
    """Classify every sample of one eval log, and say how much of its run it holds.

    A sample with nothing at its eval's location (which its scorer decides
    alone) is classified by the router's rule, flagged ``location_empty``.

    Raises:
        LogReadError: If the file is missing or is not an Inspect log.
    """
    with readable_log(log_path) as path:
        return _log_outcomes(path, str(log_path), location_of)


def _log_outcomes(
    path: str | Path, name: str, location_of: AnswerLocation | None
) -> LogOutcomes:
    header = read_header(path)
    location = location_of(header) if location_of else DEFAULT_LOCATION

    def classify(sample: EvalSample) -> SampleOutcome:
        return located_outcome(name, header, sample, location)

    outcomes = visit_samples(path, header, classify, classified_part)
    # the order read_eval_log gives (it sorts the samples it reads whole)
    outcomes.sort(key=lambda o: log_order(o.sample_id, o.epoch))
    return LogOutcomes(name, outcomes, log_coverage(header, len(outcomes)))


@contextmanager
def readable_log(log_path: Location) -> Iterator[Location]:
    """The file to read a log from: the log itself, or a local copy of a remote one.

    A remote log (``s3://…``) is fetched once (`local_copy`); what goes wrong
    reading the copy is named by the log's own location.

    Raises:
        LogReadError: If a remote log cannot be fetched (not there, or
            refused), or the log is not readable (raised within).
    """
    if not is_remote(log_path):
        yield log_path
        return
    try:
        with local_copy(log_path) as copy:
            try:
                yield copy
            except LogReadError as error:
                named = str(error).replace(str(copy), str(log_path))
                raise LogReadError(named, not_a_log=error.not_a_log) from None
    except LocationError as error:
        raise LogReadError(str(error)) from None


def located_outcome(
    log: str, header: EvalLog, sample: EvalSample, location: str
) -> SampleOutcome:
    """A sample's row, its answer read at `location` (`classify_sample`).

    A sample with nothing at `location` is classified by the router's rule,
    flagged ``location_empty``. The Scout scanner classifies the sample of a
    live eval with this too (`empty_migrate.scout`).
    """
    found = classify_sample(log, header, sample, location)
    if found is not None:
        return found
    found = classify_sample(log, header, sample)
    assert found is not None  # the router's rule always finds the slot
    return replace(found, flags=tuple(sorted({*found.flags, "location_empty"})))


class _StreamFailed(Exception):
    pass


SampleReader = Callable[[Any], EvalSample]
"""Builds an `EvalSample` from a sample's JSON value, as parsed from the log."""


def visit_samples(
    log_path: str | Path,
    header: EvalLog,
    visit: Callable[[EvalSample], T],
    read_sample: SampleReader | None = None,
) -> list[T]:
    """`visit` each sample of a log, streamed one at a time, in log order.

    Memory holds one sample at a time, plus what `visit` keeps. A log the
    stream cannot read is read whole and visited again from its start: a
    streaming parser, like JSON's, has no NaN, which Inspect writes (a score's
    value), and a whole read names a log cut short. `read_sample` builds each
    streamed sample (the whole sample by default; `classified_part` for what
    classification reads).

    Raises:
        LogReadError: If the file is not a readable Inspect log.
    """
    try:
        streamed = log_samples(header, read_sample or _sample)
        return [visit(sample) for sample in _guarded(streamed)]
    except _StreamFailed:
        return [visit(sample) for sample in read_log(log_path).samples or []]


def _guarded(samples: Iterator[EvalSample]) -> Iterator[EvalSample]:
    # only a failure to read is retried whole, never one of the visit's own
    while True:
        try:
            sample = next(samples)
        except StopIteration:
            return
        except Exception as error:
            raise _StreamFailed from error
        yield sample


def log_order(sample_id: int | str, epoch: int) -> tuple[int, str]:
    """The place of a sample epoch in the order `read_eval_log` gives whole logs."""
    key = sample_id if isinstance(sample_id, str) else str(sample_id).zfill(20)
    return epoch, key


def read_header(log_path: str | Path) -> EvalLog:
    """A log's header, without its samples when the log can be read in parts.

    A header that does not read is read again whole, so that the error names
    what is wrong with the file (cut short, damaged, not a log) as `read_log`
    does; a log read whole keeps its samples.

    Raises:
        LogReadError: If the file is missing, is not an Inspect log, or is
            past the bounds a log must keep (`within_bounds`).
    """
    within_bounds(log_path)
    try:
        header = read_eval_log(str(log_path), header_only=True)
    except Exception:
        return read_log(log_path)
    header.samples = None
    return header


def log_samples(
    header: EvalLog, read_sample: SampleReader | None = None
) -> Iterator[EvalSample]:
    """The samples of the log `header` was read from, one at a time.

    A ``.eval`` log's one zip member at a time, a ``.json`` log's with a
    streaming parser; in the order the file holds them. Each streamed sample
    is built by `read_sample` (whole by default).
    """
    read_sample = read_sample or _sample
    if header.samples is not None:
        yield from header.samples
        return
    location = header.location
    if suffix(location) == ".json":
        yield from _json_samples(location, read_sample)
        return
    yield from _eval_samples(location, read_sample)


def _eval_samples(location: str, read_sample: SampleReader) -> Iterator[EvalSample]:
    # as inspect_ai's reader does, but one sample at a time, the archive
    # opened once (read_eval_log_samples opens it again for each sample: 4x
    # slower than reading the log whole)
    with ZipFile(location) as archive:
        # a re-logged sample repeats its member: the last one is the sample
        names = dict.fromkeys(archive.namelist())
        for name in names:
            if name.startswith("samples/") and name.endswith(".json"):
                with archive.open(name) as member:
                    yield read_sample(json.load(member))


def _json_samples(location: str, read_sample: SampleReader) -> Iterator[EvalSample]:
    # ijson is inspect_ai's own parser for the headers of .json logs
    import ijson  # type: ignore[import-untyped]

    with open(location, "rb") as stream:
        for item in ijson.items(stream, "samples.item", use_float=True):
            yield read_sample(item)


def _sample(data: Any) -> EvalSample:
    # without inspect_ai's private deserializing context, which leaves unset
    # the ids a log lacks and shares repeated messages: nothing outcomes reads
    # (tests/logs/test_outcomes.py compares with a whole read on every release)
    return EvalSample.model_validate(data)


CLASSIFIED_FIELDS = frozenset(
    {"id", "epoch", "input", "choices", "target", "messages", "output"}
    | {"metadata", "store", "events", "error", "limit"}
    # what releases before the events field kept them in; inspect_ai moves it
    | {"transcript"}
)
"""The fields of a logged sample that classifying it reads (`classify_sample`).

Its task state (`sample_state`), its transcript (`replayed_sample`) and what
stopped it (`stopped_by`). The scores, attachments, timelines and usage are
left unread: validating them was most of a streamed sample's cost.
"""

ROUTER_EVENTS = frozenset({"model", "score", "span_begin", "step"})
"""The events of a transcript the router reads: model calls, and where scoring
starts (`empty_migrate.runtime.router`)."""

_UNREAD_BY_ROUTER: dict[str, Any] = {
    "input": [],
    "tools": [],
    "call": None,
    "input_refs": None,
}
"""What the router never reads of a model call: its prompt, tools and raw call."""


def classified_part(data: Any) -> EvalSample:
    """The part of a sample's JSON value that classifying it reads, validated.

    The sample keeps `CLASSIFIED_FIELDS`; its events only the `ROUTER_EVENTS`,
    each model call without its prompt, tools and raw call. Classified, it
    gives the row of the whole sample (tests/logs/test_classified_part.py
    compares them at every kind of output location, on every release).
    """
    if not isinstance(data, dict):
        return _sample(data)
    part = {key: data[key] for key in CLASSIFIED_FIELDS if key in data}
    events = part.get("events")
    if isinstance(events, list):
        part["events"] = [
            {**event, **_UNREAD_BY_ROUTER} if _is_model_call(event) else event
            for event in events
            # a malformed event is kept, to fail validation as in a whole read
            if not isinstance(event, dict) or event.get("event") in ROUTER_EVENTS
        ]
    return _sample(part)


def _is_model_call(event: Any) -> bool:
    return isinstance(event, dict) and event.get("event") == "model"


def log_coverage(log: EvalLog, held: int | None = None) -> LogCoverage:
    """How much of its planned run a log holds (read by rule: old logs lack fields).

    The planned count is the results' ``total_samples`` (dataset samples, after
    any ``--limit``, times epochs); a log without results (a cancelled run)
    falls back to its dataset's sample ids, then to its sample count. `held`
    is the sample count of a log whose samples were streamed.
    """
    error = getattr(log, "error", None)
    return LogCoverage(
        status=str(getattr(log, "status", None) or "success"),
        held=len(log.samples or []) if held is None else held,
        planned=_planned(log),
        epochs=log_epochs(log),
        error=first_line(getattr(error, "message", error)) if error else None,
    )


def log_epochs(log: EvalLog) -> int:
    """The epochs each sample of the log's run was to run."""
    config = getattr(log.eval, "config", None)
    return int(getattr(config, "epochs", None) or 1)


def _planned(log: EvalLog) -> int | None:
    total = getattr(log.results, "total_samples", None) if log.results else None
    if total:
        return int(total)
    dataset = getattr(log.eval, "dataset", None)
    ids = getattr(dataset, "sample_ids", None)
    count = len(ids) if ids else getattr(dataset, "samples", None)
    return count * log_epochs(log) if count else None


def read_log(log_path: str | Path, *, resolve_attachments: bool = False) -> EvalLog:
    """Read one Inspect eval log, with its samples.

    Args:
        log_path: A ``.eval`` or ``.json`` Inspect log.
        resolve_attachments: Replace ``attachment://`` references with their
            content, as a scorer would see it.

    Raises:
        LogReadError: If the file is missing, cannot be read, is cut short or
            damaged, is not an Inspect log, or is past the bounds a log must
            keep (`within_bounds`).
    """
    within_bounds(log_path)
    try:
        return read_eval_log(str(log_path), resolve_attachments=resolve_attachments)
    except Exception as error:
        raise LogReadError(
            unreadable(log_path, error), not_a_log=isinstance(error, ValidationError)
        ) from None


def within_bounds(log_path: str | Path) -> None:
    """Refuse a log nested too deep, with too long a number, or too large a member.

    Checked before any parser reads the file (`log_out_of_bounds`): the
    parsers' memory grows with the square of the depth, and a number past
    Python's 4,300 digits crashes ijson.

    Raises:
        LogReadError: If the log is past a bound, naming the file and the bound.
    """
    if problem := log_out_of_bounds(Path(log_path)):
        raise LogReadError(
            f"{log_path} {problem}: no Inspect log does; not read "
            "(check where this file came from)"
        )


_COPY_AGAIN = "copy it again whole, or wait for the run writing it to end"
_PASS_A_LOG = "pass a .eval or .json log written by inspect eval"


def unreadable(log_path: str | Path, error: Exception) -> str:
    """Why inspect_ai could not read a log, in one line that names the file.

    A ``.eval`` log is a zip archive and a ``.json`` log one JSON document:
    one that does not open or parse (a copy cut short, a run still writing
    it, damaged bytes) is truncated or corrupt; one that parses but holds no
    eval log (no ``eval`` key, say) is not a log.
    """
    if isinstance(error, FileNotFoundError):
        return f"{log_path}: no such file"
    if isinstance(error, IsADirectoryError):
        return f"{log_path} is a folder, not a log; {_PASS_A_LOG}"
    if isinstance(error, OSError):
        return f"{log_path} cannot be read: {error.strerror or error}"
    if isinstance(error, ValidationError):
        return (
            f"{log_path} is not an Inspect eval log ({_invalid(error)}); {_PASS_A_LOG}"
        )
    ending = suffix(log_path)
    held = file_kind(Path(log_path))
    if held == _LOG_KINDS.get(ending):
        return f"{log_path} is truncated or corrupt: {first_line(error)}; {_COPY_AGAIN}"
    if held is None:
        why = first_line(error)
        return f"{log_path} is not an Inspect eval log ({why}); {_PASS_A_LOG}"
    return f"{log_path} is not an Inspect eval log: {_what_it_is(held, ending)}"


_LOG_KINDS = {".eval": "a zip archive", ".json": "JSON"}
"""What a log of each suffix holds: a ``.eval`` log is a zip archive."""

_MAGIC = {
    b"PK\x03\x04": "a zip archive",
    b"PK\x05\x06": "a zip archive",
    b"\x1f\x8b": "a gzip archive",
    b"%PDF": "a PDF document",
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"SQLite format 3\x00": "an SQLite database",
}
"""The first bytes of the kinds of file a log is most often mistaken for."""


def file_kind(path: Path) -> str | None:
    """What `path` holds, from its first bytes: a zip archive, JSON, text, ...

    None when it cannot be read. Only the start is read, so a ``{`` followed
    by prose still counts as JSON (the parser's error then says where).
    """
    try:
        with path.open("rb") as file:
            start = file.read(4096)
    except OSError:
        return None
    if not start:
        return "empty"
    for magic, kind in _MAGIC.items():
        if start.startswith(magic):
            return kind
    if start.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"["):
        return "JSON"
    try:
        start.decode("utf-8")
    except UnicodeDecodeError as cut:
        if cut.start < len(start) - 3:  # not just a character cut at the end
            return "binary data"
    return "text"


def _what_it_is(held: str, ending: str) -> str:
    """What a file that is not a log holds, and what to pass instead."""
    if held == "empty":
        return f"the file is empty; {_PASS_A_LOG}"
    named = [s for s, kind in _LOG_KINDS.items() if kind == held]
    expected = _LOG_KINDS.get(ending)
    said = f"it holds {held}"
    if expected:
        said += f", and a {ending} log is {expected}"
    if named and named[0] != ending:
        # a log saved under another name (x.eval.txt, a .json renamed .eval)
        return f"{said}; if it is an Inspect log, name it *{named[0]}"
    return f"{said}; {_PASS_A_LOG}"


def _invalid(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else first["msg"]


def first_line(error: object) -> str:
    """An error's first line: its message's, else its class name ("" for text)."""
    text = str(error).strip()
    if text:
        return text.splitlines()[0]
    return "" if isinstance(error, str) else type(error).__name__


def classify_sample(
    log: str,
    header: EvalLog,
    sample: EvalSample,
    location: str = DEFAULT_LOCATION,
) -> SampleOutcome | None:
    """Classify one sample's final answer, found as the router finds it.

    The sample is rebuilt as the task state its scorer saw (`sample_state`),
    its transcript replayed (`replayed_sample`), and the answer found at
    `location` (a registry output location; by default the router's rule,
    `state_output`) and classified by the router's own code, so a log reads as
    the migrated scorer reads the run.

    Args:
        log: The log's name, kept on the row.
        header: The log's header: its model and generate config.
        sample: The sample.
        location: Where the eval keeps the model's output.

    Returns:
        The row, or None when nothing is recorded at `location` (the router
        leaves such a sample to the scorer).
    """
    with replayed_sample(sample.events or [], generate_limit(header)):
        outputs = located_outputs(locator(location)(sample_state(header, sample)))
        if not outputs:
            return None
        found = classify_outputs(outputs)
    last = outputs[-1]
    return SampleOutcome(
        log,
        sample.id,
        sample.epoch,
        found.outcome,
        found.signal,
        "-" if last.empty else last.stop_reason,
        stopped_by(sample),
        header.eval.model,
        tuple(sorted(found.flags)),
        excerpt(found.visible_text),
    )


def sample_state(header: EvalLog, sample: EvalSample) -> TaskState:
    """The task state a scorer saw for a logged sample, as far as the log keeps it."""
    return TaskState(
        model=_model_name(header.eval.model),
        sample_id=sample.id,
        epoch=sample.epoch,
        input=sample.input,
        messages=sample.messages,
        target=Target(sample.target),
        choices=sample.choices,
        output=sample.output,
        completed=True,
        metadata=sample.metadata,
        store=sample.store,
    )


def _model_name(model: str) -> ModelName:
    try:
        return ModelName(model)
    except ValueError:
        # a log that names its model without the provider (hand-made, or
        # another tool's): its messages are read, its model calls are not
        name = ModelName.__new__(ModelName)
        name.api, name.name = "", model
        return name


def generate_limit(header: EvalLog) -> int | None:
    """The run's ``max_tokens``: the eval's generate config, else the model's."""
    plan = getattr(header, "plan", None)
    for config in (
        getattr(plan, "config", None),
        getattr(header.eval, "model_generate_config", None),
    ):
        if limit := getattr(config, "max_tokens", None):
            return int(limit)
    return None


_EXCERPT_WIDTH = 80


def excerpt(text: str) -> str:
    """The start of a visible text on one line, cut to fit a row."""
    flat = " ".join(text.split())
    if len(flat) <= _EXCERPT_WIDTH:
        return flat
    return flat[: _EXCERPT_WIDTH - 1] + "…"


def stopped_by(sample: EvalSample) -> str | None:
    """What ended the sample, if the run did rather than the model.

    ``error: <first line>`` for a sample error, ``limit: <type>`` for a limit
    it hit; None otherwise. Read by rule: logs of early releases have no
    ``limit``, and an error may be recorded without a message.
    """
    error = getattr(sample, "error", None)
    if error is not None:
        first = first_line(getattr(error, "message", error))
        return f"error: {first}" if first else "error"
    limit = getattr(sample, "limit", None)
    if limit is not None:
        return f"limit: {getattr(limit, 'type', limit)}"
    return None


def count_outcomes(
    outcomes: Iterable[SampleOutcome],
) -> Counter[tuple[str, str, str | None]]:
    """Count samples by (outcome, stop reason, what stopped them if not the model)."""
    return Counter((str(o.outcome), o.stop_reason, o.stopped_by) for o in outcomes)


def table_counts(
    outcomes: Iterable[SampleOutcome],
) -> list[tuple[tuple[str, str, str | None], int]]:
    """`count_outcomes` in table order: the samples the run stopped come last."""
    return sorted(count_outcomes(outcomes).items(), key=_stopped_last)


_STOPPED_BY_WIDTH = 100


def render_table(outcomes: Sequence[SampleOutcome]) -> str:
    """The counts as a table, the samples the run stopped last.

    A sample the run stopped (an error or a limit) names it in a last column,
    and the totals then separate those from the samples the model finished.
    """
    counts = table_counts(outcomes)
    stopped = sum(n for (_, _, by), n in counts if by)
    header = f"{'outcome':<24}{'stop_reason':<16}{'samples':>8}"
    lines = [header + ("  stopped_by" if stopped else "")]
    for (outcome, stop_reason, by), count in counts:
        line = f"{outcome:<24}{stop_reason:<16}{count:>8}"
        lines.append(line + (f"  {shortened(by)}" if by else ""))
    if stopped:
        lines.append(f"{'finished by the model':<40}{len(outcomes) - stopped:>8}")
        lines.append(f"{'stopped by the run':<40}{stopped:>8}")
    lines.append(f"{'total':<40}{len(outcomes):>8}")
    return "\n".join(lines) + "\n"


def render_sections(logs: Sequence[LogOutcomes]) -> str:
    """One table per log, headed by its path, and a total table over them all.

    A single log prints its table alone, as it always has.
    """
    everything = [o for one in logs for o in one.outcomes]
    if len(logs) == 1:
        sections = [render_table(everything)]
    else:
        sections = [f"{one.log}\n{render_table(one.outcomes)}" for one in logs]
        sections.append(f"all {len(logs)} logs\n{render_table(everything)}")
    sections.append(render_rates(everything))
    return "\n".join(sections)


@dataclass(frozen=True)
class NonAnswerRate:
    """How many of a model's finished samples with one stop reason were no answer."""

    model: str
    stop_reason: str
    samples: int
    non_answers: Counter[str]

    @property
    def rate(self) -> float:
        """The share of these samples that were no answer (0 when there are none)."""
        return sum(self.non_answers.values()) / self.samples if self.samples else 0.0


ALL_STOP_REASONS = "(all)"


def non_answer_rates(outcomes: Iterable[SampleOutcome]) -> list[NonAnswerRate]:
    """The non-answer rate per model, by stop reason and over all of them.

    Only samples the model finished count: a sample the run stopped (an error
    or a limit) says nothing about the model's answers. This measures how much
    of a reported number is made of non-answers, e.g. whether a small
    ``max_tokens`` makes a reasoning model's samples end as truncations, which
    many scorers count as refusals.
    """
    samples: Counter[tuple[str, str]] = Counter()
    non_answers: dict[tuple[str, str], Counter[str]] = {}
    for found in outcomes:
        if found.stopped_by:
            continue
        for key in ((found.model, found.stop_reason), (found.model, ALL_STOP_REASONS)):
            samples[key] += 1
            classes = non_answers.setdefault(key, Counter())
            if found.outcome != Outcome.ANSWERED:
                classes[str(found.outcome)] += 1
    return [
        NonAnswerRate(model, stop_reason, samples[model, stop_reason], classes)
        for (model, stop_reason), classes in sorted(non_answers.items(), key=_all_last)
    ]


def _all_last(item: tuple[tuple[str, str], Counter[str]]) -> tuple[str, bool, str]:
    (model, stop_reason), _ = item
    return (model, stop_reason == ALL_STOP_REASONS, stop_reason)


def render_rates(outcomes: Sequence[SampleOutcome]) -> str:
    """The non-answer rates per model and stop reason, with their classes."""
    stopped = sum(1 for o in outcomes if o.stopped_by)
    title = "non-answers by model and stop_reason"
    if stopped:
        title += f" (leaving out the {stopped} samples the run stopped)"
    rates = non_answer_rates(outcomes)
    width = max([len("model"), *(len(r.model) for r in rates)]) + 2
    lines = [
        title,
        f"{'model':<{width}}{'stop_reason':<16}{'samples':>8}"
        f"{'non-answers':>13}{'rate':>8}  classes",
    ]
    for rate in rates:
        count = sum(rate.non_answers.values())
        classes = ", ".join(f"{c} {n}" for c, n in rate.non_answers.most_common())
        lines.append(
            f"{rate.model:<{width}}{rate.stop_reason:<16}{rate.samples:>8}"
            f"{count:>13}{rate.rate:>8.1%}  {classes}".rstrip()
        )
    return "\n".join(lines) + "\n"


def _stopped_last(item: tuple[tuple[str, str, str | None], int]) -> tuple[Any, ...]:
    (outcome, stop_reason, by), _ = item
    return (by is not None, by or "", outcome, stop_reason)


def shortened(text: str) -> str:
    """A `stopped_by` cut to fit a table's last column (an error line may be long)."""
    if len(text) <= _STOPPED_BY_WIDTH:
        return text
    return text[: _STOPPED_BY_WIDTH - 1] + "…"
