"""The suite's own fixtures: the app server under test, configured from the `pushsim` fixture (which
the pushsim-testing plugin provides)."""

import pytest

from app_server import FcmSender, HubRegistrar

pytest_plugins = ["pytester"]   # test_plugin.py runs a failing test in a pytest of its own


@pytest.fixture
def fcm_app(pushsim):
    app = FcmSender(pushsim.fcm_service_account_file, pushsim.fcm_send_url_template)
    yield app
    app.close()


@pytest.fixture
def hub_app(pushsim):
    app = HubRegistrar(pushsim.hub_connection_string, pushsim.hub_name)
    yield app
    app.close()
