#!/usr/bin/env python3
"""Drives the guide's layout explorer (docs/book/explorer.html) in headless
Chromium and checks it against the cktile CLI.

Run by scripts/explorer-test.sh (which installs Chromium, its driver and
selenium, and builds what is missing). Serves docs/book with
`python3 -m http.server` on 127.0.0.1 for the run only, then:

- for every catalogue entry (14): picks its preset, switches the chip, the
  pattern and the instruction with the selectors, and checks that every
  number of the page's report equals `cktile analyze --json` for the same
  inputs, and that the grid and heat-map cells (their data-* attributes)
  equal `cktile render --view grid|banks`;
- types a spec into the editor, checks the numbers and the heat map's text;
- types a broken spec and checks the underline and line:column the CLI gives;
- gives a CK tile distribution and checks the numbers and the owner grid;
- checks that a broken spec's report points at the problems;
- checks that a 64-column grid and a 64-bank heat map fit their boxes
  (screenshots in target/explorer-shots, or EXPLORER_SHOTS);
- reloads the page from its URL fragment and checks the same state comes back;
- opens the page from file:// and checks it says how to serve the book.

Usage: explorer-test.py CKTILE_BINARY [BOOK_DIR]
"""

import json
import os
import re
import socket
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

CKTILE = sys.argv[1]
BOOK = sys.argv[2] if len(sys.argv) > 2 else "docs/book"

# (catalogue entry, chip, pattern, instruction or "" for the pattern's default)
CASES = [
    ("ck-universal-a", "gfx942", "mfma16", ""),
    ("ck-xor-lds", "gfx942", "mfma32", "ds_read_b128"),
    ("ck-xor-preshuffle", "sm80", "columns", "ld.shared.b32"),
    ("ck-kfold-mpair", "gfx950", "mfma16", ""),
    ("ck-v1-padded", "gfx90a", "rows", "ds_write_b128"),
    ("ck-fmha-v", "gfx942", "rows", "ds_read_b64"),
    ("cute-swizzle", "sm90", "rows", "ld.shared.b128"),
    ("cute-gmma", "sm90", "rows", "st.shared.b128"),
    ("cute-tma", "sm80", "columns", "ld.shared.b32"),
    ("triton-swizzled", "gfx942", "mfma16", ""),
    ("triton-nvmma", "sm90", "ldmatrix", ""),
    ("triton-rotating", "gfx942", "mfma16", "ds_read_b64"),
    ("row-padded", "gfx1100", "rows", "ds_read_b128"),
    ("xor-linear", "gfx950-b32x64", "mfma32", ""),
]

# The report's keys, as `cktile analyze --json` names them.
NUMBERS = ["cycles", "conflict_cycles", "bank_conflict_rate_pct", "max_ways", "instructions",
           "conflicted_instructions", "worst_instruction", "phases", "theoretical_bytes",
           "element_bytes", "element_space_size"]

GRID_CELL = re.compile(r'data-row="(\d+)" data-col="(\d+)" data-offset="(-?\d+)" data-bank="(\d*)"')
HEAT_CELL = re.compile(r'data-phase="(\d+)" data-bank="(\d+)" data-ways="(\d+)"')


def cli(*args):
    out = subprocess.run([CKTILE, *args], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise AssertionError(f"cktile {' '.join(args)} failed: {out.stderr}")
    return out.stdout


def cli_args(spec, dtype, arch, pattern, op):
    a = [spec, "--arch", arch, "--pattern", pattern]
    if op:
        a += ["--op", op]
    if dtype:
        a += ["--dtype", dtype]
    return a


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Page:
    def __init__(self, driver, url):
        self.d = driver
        self.url = url

    def open(self, fragment=""):
        self.d.get(self.url + fragment)
        WebDriverWait(self.d, 60).until(lambda d: d.execute_script("return window.explorerReady === true"))
        state = self.d.find_element(By.ID, "explorer").get_attribute("data-state")
        assert state in ("ok", "problems"), f"the explorer did not start: {state}"

    def updates(self):
        return int(self.d.find_element(By.ID, "explorer").get_attribute("data-updates") or "0")

    def settle(self, before):
        """Waits until the page has recomputed since it had `before` updates, with no change pending."""
        WebDriverWait(self.d, 30).until(lambda d: self.updates() > before and d.find_element(
            By.ID, "explorer").get_attribute("data-pending") == "0")

    def select(self, field, value):
        element = self.d.find_element(By.ID, "ex-" + field)
        if element.get_attribute("value") == value:
            return
        before = self.updates()
        Select(element).select_by_value(value)
        self.settle(before)

    def type_spec(self, text):
        box = self.d.find_element(By.ID, "ex-spec")
        before = self.updates()
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(Keys.DELETE)
        box.send_keys(text)
        self.settle(before)

    def type_field(self, field, text):
        box = self.d.find_element(By.ID, "ex-" + field)
        before = self.updates()
        box.clear()
        box.send_keys(text)
        self.settle(before)

    def report(self):
        cells = self.d.find_elements(By.CSS_SELECTOR, "#ex-report td[data-key]")
        return {c.get_attribute("data-key"): c.text for c in cells}

    def problems(self):
        return [p.text for p in self.d.find_elements(By.CSS_SELECTOR, "#ex-problems .ex-problem")]

    def cells(self, view, pattern):
        html = self.d.execute_script(f"return document.getElementById('{view}').innerHTML")
        return html, sorted(pattern.findall(html))


def same_numbers(page, cli_json, what):
    for key in NUMBERS:
        assert key in page, f"{what}: the page shows no {key} (it shows {sorted(page)})"
        assert float(page[key]) == float(cli_json[key]), \
            f"{what}: {key} is {page[key]} on the page, {cli_json[key]} from cktile analyze"
    assert page["op"] == cli_json["op"], f"{what}: instruction {page['op']} vs {cli_json['op']}"


def catalogue_cases(page):
    typed = {e["name"]: e for e in json.loads(cli("catalogue", "--json"))}
    assert len(CASES) == len(typed), "one case per catalogue entry"
    for entry, arch, pattern, op in CASES:
        page.select("preset", "c:" + entry)
        page.select("arch", arch)
        page.select("pattern", pattern)
        page.select("op", op)
        what = f"{entry} on {arch}, {pattern} {op}"
        assert not page.problems(), f"{what}: {page.problems()}"
        spec = page.d.find_element(By.ID, "ex-spec").get_attribute("value")
        assert spec == typed[entry]["example"], f"{what}: the preset put {spec!r} in the editor"
        dtype = page.d.find_element(By.ID, "ex-dtype").get_attribute("value")
        expected = json.loads(cli("analyze", *cli_args(spec, dtype, arch, pattern, op), "--json"))
        same_numbers(page.report(), expected, what)
        # The pictures: the same cells as `cktile render`.
        extra = ["--dtype", dtype] if dtype else []
        grid_svg = cli("render", spec, "--view", "grid", "--arch", arch, "--rows", "32", *extra,
                       *(["--op", op] if op else []))
        _, grid = page.cells("ex-grid", GRID_CELL)
        assert grid and grid == sorted(GRID_CELL.findall(grid_svg)), f"{what}: the grid's cells differ"
        heat_svg = cli("render", spec, "--view", "banks", *cli_args(spec, dtype, arch, pattern, op)[1:])
        _, heat = page.cells("ex-banks", HEAT_CELL)
        assert heat and heat == sorted(HEAT_CELL.findall(heat_svg)), f"{what}: the heat map's cells differ"
        print(f"ok  {what}: {expected['cycles']} cycles, {expected['conflict_cycles']} conflict cycles, "
              f"{expected['max_ways']}-way, {len(grid)} grid cells, {len(heat)} heat-map cells")


def typed_spec(page):
    page.type_spec("packed((16,64))")
    page.select("dtype", "fp16")
    page.select("arch", "sm90")
    page.select("pattern", "ldmatrix")
    page.select("op", "")
    expected = json.loads(cli("analyze", "packed((16,64))", "--dtype", "fp16", "--arch", "sm90",
                              "--pattern", "ldmatrix", "--json"))
    same_numbers(page.report(), expected, "typed packed((16,64))")
    assert expected["max_ways"] == 8, expected["max_ways"]
    html, heat = page.cells("ex-banks", HEAT_CELL)
    assert "ldmatrix pattern, worst instruction 0 of 4" in html, "the heat map's title"
    assert "8-way" in html and html.count('class="lane conflict"') > 0, "the heat map shows the conflicts"
    _, grid = page.cells("ex-grid", GRID_CELL)
    assert len(grid) == 16 * 64 and ("15", "63", "1023", "31") in grid, "the grid covers the 16x64 tile"
    # Switch chip and pattern: the numbers follow.
    page.select("arch", "gfx942")
    page.select("pattern", "mfma16")
    expected = json.loads(cli("analyze", "packed((16,64))", "--dtype", "fp16", "--arch", "gfx942",
                              "--pattern", "mfma16", "--json"))
    same_numbers(page.report(), expected, "typed packed((16,64)) on gfx942 mfma16")
    print(f"ok  typed spec: sm90 ldmatrix 8-way, gfx942 mfma16 {expected['max_ways']}-way")


def broken_spec(page):
    text = "naive((4,8),(8,1))\n| transform(merge((4,9)) on [0,1] -> [0])"
    page.type_spec(text)
    problems = page.problems()
    assert problems and problems[0].startswith("spec (line 2, column 13): merge:"), problems
    run = subprocess.run([CKTILE, "check", text], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--> 2:13" in run.stderr, run.stderr
    mark = page.d.find_element(By.CSS_SELECTOR, "#ex-backdrop mark.ex-error")
    assert mark.get_attribute("textContent") == "m", mark.get_attribute("textContent")
    assert page.d.find_element(By.ID, "explorer").get_attribute("data-state") == "problems"
    report = page.d.find_element(By.ID, "ex-report").text
    assert report == "No report: see the problems above.", report
    print("ok  broken spec: underlined at 2:13, as the CLI says; the report points at the problem")


def fits(page, shots):
    """A 64-bank heat map and a 64-column grid fit their boxes: no box scrolls sideways and no
    picture is wider than its box. Screenshots of both are written to `shots`."""
    page.type_spec("packed((128,64))")
    before = page.updates()
    page.d.execute_script("const e = document.getElementById('ex-distribution');"
                          "e.value = ''; e.dispatchEvent(new Event('input'));")
    page.settle(before)
    page.select("dtype", "fp16")
    page.select("arch", "gfx950")
    page.select("pattern", "mfma16")
    page.type_field("cols", "64")
    assert "mfma16 pattern" in page.d.find_element(By.ID, "ex-banks").get_attribute("innerHTML"), "the mfma16 heat map"
    os.makedirs(shots, exist_ok=True)
    for view in ("ex-grid", "ex-banks"):
        box = page.d.find_element(By.ID, view)
        sizes = page.d.execute_script(
            "const b = arguments[0], s = b.querySelector('svg');"
            "return [b.scrollWidth, b.clientWidth, s ? s.getBoundingClientRect().width : -1,"
            " b.getBoundingClientRect().width];", box)
        scroll, client, picture, width = sizes
        assert picture > 0, f"{view}: no picture"
        assert scroll <= client + 1 and picture <= width + 1, f"{view} overflows its box: {sizes}"
        box.screenshot(os.path.join(shots, f"{view}.png"))
    banks = page.d.execute_script("return document.querySelector('#ex-banks svg').getAttribute('viewBox')")
    print(f"ok  a 64-column grid and the 64-bank heat map (viewBox {banks}) fit their boxes; screenshots in {shots}")


def file_page(driver):
    """Opened from file://, the explorer says it needs a web server (browsers load no WebAssembly there)."""
    driver.get("file://" + os.path.abspath(os.path.join(BOOK, "explorer.html")))
    status = driver.find_element(By.ID, "ex-status").text
    assert "needs a web server" in status and "http.server" in status, status
    print("ok  from file://, the page says how to serve it")


def distribution(page):
    read_a = ("tile_distribution_encoding<sequence<>, tuple<sequence<8, 16>, sequence<1, 4, 8>>, "
              "tuple<sequence<2, 1>>, tuple<sequence<1, 1>>, sequence<1, 2, 2>, sequence<0, 0, 2>>")
    page.type_spec("ck-universal-a:m=128,k=32")
    page.select("dtype", "")
    page.select("arch", "gfx950")
    page.select("op", "ds_read_b128")
    page.type_field("distribution", read_a)
    assert not page.problems(), page.problems()
    expected = json.loads(cli("analyze", "ck-universal-a:m=128,k=32", "--arch", "gfx950",
                              "--distribution", read_a, "--op", "ds_read_b128", "--json"))
    same_numbers(page.report(), expected, "distribution on ck-universal-a, gfx950")
    html, _ = page.cells("ex-owners", HEAT_CELL)
    assert 'data-lane="21"' in html and 'data-p=' in html, "the owner grid is drawn"
    # The heat map of the window's worst instruction: the cells `cktile render` draws.
    heat_svg = cli("render", "ck-universal-a:m=128,k=32", "--view", "banks", "--arch", "gfx950",
                   "--distribution", read_a, "--op", "ds_read_b128")
    _, heat = page.cells("ex-banks", HEAT_CELL)
    assert heat and heat == sorted(HEAT_CELL.findall(heat_svg)), "the distribution's heat map cells differ"
    shown = json.loads(cli("distribution", read_a, "--json"))
    check = page.d.find_element(By.ID, "ex-check").text
    assert f"distribution: {shown['encoding']}" in check, check
    assert shown["coverage"]["summary"] in check, check
    print(f"ok  distribution: {expected['instructions']} instructions, {expected['cycles']} cycles")


def fragment(page):
    page.select("preset", "c:row-padded")
    page.select("arch", "sm80")
    page.select("pattern", "columns")
    page.select("op", "ld.shared.b32")
    page.select("dtype", "fp32")
    shown = page.report()
    url = page.d.current_url
    assert "#" in url and "arch=sm80" in url, url
    page.d.get("about:blank")
    page.open(url[url.index("#"):])
    assert page.report() == shown, (page.report(), shown)
    assert page.d.find_element(By.ID, "ex-spec").get_attribute("value") == "row-padded:rows=128,cols=64,pad=8"
    print("ok  the URL fragment brings the same state back")


def main():
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", BOOK], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    driver = None
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        options = Options()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,2000", "--no-first-run", "--disable-background-networking"):
            options.add_argument(flag)
        service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        driver = webdriver.Chrome(options=options, service=service)
        driver.set_page_load_timeout(60)
        page = Page(driver, f"http://127.0.0.1:{port}/explorer.html")
        page.open()
        catalogue_cases(page)
        typed_spec(page)
        broken_spec(page)
        distribution(page)
        fits(page, os.environ.get("EXPLORER_SHOTS", "target/explorer-shots"))
        fragment(page)
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, f"the browser console has errors: {errors}"
        # Last: a file:// page's failed module load is a console error by design.
        file_page(driver)
        print("explorer-test: all checks passed")
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
