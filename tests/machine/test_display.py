"""The screen checks against fake /dev, /sys and /proc trees, and SDL's real driver list."""

from __future__ import annotations

import grp
import os
import shutil
import subprocess

from machine import display
from tests.machine.conftest import FakePi, refuse


def test_a_pi_with_a_screen_on_hdmi_and_no_desktop_passes_every_display_check(pi: FakePi):
    pi.card(0)  # Pi 5: v3d, render only, no connectors
    pi.card(1, ("HDMI-A-1", "connected"), ("HDMI-A-2", "disconnected"))
    pi.process(412, "systemd-logind")
    checks = [display.check_device(pi.dev / "dri"), display.check_connector(pi.drm),
              display.check_desktop(pi.proc, pi.etc / "systemd" / "system")]
    assert [c.verdict for c in checks] == ["ok", "ok", "ok"]
    assert "card0, card1" in checks[0].detail
    assert checks[1].detail == "connected to HDMI-A-1"


def test_the_installed_sdl_has_kmsdrm():
    check = display.check_driver()
    assert check.verdict == "ok", check


def test_an_sdl_without_kmsdrm_fails_and_names_pygame_ce():
    check = display.check_driver(lambda: ["x11", "wayland", "offscreen", "dummy"])
    assert check.verdict == "fail"
    assert "x11, wayland" in check.detail
    assert "pygame-ce" in check.fix


def test_no_pygame_at_all_is_a_failed_check():
    def missing() -> list[str]:
        raise ImportError("No module named 'pygame'")

    check = display.check_driver(missing)
    assert check.verdict == "fail" and "not installed" in check.detail


def test_no_drm_device_fails_with_the_kms_overlay_as_fix(pi: FakePi):
    check = display.check_device(pi.dev / "dri")
    assert check.verdict == "fail"
    assert "vc4-kms-v3d" in check.fix


def test_a_card_this_user_may_not_open_names_the_group_to_join(pi: FakePi):
    pi.card(0)
    card1 = pi.card(1, ("HDMI-A-1", "connected"))
    video = grp.getgrnam("video").gr_gid
    os.chown(card1, 0, video)
    check = display.check_device(pi.dev / "dri", opener=refuse(card1))
    assert check.verdict == "fail"
    assert "card1: Permission denied" in check.detail and "card0" not in check.detail
    assert "sudo usermod -aG video " in check.fix


def test_no_screen_plugged_in_fails_and_lists_the_connectors(pi: FakePi):
    pi.card(1, ("HDMI-A-1", "disconnected"), ("HDMI-A-2", "disconnected"))
    check = display.check_connector(pi.drm)
    assert check.verdict == "fail"
    assert "HDMI-A-1, HDMI-A-2" in check.detail
    assert display.connectors(pi.drm) == [display.Connector("HDMI-A-1", "disconnected"),
                                          display.Connector("HDMI-A-2", "disconnected")]


def test_a_running_desktop_fails_with_the_console_target_as_fix(pi: FakePi):
    pi.process(900, "labwc")
    pi.process(901, "Xwayland")
    pi.process(902, "labwc")
    check = display.check_desktop(pi.proc, pi.etc / "systemd" / "system")
    assert check.verdict == "fail"
    assert "Xwayland, labwc" in check.detail
    assert "sudo systemctl set-default multi-user.target" in check.fix


def test_an_enabled_display_manager_fails_even_before_it_runs(pi: FakePi):
    units = pi.etc / "systemd" / "system"
    units.mkdir(parents=True)
    (units / "display-manager.service").symlink_to("/lib/systemd/system/lightdm.service")
    check = display.check_desktop(pi.proc, units)
    assert check.verdict == "fail"
    assert "lightdm" in check.detail
    assert check.fix == display.CONSOLE_FIX


def test_a_desktop_program_running_on_this_machine_is_seen_in_the_real_proc(tmp_path):
    # A real process whose name is a compositor's: /proc/PID/comm is the program's file name.
    # A shell under that name says "ready" once it runs (Popen may return before the exec).
    labwc = tmp_path / "labwc"
    shutil.copy("/bin/sh", labwc)
    with subprocess.Popen([str(labwc), "-c", "echo ready; read line"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as proc:
        try:
            assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
            assert "labwc" in display.desktop_programs()
        finally:
            proc.kill()
