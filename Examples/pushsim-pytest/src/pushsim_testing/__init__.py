"""Drive a PushSim world (`pushsim serve`) from Python tests: a control-API client (`PushSim`), a
server runner (`PushSimServer`) and, through the `pytest11` entry point, a pytest plugin with the
`pushsim` fixture. Standard library only."""

from .client import Browser, Device, Expectation, Fault, Inbox, PushSim, PushSimError, duration
from .server import PushSimServer, find_pushsim

__all__ = ["PushSim", "PushSimServer", "PushSimError", "Device", "Browser", "Fault", "Expectation", "Inbox",
           "duration", "find_pushsim"]
__version__ = "0.1.0"
