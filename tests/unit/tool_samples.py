"""Tool output shared by the tests of tool-call reading and of session mining."""

TRACE = (
    "Traceback (most recent call last):\n"
    '  File "/work/app/app.py", line 1, in <module>\n'
    "    import yaml\n"
    "ModuleNotFoundError: No module named 'yaml'"
)
PYTEST_FAIL = (
    "F.\nE       AssertionError: assert 3 == 4\n"
    "FAILED tests/test_calc.py::test_add - AssertionError: assert 3 == 4\n1 failed, 1 passed"
)
