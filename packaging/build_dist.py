"""Build the standalone one-folder bundle with PyInstaller (``make dist``) and say which platform it is for.

Linux: ``dist/cardtable/cardtable``, plus ``share/applications/cardtable.desktop``, the icon in every hicolor size
under ``share/icons/hicolor/<N>x<N>/apps/`` and ``install.sh`` (a per-user install). Windows:
``dist/cardtable/cardtable.exe``. macOS: ``dist/cardtable.app`` (and the folder ``dist/cardtable``).
A bundle runs only on the operating system and CPU architecture it was built on.
"""

from __future__ import annotations

import platform
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
BUNDLE = DIST / "cardtable"
sys.path.insert(0, str(ROOT))
from app.resources import ICON_SIZES  # noqa: E402


def add_linux_desktop_files(bundle: Path) -> None:
    """The .desktop entry, the hicolor icons and the per-user install script, inside the bundle."""
    apps = bundle / "share" / "applications"
    apps.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "packaging" / "cardtable.desktop", apps / "cardtable.desktop")
    for size in ICON_SIZES:
        target = bundle / "share" / "icons" / "hicolor" / f"{size}x{size}" / "apps"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / "assets" / "icons" / f"cardtable-{size}.png", target / "cardtable.png")
    shutil.copy2(ROOT / "packaging" / "install.sh", bundle / "install.sh")
    (bundle / "install.sh").chmod(0o755)


def main() -> int:
    import PyInstaller.__main__

    shutil.rmtree(BUNDLE, ignore_errors=True)
    PyInstaller.__main__.run([
        "--noconfirm", "--clean", "--log-level", "WARN",
        "--distpath", str(DIST), "--workpath", str(ROOT / "build" / "pyinstaller"),
        str(ROOT / "packaging" / "cardtable.spec"),
    ])
    if sys.platform.startswith("linux"):
        add_linux_desktop_files(BUNDLE)
    executable = BUNDLE / ("cardtable.exe" if sys.platform == "win32" else "cardtable")
    if not executable.is_file():
        print(f"make dist: PyInstaller did not produce {executable}", file=sys.stderr)
        return 1
    size_mb = sum(f.lstat().st_size for f in BUNDLE.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6
    print(f"make dist: built {executable.relative_to(ROOT)} ({size_mb:.0f} MB) for {platform.system()} "
          f"{platform.machine()} (Python {platform.python_version()}); it runs only there. "
          f"Check it with: {executable.relative_to(ROOT)} --selftest")
    return 0


if __name__ == "__main__":
    sys.exit(main())
