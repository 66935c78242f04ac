"""What `kakuro.verify` is given that is no whole certificate (issue 40): a FIFO or a device is
refused at once, a file is streamed (memory does not grow with the proof), the time limit is
honoured, and numbers of any size, any Unicode, binary and truncated lines get one clear line,
never a traceback (a fuzzer)."""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kakuro
from kakuro.certificates import CertificateFormatError, Verdict, VerifyLimitError, certify, check, verify
from kakuro.certificates.document import END_LINE, MAGIC, PROOF_LINE
from kakuro.clock import Deadline
from kakuro.errors import KakuroError
from kakuro.isolation import call_with_deadline
from tests.test_certify import KINDS, certificate_of, lines_of, text_of, verify_text


@pytest.fixture
def alarm() -> Iterator[None]:
    """A test that would block raises TimeoutError after 10 s instead."""
    def ring(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError("blocked for 10 s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(10)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------- files that are not certificates
def test_a_fifo_is_refused_at_once(tmp_path: Path, alarm: None) -> None:
    """Fault injected: a named pipe with no writer (reading it would block for ever)."""
    fifo = tmp_path / "pipe.cert"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(CertificateFormatError, match=r"pipe\.cert: is a FIFO \(named pipe\), not a certificate file$"):
        verify(fifo)
    assert time.monotonic() - start < 5


def _verify_capped(path: str) -> str:
    """verify(path) in this (child) process with its address space capped at 2 GiB: the error's
    text, or what it returned."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    try:
        return str(verify(path))
    except KakuroError as exc:
        return str(exc)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused_at_once(device: str) -> None:
    """/dev/zero never ends: reading it whole ran out of memory (here in a child capped at 2 GiB)."""
    said = call_with_deadline(_verify_capped, device, deadline=Deadline.after(20))
    assert said == f"{device}: is a character device, not a certificate file"


@pytest.mark.parametrize(("damage", "words"), [
    ("missing", r"nothing\.cert: no such file$"),
    ("a folder", r"nothing\.cert: is a folder, not a certificate file$"),
    ("empty", r"nothing\.cert: empty file: not a certificate$"),
    ("a puzzle file", r"nothing\.cert:1:1: not a kakuro certificate .* \(at '#"),
    ("a byte-order mark", r"nothing\.cert:1:1: not a kakuro certificate"),
    ("binary", r"nothing\.cert:1:1: not a kakuro certificate"),
    ("a symlink to /dev/zero", r"nothing\.cert: is a character device, not a certificate file$"),
])
def test_a_file_that_is_no_certificate_is_one_line(damage: str, words: str, tmp_path: Path) -> None:
    path = tmp_path / "nothing.cert"
    if damage == "a folder":
        path.mkdir()
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "a puzzle file":
        path.write_text("#  3\\\n\\3 _\n")
    elif damage == "a byte-order mark":
        path.write_bytes(b"\xef\xbb\xbf" + certificate_of().encode())
    elif damage == "binary":
        path.write_bytes(bytes(range(256)) * 4)
    elif damage == "a symlink to /dev/zero":
        path.symlink_to("/dev/zero")
    with pytest.raises(CertificateFormatError, match=words):
        verify(path)


def test_a_truncated_file_names_its_last_line(tmp_path: Path) -> None:
    path = tmp_path / "cut.cert"
    lines = lines_of(certificate_of())
    path.write_text(text_of(lines[: len(lines) // 2]))
    with pytest.raises(CertificateFormatError, match=rf"cut\.cert:{len(lines) // 2}:1: .* truncated"):
        verify(path)


@pytest.mark.parametrize(("content", "where", "words"), ids=["version", "json", "deep", "claim", "format", "puzzle"],
                         argvalues=[
    ("c kakuro certificate {\"version\": 7}\n" + END_LINE + "\n", ":1", "version 7"),
    ("c kakuro certificate [1\n" + END_LINE + "\n", ":1:24", "not valid JSON"),
    ("c kakuro certificate " + "[" * 100_000 + "\n" + END_LINE + "\n", ":1", "not valid JSON: maximum recursion depth"),
    ("c kakuro certificate {\"version\":2,\"claim\":[]}\n" + END_LINE + "\n", ":1", "claim \\[\\] is not one of"),
    ("c kakuro certificate {\"version\":2,\"claim\":\"none\",\"puzzle\":{\"format\":\"dimacs\",\"text\":\"\"}}\n"
     + END_LINE + "\n", ":1", "puzzle format 'dimacs' is not one kakuro reads"),
    ("c kakuro certificate {\"version\":2,\"claim\":\"none\",\"puzzle\":{\"format\":\"jsonl\",\"text\":\"{\"}}\n"
     + END_LINE + "\n", ":1", "the header's puzzle cannot be read: not valid JSON"),
])
def test_text_that_is_no_certificate_is_refused_with_its_place(tmp_path: Path, content: str, where: str, words: str) -> None:
    path = tmp_path / "bad.cert"
    path.write_text(content)
    with pytest.raises(CertificateFormatError, match=rf"bad\.cert{where}: .*{words}"):
        verify(path)


def test_a_literal_that_is_no_number_names_line_and_column(tmp_path: Path) -> None:
    lines = lines_of(certificate_of())
    at = lines.index(PROOF_LINE) + 1
    lines[at] = "12 x3 0"
    (tmp_path / "f.cert").write_text(text_of(lines))
    with pytest.raises(CertificateFormatError, match=rf"f\.cert:{at + 1}:4: 'x3' is not a literal$"):
        verify(tmp_path / "f.cert")


def test_a_line_not_in_utf8_names_line_and_byte(tmp_path: Path) -> None:
    lines = [line.encode() for line in lines_of(certificate_of())]
    at = lines.index(PROOF_LINE.encode()) + 1
    lines[at] = b"12 \xff 0"
    (tmp_path / "f.cert").write_bytes(b"\n".join(lines) + b"\n")
    with pytest.raises(CertificateFormatError, match=rf"f\.cert:{at + 1}:4: not UTF-8 text \(byte 4 of the line\)$"):
        verify(tmp_path / "f.cert")


def test_a_header_longer_than_a_puzzle_file_is_refused_unread(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    """The header holds the puzzle, so it may be as long as a puzzle file (64 MiB): no more
    is read (the bound lowered to 1 KiB here)."""
    from kakuro.certificates import document

    monkeypatch.setattr(document, "MAX_HEADER_BYTES", 1024)
    lines = lines_of(certificate_of())
    with pytest.raises(CertificateFormatError, match=r"f\.cert:1:1025: the line is longer than 1,024 bytes"):
        (tmp_path / "f.cert").write_text(text_of([lines[0] + " " * 2000, *lines[1:]]))
        verify(tmp_path / "f.cert")


# --------------------------------------------------------------------- a time limit, and memory that does not grow
def _slow_encoding(*args: Any, **kwargs: Any) -> Any:
    time.sleep(60)
    raise AssertionError("not stopped")


@pytest.mark.timed
def test_the_time_limit_stops_a_check_within_a_second(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    """Fault injected: an encoding that takes a minute (the check runs in a child, stopped at
    the limit)."""
    monkeypatch.setattr(check, "encode", _slow_encoding)
    start = time.monotonic()
    with pytest.raises(VerifyLimitError, match=r"^not verified within 1 s \(the check was stopped\)$"):
        verify_text(certificate_of(), tmp_path, time_limit=1)
    assert time.monotonic() - start < 2.5


def test_a_check_within_its_time_limit_is_the_same(tmp_path: Path) -> None:
    slow, fast = verify_text(certificate_of(), tmp_path, time_limit=60), verify_text(certificate_of(), tmp_path)
    assert (slow.ok, slow.claim, slow.checkers) == (fast.ok, fast.claim, fast.checkers)
    tampered = certificate_of().replace('"count":"exactly 1"', '"count":"exactly 2"')
    assert verify_text(tampered, tmp_path, time_limit=60).reason == verify_text(tampered, tmp_path).reason


def _padded(text: str, steps: int) -> str:
    """`text` with `steps` deletions of a clause it does not hold (checked, and ignored) before
    its proof's first step: about 8 bytes each."""
    lines = lines_of(text)
    at = lines.index(PROOF_LINE) + 1
    return text_of(lines[:at]) + "d 1 2 0\n" * steps + text_of(lines[at:])


def _peak_memory(path: str, checkers: list[str] | None) -> tuple[int, str]:
    """(the peak resident memory of this process in KiB after verify(path), its verdict's
    checkers), in a child forked for it."""
    verdict = verify(path, checkers=checkers)
    assert verdict.ok, verdict
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, ",".join(verdict.checkers)


def test_a_long_proof_is_streamed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A proof of 600,000 more steps (5 MB more) takes no more memory to check: the lines are
    read one at a time and given to the checker as they come (loading the file took 100 MB
    more). The native checker takes a proof whole, so it is left out above NATIVE_MAX_BYTES
    (lowered to 1 MB here) unless asked for."""
    monkeypatch.setattr(check, "NATIVE_MAX_BYTES", 1 << 20)
    text = certify(KINDS["killer, none"][0]).dumps()
    (tmp_path / "short.cert").write_text(text)
    (tmp_path / "long.cert").write_text(_padded(text, 600_000))
    deadline = Deadline.after(120)
    short, _ = call_with_deadline(_peak_memory, str(tmp_path / "short.cert"), ["dratify-python"], deadline=deadline)
    long, checkers = call_with_deadline(_peak_memory, str(tmp_path / "long.cert"), None, deadline=deadline)
    assert checkers == "dratify-python"
    assert long - short < 12 * 1024, f"{(long - short) / 1024:.0f} MiB more for a proof 5 MB longer"
    with pytest.raises(KakuroError, match="dratify-native takes a proof whole, and the certificate is"):
        verify(tmp_path / "long.cert", checkers=["dratify-native"])


# --------------------------------------------------------------------- the fuzzer
@cache
def _originals() -> tuple[bytes, ...]:
    """Small certificates of each claim: a 2x2 Kakuro with one solution, a Killer with none,
    a Kakuro with two."""
    tiny = kakuro.read("#   3\\  4\\\n\\3  _   _\n\\4  _   _\n")[0]
    two = kakuro.read("#   3\\  3\\\n\\3  _   _\n\\3  _   _\n")[0]
    return tuple(certify(p).dumps().encode() for p in (tiny, KINDS["killer, none"][0], two))


NUMBERS = st.one_of(
    st.integers().map(str),
    st.tuples(st.sampled_from(["", "-", "+", "0"]), st.integers(1, 9),
              st.one_of(st.integers(1, 6000), st.sampled_from([19, 20, 4300, 4301, 5000, 6000]))).map(
        lambda t: t[0] + str(t[1]) * t[2]),  # up to 6,000 digits (Python refuses to convert past 4,300)
    st.sampled_from(["0", "-0", str(2**31), str(2**63), "1e999", "NaN", "-1.5", "\u0661\u0662"]))
TEXT = st.text(st.one_of(st.characters(), st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)), max_size=60)
TOKEN = re.compile(rb"-?[0-9]+")


@st.composite
def _mutated(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """(an original certificate, a copy with one of its lines changed or the file cut)."""
    original = draw(st.sampled_from(_originals()))
    lines = original.split(b"\n")[:-1]
    at = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["number", "text", "binary", "cut line", "cut file", "a number for a number",
                                "text inserted", "the puzzle's text"]))
    line = lines[at]
    if how == "cut file":
        return original, original[:draw(st.integers(0, len(original) - 1))]
    if how == "the puzzle's text":  # any text (a lone surrogate, a newline...) inside the header's puzzle
        header = json.loads(lines[0].removeprefix(MAGIC.encode()))
        puzzle = header["puzzle"]["text"]
        cut = draw(st.integers(0, len(puzzle)))
        header["puzzle"]["text"] = puzzle[:cut] + draw(TEXT) + puzzle[cut + draw(st.integers(0, 3)):]
        at, line = 0, MAGIC.encode() + json.dumps(header, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    elif how == "text inserted":
        cut = draw(st.integers(0, len(line)))
        line = line[:cut] + draw(TEXT).encode("utf-8", "surrogatepass") + line[cut:]
    elif how == "number":
        line = draw(NUMBERS).encode()
    elif how == "text":
        line = draw(TEXT).encode("utf-8", "surrogatepass")
    elif how == "binary":
        line = draw(st.binary(max_size=60))
    elif how == "cut line":
        line = line[:draw(st.integers(0, max(0, len(line) - 1)))]
    else:
        numbers = list(TOKEN.finditer(line))
        if numbers:
            hit = draw(st.sampled_from(numbers))
            line = line[:hit.start()] + draw(NUMBERS).encode() + line[hit.end():]
    return original, b"\n".join([*lines[:at], line, *lines[at + 1:]]) + b"\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=250, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(case=_mutated())
def test_fuzzed_certificates_give_one_line_and_are_never_falsely_accepted(case: tuple[bytes, bytes], folder: Path) -> None:
    original, changed = case
    try:
        verdict: Verdict = verify_text(changed, folder)
    except KakuroError as exc:  # CertificateFormatError above all
        assert "\n" not in str(exc) and str(exc).startswith(str(folder)), exc
        return
    if verdict.ok:  # only a proof step may have changed into another valid one: the claim is still the original's
        kept = original.split(PROOF_LINE.encode())[0]
        assert changed.startswith(kept) and changed.rstrip(b"\n").count(b"\n") == original.rstrip(b"\n").count(b"\n"), \
            "a changed certificate was accepted"
    else:
        assert "\n" not in verdict.reason
