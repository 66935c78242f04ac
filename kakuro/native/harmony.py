"""Self-Adaptive Harmony Search's compiled kernels (`kakuro.engine.harmony`), for the backend
`sahs`: the generator's seed, a memory initialised, a chunk of improvisations, a vector decoded."""

from __future__ import annotations

from kakuro.engine.harmony import decode, improvise, initialise, seed_generator

__all__ = ["decode", "improvise", "initialise", "seed_generator"]
