"""Starts and stops `pushsim serve` for a test session."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from .client import PushSim

__all__ = ["PushSimServer", "find_pushsim"]

BANNER = re.compile(r"pushsim serve: listening on (http://127\.0\.0\.1:(\d+))")


def find_pushsim(explicit=None, start=None):
    """The pushsim binary: `explicit`, else $PUSHSIM_BIN, else `pushsim` on PATH, else
    `.build/release/pushsim` or `.build/debug/pushsim` in the cwd (or `start`) or a folder above it."""
    for candidate in (explicit, os.environ.get("PUSHSIM_BIN")):
        if candidate:
            path = Path(candidate).expanduser()
            if not (path.is_file() and os.access(path, os.X_OK)):
                raise FileNotFoundError(f"pushsim binary {candidate!r} is not an executable file")
            return str(path.resolve())
    on_path = shutil.which("pushsim")
    if on_path:
        return on_path
    here = Path(start or os.getcwd()).resolve()
    for folder in (here, *here.parents):
        for build in ("release", "debug"):
            path = folder / ".build" / build / "pushsim"
            if path.is_file() and os.access(path, os.X_OK):
                return str(path)
    raise FileNotFoundError("no pushsim binary: set PUSHSIM_BIN or --pushsim-bin, put pushsim on PATH, "
                            "or build it (swift build -c release --product pushsim)")


class PushSimServer:
    """One `pushsim serve --port 0 --clock manual` process. `start()` waits until it answers;
    `stop()` sends SIGTERM. Also a context manager. `client()` gives a `PushSim` for it."""

    def __init__(self, binary=None, scenario=None, clock="manual", seed=None, record=None,
                 extra_args=(), startup_timeout=30.0):
        self.binary = find_pushsim(binary)
        self.scenario = scenario
        self.clock = clock
        self.seed = seed
        self.record = record
        self.extra_args = list(extra_args)
        self.startup_timeout = startup_timeout
        self.process = None
        self.base_url = None
        self.port = None
        self._folder = None
        self.log_path = None

    def command(self):
        args = [self.binary, "serve", "--port", "0", "--clock", self.clock,
                "--service-account", os.path.join(self._folder, "service-account.json")]
        if self.scenario:
            args += ["--scenario", str(self.scenario)]
        if self.seed is not None:
            args += ["--seed", str(self.seed)]
        if self.record:
            args += ["--record", str(self.record)]
        return args + self.extra_args

    def start(self):
        self._folder = tempfile.mkdtemp(prefix="pushsim-pytest-")
        self.log_path = os.path.join(self._folder, "serve.log")
        log = open(self.log_path, "wb")
        try:
            self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL)
        finally:
            log.close()
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            match = BANNER.search(self.log())
            if match:
                self.base_url, self.port = match.group(1), int(match.group(2))
                break
            if self.process.poll() is not None:
                self._fail(f"pushsim serve exited with status {self.process.returncode} before listening")
            time.sleep(0.02)
        else:
            self._fail(f"pushsim serve printed no 'listening on' line within {self.startup_timeout:.0f} s")
        # The banner is printed once the socket listens; check that the control API answers.
        while True:
            try:
                with urllib.request.urlopen(self.base_url + "/_pushsim/clock", timeout=5):
                    return self
            except OSError:
                if time.monotonic() > deadline:
                    self._fail("pushsim serve does not answer on " + self.base_url)
                time.sleep(0.05)

    def log(self):
        """What the server printed so far."""
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode(errors="replace")
        except (OSError, TypeError):
            return ""

    def _fail(self, why):
        text, command = self.log(), " ".join(self.command())
        self.stop()
        raise RuntimeError(f"{why}: {command}\n{text}")

    def client(self):
        return PushSim(self.base_url, clock=self.clock)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False
