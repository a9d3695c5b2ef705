"""The project's documents: every one a file or a docstring sends a reader to is in the
repository (the rules and the architecture are the project's own, `docs/rules.md` and
`docs/architecture.md`), and the rules document names every option the engine has."""

import re
import subprocess
from pathlib import Path

from controller.rules import VARIANTS

CHECKOUT = Path(__file__).resolve().parent.parent
CITED = re.compile(r"(?<![\w/.-])((?:docs|hardware|firmware|tests)/[\w./-]*?\.md|[A-Z]+\.md)\b")


def tracked_text_files():
    names = subprocess.run(["git", "ls-files"], cwd=CHECKOUT, capture_output=True, text=True,
                           check=True).stdout.split()
    for name in names:
        if name.endswith((".py", ".md", ".js", ".html", ".mjs", ".toml", ".json")):
            yield name


def test_every_document_cited_is_in_the_repository():
    missing = []
    for name in tracked_text_files():
        path = CHECKOUT / name
        text = path.read_text(errors="replace")
        for match in CITED.finditer(text):
            cited = match.group(1)
            here = path.parent / cited
            if not (CHECKOUT / cited).exists() and not here.exists():
                missing.append("%s: %s" % (name, cited))
    assert missing == [], missing


def test_the_rules_document_names_every_option_of_every_variant():
    text = (CHECKOUT / "docs" / "rules.md").read_text()
    absent = sorted({option for variant in VARIANTS.values() for option in variant.options
                     if "`%s`" % option not in text})
    assert absent == [], absent
    for name in VARIANTS:
        assert "`%s`" % name in text, name
