"""``taskeval export DIR --overwrite`` writes inside DIR only: links already in DIR are replaced,
never followed (a link to a file, to a folder, a hard link)."""

from __future__ import annotations

import os

from taskeval.export import export


def test_overwrite_replaces_links_instead_of_writing_through_them(tmp_path):
    """Planted: ``write``/``copy`` writing to the existing path (through its link), and the
    bundled package's folder link removed with ``shutil.rmtree`` (which refuses links)."""
    outside = tmp_path / "outside"
    (outside / "folder").mkdir(parents=True)
    (outside / "app.py").write_text("mine\n", encoding="utf-8")
    (outside / "README.md").write_text("mine\n", encoding="utf-8")
    (outside / "folder" / "keep.txt").write_text("mine\n", encoding="utf-8")
    target = tmp_path / "space"
    target.mkdir()
    (target / "app.py").symlink_to(outside / "app.py")
    os.link(outside / "README.md", target / "README.md")
    (target / "spacekit").symlink_to(outside / "folder", target_is_directory=True)
    (target / "examples").symlink_to(outside / "folder", target_is_directory=True)
    written = export("fever_score", target, overwrite=True)
    before = {p.relative_to(outside): "mine\n" for p in outside.rglob("*") if p.is_file()}
    assert {p.relative_to(outside): p.read_text() for p in outside.rglob("*") if p.is_file()} == (
        before
    )
    assert sorted(p.name for p in outside.rglob("*")) == [
        "README.md",
        "app.py",
        "folder",
        "keep.txt",
    ]
    assert not [p for p in target.rglob("*") if p.is_symlink()]
    assert all(p.resolve().is_relative_to(target.resolve()) for p in written)
    assert (target / "spacekit" / "space.py").is_file()
    assert (target / "app.py").read_text(encoding="utf-8").startswith('"""Gradio Space')


def test_overwrite_replaces_a_dangling_link_instead_of_creating_its_target(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    target = tmp_path / "space"
    target.mkdir()
    (target / "app.py").symlink_to(outside / "app.py")  # to a file that does not exist
    export("fever_score", target, overwrite=True)
    assert not list(outside.iterdir())
    assert not (target / "app.py").is_symlink() and (target / "app.py").is_file()
