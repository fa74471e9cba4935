"""Raspberry Pi appliance files: installer, systemd unit, udev rule, example config."""
