"""The shared progress callback of the command line (dkw_core/cli/options.py)."""
from __future__ import annotations

from dkw_core.cli.options import ProgressBar
from dkw_core.types import describe_time_left, time_left


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_in_a_pipe_a_plain_line_is_printed_every_ten_seconds_with_the_time_left(capsys):
    """stderr is not a terminal here (captured): no bar, but one line whenever 10 s have passed
    since the start or the last line, never more often (a command done within 10 s prints none)."""
    clock = Clock()
    with ProgressBar("preparing 20ng", clock=clock) as progress:
        for second in range(0, 61):  # a call every second, 1 % of the work each
            clock.now = 1000.0 + second
            progress(second / 100, f"tagged {second}/100 documents")
            if second == 9:
                assert capsys.readouterr().err == ""  # nothing in the first 10 s
    lines = capsys.readouterr().err.strip().split("\n")
    assert len(lines) == 6  # seconds 10, 20, ..., 60
    assert lines[2] == "preparing 20ng: 30% tagged 30/100 documents, ~1 min left"
    assert lines[5] == "preparing 20ng: 60% tagged 60/100 documents, ~40 s left"
    assert all("\r" not in line and "|" not in line for line in lines)


def test_on_a_terminal_the_bar_shows_a_hostile_title_and_message_escaped(monkeypatch, capsys):
    """A corpus or file name in the bar's title reaches the terminal as visible escapes: ESC would
    clear the screen, OSC 8 plant a link."""
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with ProgressBar("preparing \x1b[2Jevil\x1b]8;;http://x\x07") as progress:
        progress(0.5, "tagged \x1b[31mred")
    err = capsys.readouterr().err
    assert "\x1b" not in err.replace("\x1b[A", "").replace("\x1b[K", "")  # tqdm's own cursor moves aside
    assert "\\x1b[2Jevil" in err and "\\x07" in err


def test_time_left_is_said_in_the_unit_a_reader_needs():
    assert time_left(30.0, 0.0) is None and describe_time_left(None) == ""
    assert describe_time_left(time_left(60.0, 0.25)) == "~3 min left"
    assert describe_time_left(3.0) == "~10 s left"
    assert describe_time_left(2 * 3600.0) == "~2.0 h left"


def test_a_written_report_keeps_its_lines_and_escapes_every_control_character(tmp_path, capsys):
    from dkw_core.cli.options import write_text

    report = "# run of \x1b]8;;https://evil.example\x07m\x1b]8;;\x07\n| method | F1 |\n| a\tb\u202e | 1 |\n"
    expected = "# run of \\x1b]8;;https://evil.example\\x07m\\x1b]8;;\\x07\n| method | F1 |\n| a\\tb\\u202e | 1 |\n"
    write_text(report, None)
    assert capsys.readouterr().out == expected
    write_text(report, str(tmp_path / "r.md"))
    assert (tmp_path / "r.md").read_text(encoding="utf-8") == expected
