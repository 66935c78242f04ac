"""Headless Chromium for the HTML report tests, driven through the DevTools protocol.

`chromium_or_skip()` finds Chromium or Chrome (as docs/make_images.py does), or skips the test
saying how to install one: the suite never installs anything. `Page` opens a file in a fresh
headless browser and records what a reader would see go wrong: console errors, uncaught
exceptions, log errors (a blocked resource, a violated content security policy) and every
request that is not to the file itself or a data URI.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import DOCS, load_module

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync")
"""What Chromium needs here (a container, no display, no network of its own)."""


def chromium_or_skip() -> str:
    """The browser's executable (docs/make_images.py's search: KAKURO_BROWSER, else Chromium or
    Chrome on the PATH), or the test skips saying how to get one. Nothing is ever installed: the
    suite changes nothing outside its temporary folders."""
    images = load_module(DOCS / "make_images.py")
    try:
        found: str | None = images.find_browser(None)
    except images.Failure as exc:
        pytest.skip(f"{exc}; unset KAKURO_BROWSER to use one on the PATH")
    if found is None:
        pytest.skip(f"no headless browser found (looked for {', '.join(images.BROWSERS)} on the PATH, or "
                    f"KAKURO_BROWSER); to run this test, install one ({images.INSTALL})")
    return found


class Page:
    """A headless Chromium showing one file. Use as a context manager."""

    def __init__(self, executable: str, path: Path) -> None:
        self.url = path.resolve().as_uri()
        self.problems: list[str] = []
        """Console errors, exceptions, log errors, outside requests: what should not happen."""
        # its helpers may still write there for a moment after the kill: a leftover is no failure
        self._profile = tempfile.TemporaryDirectory(prefix="kakuro-chromium-", ignore_cleanup_errors=True)
        self._process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self._profile.name}", "--remote-debugging-port=0",
             "--window-size=1280,900", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
        )
        self._loop = asyncio.new_event_loop()
        self._socket: Any = None
        self._next = 0

    def __enter__(self) -> Page:
        try:
            port = self._port()
            self._loop.run_until_complete(self._open(port))
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._socket is not None:
            self._socket.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._process.pid, signal.SIGKILL)  # chromium and the helpers it started
        self._process.wait(timeout=30)
        if self._process.stderr is not None:
            self._process.stderr.close()
        self._loop.close()
        self._profile.cleanup()

    def _port(self) -> int:
        assert self._process.stderr is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self._process.stderr.readline()
            if not line and self._process.poll() is not None:
                raise RuntimeError(f"chromium exited with code {self._process.returncode}")
            match = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if match:
                return int(match.group(1))
        raise RuntimeError("chromium did not open its DevTools port within 60 s")

    async def _open(self, port: int) -> None:
        from tornado.websocket import websocket_connect

        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as answer:
            targets = json.load(answer)
        page = next(t for t in targets if t.get("type") == "page")
        self._socket = await websocket_connect(page["webSocketDebuggerUrl"], max_message_size=1 << 28)
        for domain in ("Page", "Runtime", "Log", "Network"):
            await self._call(f"{domain}.enable")
        await self._call("Page.navigate", url=self.url)
        await self._until("Page.loadEventFired")

    async def _call(self, method: str, **params: Any) -> dict[str, Any]:
        self._next += 1
        number = self._next
        await self._socket.write_message(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = await self._receive()
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    async def _until(self, event: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = await asyncio.wait_for(self._receive(), timeout=max(0.1, deadline - time.monotonic()))
            if message.get("method") == event:
                return
        raise TimeoutError(event)

    async def _receive(self) -> dict[str, Any]:
        text = await self._socket.read_message()
        if text is None:
            raise RuntimeError("the DevTools connection closed")
        message = json.loads(text)
        self._note(message.get("method"), message.get("params", {}))
        return message

    def _note(self, method: str | None, params: dict[str, Any]) -> None:
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.problems.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.problems.append("exception: " + str(details.get("exception", {}).get("description", details.get("text"))))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            self.problems.append("log: " + params["entry"].get("text", ""))
        elif method == "Network.requestWillBeSent":
            url = params.get("request", {}).get("url", "")
            if url != self.url and not url.startswith("data:"):
                self.problems.append("request: " + url)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self._loop.run_until_complete(self._call("Runtime.evaluate", expression=expression,
                                                          returnByValue=True, awaitPromise=True))
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def click(self, selector: str) -> None:
        """A real mouse click (pressed and released) in the middle of the element."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); e.scrollIntoView({{block: 'center'}});"
            " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        for kind in ("mousePressed", "mouseReleased"):
            self._loop.run_until_complete(self._call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1],
                                                     button="left", clickCount=1))
        with contextlib.suppress(TimeoutError, asyncio.TimeoutError):  # collect what the click caused
            self._loop.run_until_complete(self._until("Never.happens", timeout=0.3))
