#!/bin/sh
# Install this cardtable bundle for the current user (no root needed): the program in ~/.local/opt/cardtable,
# the command ~/.local/bin/cardtable, the menu entry and its icons under ~/.local/share.
# Remove it again with: sh ~/.local/opt/cardtable/install.sh --uninstall
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
opt=$HOME/.local/opt/cardtable
if [ "${1:-}" = "--uninstall" ]; then
    rm -f "$HOME/.local/bin/cardtable" "$data/applications/cardtable.desktop"
    find "$data/icons/hicolor" -path '*/apps/cardtable.png' -delete 2>/dev/null || true
    rm -rf "$opt"
    echo "cardtable removed (your games and settings stay in your user data folders)"
    exit 0
fi
mkdir -p "$HOME/.local/opt" "$HOME/.local/bin" "$data/applications"
if [ "$here" != "$opt" ]; then
    rm -rf "$opt"
    cp -R "$here" "$opt"
fi
ln -sf "$opt/cardtable" "$HOME/.local/bin/cardtable"
cp -R "$opt/share/icons" "$data/"
sed "s|^Exec=.*|Exec=$opt/cardtable|" "$opt/share/applications/cardtable.desktop" > "$data/applications/cardtable.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$data/applications" || true
command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$data/icons/hicolor" || true
echo "cardtable installed: run 'cardtable' or pick it from the games menu"
