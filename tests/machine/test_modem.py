"""ModemManager and the button box: the doctor's check, on a fake /proc and /etc."""

from __future__ import annotations

import pytest

from machine import modem
from tests.machine.conftest import FakePi, write


@pytest.fixture
def modem_manager(pi: FakePi) -> FakePi:
    pi.process(712, "ModemManager")  # as NetworkManager's recommends bring it on Bookworm
    pi.process(713, "NetworkManager")
    return pi


def test_modem_manager_without_the_rule_is_a_warning_for_a_box(modem_manager: FakePi):
    check = modem.check_modem_manager("auto", modem_manager.proc, modem_manager.etc)
    assert check.verdict == "warn"
    assert check.detail.startswith("ModemManager runs and may probe the button box's port")
    assert str(modem_manager.etc / "udev/rules.d/75-dipclock-button-box.rules") in check.detail
    assert "systemd/install.sh kiosk" in check.fix
    assert "systemctl disable --now ModemManager" in check.fix


def test_the_installers_rule_keeps_it_off_the_box(modem_manager: FakePi):
    write(modem_manager.etc / "udev/rules.d/75-dipclock-button-box.rules", "# the rule\n")
    check = modem.check_modem_manager("/dev/ttyACM0", modem_manager.proc, modem_manager.etc)
    assert check.verdict == "ok" and "keeps it off the USB serial ports" in check.detail


def test_no_box_no_warning(modem_manager: FakePi):
    check = modem.check_modem_manager(None, modem_manager.proc, modem_manager.etc)
    assert check.verdict == "ok" and "no button box configured" in check.detail


def test_no_modem_manager_nothing_to_keep_off(pi: FakePi):
    pi.process(713, "NetworkManager")
    check = modem.check_modem_manager("auto", pi.proc, pi.etc)
    assert check.verdict == "ok" and check.detail.startswith("ModemManager is not running")
