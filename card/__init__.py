"""The card image: one file for every table and the hub, flashed with any writer (docs/card.md).

``card.build`` makes it (``make card``), ``card.layout`` says where each partition lies and
reads a built image back without mounting it, ``card.files`` holds what goes into the image
beside the packages (units, the initramfs overlay, the commented ``dipclock.txt``).
"""
