"""Keep only the chosen licence: move it to LICENSE and drop the others.

Cookiecutter runs this script inside the generated project after writing it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

LICENSE = "{{ cookiecutter.license }}"

if __name__ == "__main__":
    licenses = Path("licenses")
    (licenses / f"{LICENSE}.txt").replace("LICENSE")
    shutil.rmtree(licenses)
