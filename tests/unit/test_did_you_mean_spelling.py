""" "Did you mean" ranks by spelling: a module's constant spelled only loosely like the
name asked comes after a definition spelled closely, and an unknown dunder is offered
only its owner's dunders spelled alike, never another class's `__len__`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ctxhub.session import HubSession
from ctxhub.tools.nearest import nearest_names
from tests.unit.package_hub import tree_hub

BODY = (
    "        kept = [value]\n        for part in kept:\n            print(part)\n"
    "        return kept\n"
)
FILES = {
    "pk/__init__.py": "",
    "pk/core.py": '__all__ = ["Tuple", "Model", "Bag"]\n\n'
    "Tuple = lambda *parts: list(parts)\n\n\n"
    "def __getattr__(name):\n"
    '    """Old names, looked up lazily."""\n'
    "    found = {}.get(name)\n    if found is None:\n        raise AttributeError(name)\n"
    "    return found\n\n\n"
    "class Model:\n"
    '    """A table row."""\n\n'
    "    def save(self, value):\n" + BODY + "\n\n"
    "class Bag:\n"
    '    """A bag of values."""\n\n'
    "    def __len__(self, value=None):\n" + BODY + "\n"
    "    def __iter__(self, value=None):\n" + BODY + "\n"
    "    def __init__(self, value=None):\n" + BODY,
}


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HubSession]:
    with tree_hub(tmp_path_factory.mktemp("dym-spelling"), "pk", FILES) as h:
        yield h


def test_a_closely_spelled_class_comes_before_a_loosely_spelled_constant(
    hub: HubSession,
) -> None:
    near = nearest_names(hub, "pk.core.Modle")
    assert near[0] == "pk.core.Model"
    assert "pk.core.Tuple" not in near or near.index("pk.core.Tuple") > near.index("pk.core.Model")


def test_an_unknown_dunder_is_offered_no_other_classes_dunder_methods(hub: HubSession) -> None:
    near = nearest_names(hub, "pk.core.__version__")
    assert not any(n.startswith("pk.core.Bag.") for n in near)


def test_a_mistyped_dunder_is_offered_its_modules_dunder(hub: HubSession) -> None:
    near = nearest_names(hub, "pk.core.__getatr__")
    assert not any(n.startswith("pk.core.Bag.") for n in near)
    assert near[:1] == ["pk.core.__getattr__"]
