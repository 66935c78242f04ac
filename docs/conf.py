"""Sphinx configuration of the kakuro documentation (furo theme, MyST Markdown pages).

Build: python -m sphinx -W --keep-going -b html docs docs/_build/html
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # the tree being documented, before any installed copy
sys.path.insert(0, str(DOCS / "_ext"))

import kakuro  # noqa: E402  (the tree beside docs/, first on sys.path)

project = "kakuro"
author = "the kakuro authors"
copyright = "the kakuro authors"
release = kakuro.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "kakuro_docs",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# The docstrings write code in single backquotes (Markdown style): show it as code.
default_role = "code"

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_class_signature = "separated"
autodoc_preserve_defaults = True
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = f"kakuro {release}"
html_static_path: list[str] = []
