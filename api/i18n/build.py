"""The build step that compiles the catalogues: ``build_py`` plus ``.po`` → ``.mo``.

Configured in ``pyproject.toml`` (``[tool.setuptools.cmdclass]``), so building a wheel or
installing (``pip install .``) compiles every catalogue into the package it builds, and an
editable install (``pip install -e .``) compiles them next to their ``.po`` files in the checkout.
setuptools loads this file by its path, before the package can be imported: it may import only
setuptools, Babel and :mod:`api.i18n.compiling` (loaded the same way).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
LOCALE_DIR = HERE / "locale"
PACKAGE_PATH = Path("api", "i18n", "locale")


def _compiling() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_tafelrunde_compiling", HERE / "compiling.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithCatalogues(build_py):
    """``build_py`` that also compiles ``api/i18n/locale/*/LC_MESSAGES/messages.po``."""

    def run(self) -> None:
        super().run()
        editable = getattr(self, "editable_mode", False)
        target = LOCALE_DIR if editable else Path(self.build_lib) / PACKAGE_PATH
        for written in _compiling().compile_tree(LOCALE_DIR, target):
            self.announce(f"compiled {written}", level=2)
