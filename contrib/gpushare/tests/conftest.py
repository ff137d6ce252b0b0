"""Makes `gpushare_testlib` (shared builders) importable by these tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
