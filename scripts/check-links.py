#!/usr/bin/env python3
"""Checks that every internal link and image of a built mdBook resolves.

Walks every HTML page under the book directory (default docs/book), and for
each href, src and data attribute that is not external: the file it names
must exist, and a #fragment must be an id (or a name) in the target page.
Prints every broken reference and exits 1 if there is one. Standard library only.
"""

import os
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    """The references and the ids of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.refs = []
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.ids.add(value)
            if (tag, name) in (("a", "href"), ("link", "href"), ("img", "src"), ("script", "src"),
                               ("object", "data"), ("source", "src"), ("iframe", "src")):
                self.refs.append((tag, value))


def parse(path, cache):
    if path not in cache:
        page = Page()
        with open(path, encoding="utf-8", errors="replace") as f:
            page.feed(f.read())
        cache[path] = page
    return cache[path]


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "docs/book")
    if not os.path.isdir(root):
        print(f"check-links: {root} is not a directory (build the book first)")
        return 1
    cache = {}
    broken = []
    pages = 0
    refs = 0
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            # 404.html is served from the site root and uses absolute links.
            if not name.endswith(".html") or name == "404.html":
                continue
            page_path = os.path.join(folder, name)
            pages += 1
            for tag, ref in parse(page_path, cache).refs:
                parts = urlsplit(ref)
                if parts.scheme or ref.startswith("//") or ref.startswith("mailto:") or ref.startswith("javascript:"):
                    continue
                refs += 1
                target = page_path
                if parts.path:
                    target = os.path.normpath(os.path.join(folder, unquote(parts.path)))
                    if not target.startswith(root):
                        broken.append((page_path, ref, "points outside the book"))
                        continue
                    if os.path.isdir(target):
                        target = os.path.join(target, "index.html")
                    if not os.path.isfile(target):
                        broken.append((page_path, ref, f"{tag}: no such file"))
                        continue
                if parts.fragment and target.endswith(".html"):
                    if unquote(parts.fragment) not in parse(target, cache).ids:
                        broken.append((page_path, ref, "no such anchor"))
    for page, ref, why in broken:
        print(f"{os.path.relpath(page, root)}: {ref}: {why}")
    print(f"check-links: {pages} pages, {refs} internal references, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
