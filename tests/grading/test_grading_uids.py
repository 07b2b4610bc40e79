"""Kernel user ids belong to no one (issue 44): the allocator asks the account database, skips
reserved ids, and only ids it allocated count as kernels' ids."""

from __future__ import annotations

import os

import pytest

from dimred_teach.grading import uids

pytestmark = pytest.mark.skipif(os.name != "posix", reason="user ids are POSIX")


@pytest.fixture
def lock_folder(tmp_path, monkeypatch):
    """A lock folder of the test's own, so that no id the test allocates marks the machine's."""
    monkeypatch.setattr(uids, "LOCKS", tmp_path / "locks")
    uids._allocated_ids.cache_clear()
    uids._known_account.cache_clear()
    yield tmp_path / "locks"
    uids._allocated_ids.cache_clear()
    uids._known_account.cache_clear()


def test_accounts_and_reserved_ids_inside_the_range_are_skipped(lock_folder, monkeypatch):
    """A fake account database (a directory service's users and groups inside the range) and a
    range holding nobody, 65535 and a system id: only ids of no one are allocated."""
    accounts = {65530, 65531, 65533, 65536}  # users or groups of the directory
    monkeypatch.setattr(uids, "has_account", lambda number: number in accounts)
    ids = range(65530, 65540)
    assert list(uids.candidates(ids, lambda number: number in accounts)) == [65532, 65537, 65538, 65539]
    held = [uids.allocate(ids, lambda number: number in accounts) for _ in range(4)]
    try:
        assert [a.uid for a in held] == [65532, 65537, 65538, 65539]
        with pytest.raises(RuntimeError, match="no kernel user id is free in 65530-65539"):
            uids.allocate(ids, lambda number: number in accounts)
        assert sorted(int(p.stem) for p in lock_folder.iterdir()) == [65532, 65537, 65538, 65539]
        assert all(uids.is_kernel_id(a.uid) for a in held)
        assert not any(uids.is_kernel_id(number) for number in (65534, 65535, 65531, 65533, 100, 0))
    finally:
        for allocation in held:
            uids.release(allocation, sweep_files=False)
    assert uids.is_kernel_id(65532)  # the lock file stays: what an id left can still be found


def test_the_real_account_database_is_asked(lock_folder):
    """``nobody`` and root are known to NSS; system ids are reserved whatever the database says."""
    assert uids.has_account(0) and uids.has_account(65534)
    assert uids.reserved(65534) and uids.reserved(65535) and uids.reserved(500)
    assert not uids.reserved(uids.DEFAULT_RANGE.start)
    with pytest.raises(RuntimeError):  # nobody, 65535
        uids.allocate(range(65534, 65536))


def test_an_id_that_gets_an_account_is_no_longer_a_kernels(lock_folder, monkeypatch):
    """A lock file marks an id the grader gave a kernel only while no account has that id (a user
    added to the directory later keeps their files)."""
    lock_folder.mkdir()
    (lock_folder / "70001.lock").touch()
    monkeypatch.setattr(uids, "has_account", lambda number: False)
    assert uids.is_kernel_id(70001)
    uids._allocated_ids.cache_clear()
    uids._known_account.cache_clear()
    monkeypatch.setattr(uids, "has_account", lambda number: number == 70001)
    assert not uids.is_kernel_id(70001)


def test_the_range_is_configurable():
    assert uids.configured_range({}) == uids.DEFAULT_RANGE
    assert uids.configured_range({uids.RANGE_VARIABLE: "200000-200009"}) == range(200000, 200010)
    for bad in ("70000", "9-3", "a-b", "0-10", "1-4294967295"):
        with pytest.raises(ValueError, match=uids.RANGE_VARIABLE):
            uids.configured_range({uids.RANGE_VARIABLE: bad})
