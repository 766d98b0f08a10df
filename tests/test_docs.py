"""The documents the code points to exist, and the sections it cites are there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC_REFERENCE = re.compile(r"docs/([\w.-]+\.md)(?: sections? (\d+)(?: and (\d+))?)?")


def _sources() -> list[Path]:
    return sorted([*ROOT.joinpath("showdown").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")])


def test_every_document_a_docstring_names_exists_with_its_sections() -> None:
    seen = 0
    for path in _sources():
        for match in DOC_REFERENCE.finditer(path.read_text(encoding="utf-8")):
            doc = ROOT / "docs" / match.group(1)
            assert doc.is_file(), f"{path.relative_to(ROOT)} names docs/{match.group(1)}, which does not exist"
            headings = {m.group(1) for m in re.finditer(r"^## (\d+)\.", doc.read_text(encoding="utf-8"), re.M)}
            for section in filter(None, match.groups()[1:]):
                assert section in headings, f"{path.relative_to(ROOT)} cites {doc.name} section {section}, which is not there"
            seen += 1
    assert seen >= 10  # the docstrings do cite the documents


def test_no_module_points_to_documents_outside_the_repository() -> None:
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        if path.name == "test_docs.py":
            continue
        assert "../shared" not in text and re.search(r"(?<![\w/])(PROTOCOL|DESIGN)\.md", text) is None, path
