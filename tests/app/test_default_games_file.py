"""Where the games file is by default (store.default_path): $TOYBATTLE_DB, else the user's data folder that
platformdirs names on every OS, else a file that toybattle's earlier rule put elsewhere, used where it lies
(never moved) while there is none at the new place. The other OSes' folders are given through monkeypatch."""
from __future__ import annotations

import platformdirs
import pytest

from toybattle import store
from toybattle.store import default_path


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home of its own, no $TOYBATTLE_DB, and $XDG_DATA_HOME inside it (toybattle's old rule on Linux)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("TOYBATTLE_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path


@pytest.fixture
def mac_like(home, monkeypatch):
    """platformdirs answering as on macOS (its data folder unlike toybattle's old rule on this machine)."""
    folder = home / "Library" / "Application Support" / "toybattle"
    asked = []

    def user_data_path(appname, appauthor=None, version=None, roaming=False, **_):
        asked.append((appname, appauthor, roaming))
        return folder

    monkeypatch.setattr(platformdirs, "user_data_path", user_data_path)
    return folder, asked


def test_the_games_file_is_in_the_data_folder_platformdirs_names(mac_like):
    folder, asked = mac_like
    assert default_path() == folder / "games.sqlite3"
    assert asked == [("toybattle", False, True)]  # roaming on Windows: %APPDATA%, where the file always was


def test_a_games_file_only_at_the_old_place_is_still_found_where_it_is(home, mac_like):
    folder, _ = mac_like
    old = home / "xdg" / "toybattle" / "games.sqlite3"
    assert store.legacy_data_dir() / "games.sqlite3" == old
    old.parent.mkdir(parents=True)
    old.write_bytes(b"")
    assert default_path() == old
    assert not folder.exists()  # not moved, not copied, no new folder made beside it


def test_a_games_file_at_the_new_place_wins_over_one_at_the_old(home, mac_like):
    folder, _ = mac_like
    for f in (home / "xdg" / "toybattle" / "games.sqlite3", folder / "games.sqlite3"):
        f.parent.mkdir(parents=True)
        f.write_bytes(b"")
    assert default_path() == folder / "games.sqlite3"


def test_the_old_place_without_xdg_data_home_is_under_local_share(home, mac_like, monkeypatch):
    monkeypatch.delenv("XDG_DATA_HOME")
    old = home / ".local" / "share" / "toybattle" / "games.sqlite3"
    old.parent.mkdir(parents=True)
    old.write_bytes(b"")
    assert default_path() == old


def test_toybattle_db_chooses_the_file_whatever_is_elsewhere(home, mac_like, monkeypatch):
    old = home / "xdg" / "toybattle" / "games.sqlite3"
    old.parent.mkdir(parents=True)
    old.write_bytes(b"")
    monkeypatch.setenv("TOYBATTLE_DB", "~/mine.sqlite3")
    assert default_path() == home / "mine.sqlite3"


def test_on_linux_the_file_stays_where_it_always_was(home, monkeypatch):
    """The real platformdirs on this Linux machine: $XDG_DATA_HOME/toybattle, else ~/.local/share/toybattle."""
    assert default_path() == home / "xdg" / "toybattle" / "games.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_path() == home / ".local" / "share" / "toybattle" / "games.sqlite3"
