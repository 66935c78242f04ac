"""The kakuro test suite (a package, so `tests.*` never resolves to a stray installed `tests`)."""
