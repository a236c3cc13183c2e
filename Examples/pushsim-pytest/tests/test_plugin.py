"""The plugin, seen from a suite of its own (pytester): a failing test leaves the world's journal
and the session's teaching page."""

import json


def test_a_failing_test_leaves_its_journal(pytester, pushsim_server):
    pytester.makepyfile(test_inner="""
        def test_fails(pushsim):
            pushsim.device("zed-iphone", "ios")
            pushsim.expect('zed-iphone shows "never sent"').assert_holds()
    """)
    # --opt=value and an explicit rootdir: pytest takes a separate argument that names an existing
    # path (the binary) as a hint for its rootdir, which then depends on where the binary lives.
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--rootdir={pytester.path}",
                                           f"--pushsim-bin={pushsim_server.binary}")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(['*AssertionError: FAIL  *zed-iphone shows "never sent"*',
                                 "*pushsim journals and pages of failed tests*"])
    saved = pytester.path / ".pushsim-reports" / "test_inner.py_test_fails.journal.json"
    journal = json.loads(saved.read_text())
    assert journal["test"] == "test_inner.py::test_fails"
    assert [d["name"] for d in journal["devices"]] == ["zed-iphone"]
    assert any(e["from"] == "zed-iphone" for e in journal["entries"])
    page = (pytester.path / ".pushsim-reports" / "test_inner.py_test_fails.page.html").read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert "zed-iphone" in page
