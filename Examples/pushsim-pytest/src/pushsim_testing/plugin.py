"""The pytest plugin (entry point `pytest11`): a session-scoped `pushsim serve` and a
function-scoped `pushsim` fixture that resets the world before each test. When a test fails, the
world's journal is saved to `<reports>/<test>.journal.json` and its teaching page to
`<reports>/<test>.page.html` (default reports folder:
`.pushsim-reports` in the directory pytest was started from)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .client import PushSimError
from .server import PushSimServer


def pytest_addoption(parser):
    group = parser.getgroup("pushsim", "PushSim world (pushsim serve)")
    group.addoption("--pushsim-bin", default=None,
                    help="the pushsim binary (default: $PUSHSIM_BIN, pushsim on PATH, .build/{release,debug}/pushsim above the cwd)")
    group.addoption("--pushsim-scenario", default=None,
                    help="a scenario file the server starts from (pushsim serve --scenario): its settings and devices")
    group.addoption("--pushsim-reports", default=None,
                    help="where the journals of failed tests go (default .pushsim-reports)")
    parser.addini("pushsim_scenario", "scenario file for pushsim serve, relative to the ini file", default=None)
    parser.addini("pushsim_reports", "folder for the journals of failed tests, relative to the ini file", default=None)


def _path_option(config, name):
    """A path from the command line (relative to where pytest started) or the ini file (relative to it)."""
    value = config.getoption("--" + name.replace("_", "-"))
    if value:
        return Path(config.invocation_params.dir, value)
    value = config.getini(name)
    if value:
        base = config.inipath.parent if config.inipath else config.rootpath
        return Path(base, value)
    return None


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "_pushsim_report_" + report.when, report)


@pytest.fixture(scope="session")
def pushsim_server(request):
    """One `pushsim serve --port 0 --clock manual` for the whole session (SIGTERM at the end)."""
    config = request.config
    scenario = _path_option(config, "pushsim_scenario")
    if scenario is not None and not scenario.is_file():
        raise pytest.UsageError(f"--pushsim-scenario: no file {scenario}")
    server = PushSimServer(binary=config.getoption("--pushsim-bin"), scenario=scenario)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def pushsim(pushsim_server, request):
    """A `PushSim` client for the session's server, the world reset before the test."""
    sim = pushsim_server.client()
    sim.reset()
    yield sim
    failed = [getattr(request.node, "_pushsim_report_" + when, None) for when in ("setup", "call")]
    if any(report is not None and report.failed for report in failed):
        _save_journal(sim, request)


def _save_journal(sim, request):
    config = request.config
    folder = _path_option(config, "pushsim_reports") or Path(config.invocation_params.dir, ".pushsim-reports")
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid).strip("_")
    path = (folder / f"{name}.journal.json").resolve()
    try:
        journal = sim.journal_all()
        journal["test"] = request.node.nodeid
        journal["clock"] = sim.clock()
        journal["faults"] = sim.faults()
        journal["devices"] = [d.data for d in sim.devices()]
    except (OSError, PushSimError) as error:
        journal = {"test": request.node.nodeid, "error": f"could not read the journal: {error}"}
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(journal, indent=1) + "\n")
    config.stash.setdefault(_saved_key, []).append(str(path))
    # The session as a teaching page, beside the journal.
    page = path.with_name(f"{name}.page.html")
    try:
        page.write_text(sim.page())
        config.stash.setdefault(_saved_key, []).append(str(page))
    except (OSError, PushSimError) as error:
        page.write_text(f"<!DOCTYPE html><p>pushsim could not make the page: {error}</p>\n")


_saved_key = pytest.StashKey[list]()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    saved = config.stash.get(_saved_key, [])
    if saved:
        terminalreporter.section("pushsim journals and pages of failed tests")
        for path in saved:
            terminalreporter.write_line(path)
