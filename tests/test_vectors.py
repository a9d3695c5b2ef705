"""The rules test vectors (tests/vectors/*.jsonl) replayed in CPython, byte for byte."""

import json
import pathlib

import pytest

from controller.rules.replay import replay

VECTORS = sorted(pathlib.Path(__file__).parent.joinpath("vectors").glob("*.jsonl"))


def load():
    cases = []
    for path in VECTORS:
        for line in path.read_text().splitlines():
            if line.strip():
                case = json.loads(line)
                cases.append(pytest.param(case, id="%s:%s" % (path.stem, case["name"])))
    return cases


def test_vectors_exist():
    assert len(load()) >= 24


@pytest.mark.parametrize("case", load())
def test_vector(case):
    lines = []
    replay(case["variant"], case["options"], case["setup"], case["first"], case["moves"],
           case["to_end"], lines.append)
    assert lines == [json.dumps(position) for position in case["positions"]]
