"""The do-no-harm gate's bookkeeping: junit reports, comparisons, test folders."""

from pathlib import Path

from empty_migrate.target import own_tests
from empty_migrate.target.own_tests import (
    TEST_PLUGINS,
    Comparison,
    TargetEnvironment,
    folders_for,
    folders_of_tests,
    read_junit,
)

JUNIT = """\
<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="4">
<testcase classname="tests.demo.test_scorer" name="test_answer" time="0.1"/>
<testcase classname="tests.demo.test_scorer" name="test_empty" time="0.1">
  <failure message="assert 'N' == 'I'">...</failure>
</testcase>
<testcase classname="tests.demo.test_dataset" name="test_download" time="0.1">
  <error message="ConnectionError">...</error>
</testcase>
<testcase classname="tests.other.test_x.TestGroup" name="test_skip" time="0.0">
  <skipped message="needs docker"/>
</testcase>
</testsuite></testsuites>
"""


def test_reads_every_outcome_from_a_junit_report(tmp_path):
    report = tmp_path / "junit.xml"
    report.write_text(JUNIT)
    assert read_junit(report) == {
        "tests.demo.test_scorer::test_answer": "passed",
        "tests.demo.test_scorer::test_empty": "failed",
        "tests.demo.test_dataset::test_download": "failed",
        "tests.other.test_x.TestGroup::test_skip": "skipped",
    }


def test_a_regression_is_a_test_that_passed_and_does_not_any_more():
    before = {"a::ok": "passed", "a::broke": "passed", "a::gone": "passed"}
    before |= {"a::offline": "failed", "a::skipped": "passed"}
    after = {"a::ok": "passed", "a::broke": "failed", "a::offline": "failed"}
    after |= {"a::skipped": "skipped", "a::new": "passed"}
    comparison = Comparison(before, after)
    assert comparison.regressions == {
        "a::broke": "failed",
        "a::gone": "missing",
        "a::skipped": "skipped",
    }
    assert comparison.newly_passing == ["a::new"]
    assert comparison.failing_in_both == ["a::offline"]
    assert "3 regressed, 1 newly pass, 1 fail in both" in comparison.summary()


def test_test_folders_of_the_changed_evals(tmp_path):
    for name in ("alpha", "beta", "utils"):
        (tmp_path / "tests" / name).mkdir(parents=True)
    assert folders_for(tmp_path, ["beta", "alpha", "gamma"], True) == [
        "tests/alpha",
        "tests/beta",
        "tests/utils",
    ]
    assert folders_for(tmp_path, ["beta"], False) == ["tests/beta"]
    ids = ["tests.beta.test_x::test_a", "tests.beta.test_x.TestY::test_b"]
    ids.append("::tests.gamma.test_dataset")  # a collection error
    assert folders_of_tests(ids) == ["tests/beta", "tests/gamma"]


def test_an_installed_environment_is_reused(tmp_path, monkeypatch):
    def no_install(command, what):
        raise AssertionError(f"tried to {what}")

    monkeypatch.setattr(own_tests, "_run", no_install)
    requirements = ["inspect-evals==0.26.0"]
    stamp = tmp_path / "empty-migrate-requirements.txt"
    stamp.write_text("\n".join([*requirements, *TEST_PLUGINS]) + "\n")
    (tmp_path / "installed.txt").write_text("what the install left\n")
    environment = TargetEnvironment.ensure(tmp_path, requirements)
    assert environment.python == tmp_path / "bin" / "python"
    assert (tmp_path / "installed.txt").is_file()  # not removed to start again


def test_an_environment_without_plugins_installs_only_its_requirements(
    tmp_path, monkeypatch
):
    installed: list[list[str]] = []

    def run(command, what):
        if what == "create the environment":  # python -m venv ROOT
            Path(command[-1]).mkdir()
        elif what == "install the target and plugins":
            installed.append(command[command.index("--quiet") + 1 :])

    monkeypatch.setattr(own_tests, "_run", run)
    TargetEnvironment.ensure(tmp_path, ["mypy==2.1.0"], plugins=())
    assert installed == [["mypy==2.1.0"]]
    stamp = tmp_path / "empty-migrate-requirements.txt"
    assert stamp.read_text() == "mypy==2.1.0\n"


def test_an_environment_for_other_requirements_is_made_again(tmp_path, monkeypatch):
    ran: list[str] = []

    def run(command, what):
        ran.append(what)
        if what == "create the environment":  # python -m venv ROOT
            Path(command[-1]).mkdir()

    monkeypatch.setattr(own_tests, "_run", run)
    stamp = tmp_path / "empty-migrate-requirements.txt"
    stamp.write_text("inspect-evals==0.25.0\n")
    (tmp_path / "installed.txt").write_text("what the old install left\n")
    TargetEnvironment.ensure(tmp_path, ["inspect-evals==0.26.0"])
    assert ran == [
        "create the environment",
        "upgrade pip",
        "install the target and plugins",
    ]
    assert not (tmp_path / "installed.txt").exists()
    assert stamp.read_text().startswith("inspect-evals==0.26.0\n")
