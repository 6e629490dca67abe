"""What the machine a kiosk or hub runs on says about itself: the platform is part of the product.

Small probes, each reading one thing the operating system knows (the video drivers compiled
into SDL, whether the system clock is synchronised, the Pi's power supply, the display's
connectors, the data folder's filesystem, the table's identity on the boot partition). Each
takes the paths or functions it reads as parameters, so tests hand it a fake ``/sys`` tree
instead of mocking it. ``kiosk.doctor`` turns them into verdicts with a fix.
"""
