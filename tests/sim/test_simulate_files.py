"""Where `eighteen simulate` writes: summary.json and report.html both or neither (the old
ones kept on a failure, no temporary file left, the error naming the file), modes and
links kept, and with --no-report a report.html of an earlier run removed."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from eighteen.cli import main
from eighteen.commands import simulate
from eighteen.commands.output import OutputError, write_together
from eighteen.commands.simulate import written_report

#: A quick run: one game cut off after 30 actions.
QUICK = ["simulate", "1830", "--games", "1", "--max-actions", "30", "--quiet"]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


# -- both files or neither -------------------------------------------------------------------


def test_both_files_are_written_keeping_modes_and_links(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "kept.json").write_text("old")
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").symlink_to(elsewhere / "kept.json")
    (out / "report.html").write_text("old report")
    os.chmod(out / "report.html", 0o600)
    write_together({out / "summary.json": "new", out / "report.html": "new report"})
    assert (out / "summary.json").is_symlink()
    assert (elsewhere / "kept.json").read_text() == "new"
    assert (out / "report.html").read_text() == "new report"
    assert stat.S_IMODE((out / "report.html").stat().st_mode) == 0o600
    assert leftovers(out) == [] and leftovers(elsewhere) == []


def test_a_new_file_gets_the_mode_open_would_give(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_together({tmp_path / "summary.json": "{}"})
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "summary.json").stat().st_mode) == 0o640


def test_a_folder_named_report_html_leaves_both_old_files(tmp_path: Path) -> None:
    (tmp_path / "summary.json").write_text("old summary")
    (tmp_path / "report.html").mkdir()
    with pytest.raises(OutputError, match=r"/report\.html: is a folder, not a file$") as exc:
        write_together({tmp_path / "summary.json": "new", tmp_path / "report.html": "new"})
    assert str(exc.value) == f"{tmp_path / 'report.html'}: is a folder, not a file"
    assert (tmp_path / "summary.json").read_text() == "old summary"
    assert leftovers(tmp_path) == []


def test_a_failed_second_rename_puts_the_first_file_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "summary.json").write_text("old summary")
    (tmp_path / "report.html").write_text("old report")
    real = os.replace

    def replace(src: Any, dst: Any) -> None:
        if Path(dst).name == "report.html" and str(src).endswith(".tmp"):
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OutputError) as exc:
        write_together({tmp_path / "summary.json": "new", tmp_path / "report.html": "new"})
    assert str(exc.value) == f"{tmp_path / 'report.html'}: No space left on device"
    assert (tmp_path / "summary.json").read_text() == "old summary"
    assert (tmp_path / "report.html").read_text() == "old report"
    assert leftovers(tmp_path) == []


def test_without_hard_links_the_first_file_is_put_back_from_a_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file system with no hard links (or a link refused): the old file is kept as a
    copy, and put back as before (it was left replaced)."""
    (tmp_path / "summary.json").write_text("old summary")
    (tmp_path / "report.html").write_text("old report")
    real = os.replace

    def link(src: Any, dst: Any) -> None:
        raise OSError(1, "Operation not permitted")

    def replace(src: Any, dst: Any) -> None:
        if Path(dst).name == "report.html" and str(src).endswith(".tmp"):
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(os, "link", link)
    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OutputError):
        write_together({tmp_path / "summary.json": "new", tmp_path / "report.html": "new"})
    assert (tmp_path / "summary.json").read_text() == "old summary"
    assert (tmp_path / "report.html").read_text() == "old report"
    assert leftovers(tmp_path) == []


def test_a_failed_second_rename_removes_a_first_file_that_was_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.replace

    def replace(src: Any, dst: Any) -> None:
        if Path(dst).name == "report.html":
            raise OSError(5, "Input/output error")
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OutputError):
        write_together({tmp_path / "summary.json": "new", tmp_path / "report.html": "new"})
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.usefixtures("no_games")
def test_a_folder_named_report_html_is_refused_before_any_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "summary.json").write_text("old summary")
    (tmp_path / "report.html").mkdir()
    assert main([*QUICK, "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"eighteen simulate: error: {tmp_path / 'report.html'}: is a folder, not a file\n"
    )
    assert (tmp_path / "summary.json").read_text() == "old summary"
    assert leftovers(tmp_path) == []


def test_a_folder_made_during_the_run_fails_the_write_naming_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """report.html turns into a folder while the games run: exit 1, naming the file, and
    the summary.json of the earlier run is left as it was."""
    (tmp_path / "summary.json").write_text("old summary")
    real = simulate.prepare

    def prepare(args: Any) -> Any:
        got = real(args)
        (tmp_path / "report.html").mkdir()
        return got

    monkeypatch.setattr(simulate, "prepare", prepare)
    assert main([*QUICK, "--out", str(tmp_path)]) == 1
    _, err = capsys.readouterr()
    assert err.endswith(
        f"eighteen simulate: error: {tmp_path / 'report.html'}: is a folder, not a file\n"
    )
    assert (tmp_path / "summary.json").read_text() == "old summary"
    assert leftovers(tmp_path) == []


# -- --no-report and a report of an earlier run ----------------------------------------------


def test_no_report_removes_the_report_of_an_earlier_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main([*QUICK, "--out", str(tmp_path)]) == 0
    assert written_report(tmp_path / "report.html")
    capsys.readouterr()
    assert main([*QUICK, "--out", str(tmp_path), "--no-report"]) == 0
    _, err = capsys.readouterr()
    assert err.endswith(
        f"wrote summary.json to {tmp_path}; removed the report.html of an earlier run there\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["summary.json"]


def test_no_report_leaves_a_file_it_did_not_write(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "report.html").write_text("<html><title>my notes</title></html>")
    assert main([*QUICK, "--out", str(tmp_path), "--no-report"]) == 0
    _, err = capsys.readouterr()
    assert (
        f"eighteen simulate: warning: {tmp_path / 'report.html'} is not this run's report and "
        "was left as it is (simulate removes only a report file it wrote)\n"
    ) in err
    assert err.endswith(f"wrote summary.json to {tmp_path}\n")
    assert (tmp_path / "report.html").read_text() == "<html><title>my notes</title></html>"


def test_a_report_is_recognised_by_its_mark_and_not_through_a_link(tmp_path: Path) -> None:
    old = tmp_path / "old.html"  # (a report written before the <meta> mark: its <title>)
    old.write_text(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>eighteen simulate: 1830</title>\n"
    )
    assert written_report(old)
    link = tmp_path / "report.html"
    link.symlink_to(old)
    assert not written_report(link)
    assert not written_report(tmp_path / "missing.html")
    assert not written_report(tmp_path)
