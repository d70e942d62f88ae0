"""Console messages in the shape torch_npu prints them (UTC time, pid, 'profiler.py')."""

import datetime
import os
import sys


def _now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _emit(kind, message):
    sys.stdout.write(f"{_now()} [{kind}] [{os.getpid()}] profiler.py: {message}\n")
    sys.stdout.flush()


def print_info_msg(message):
    _emit("INFO", message)


def print_warn_msg(message):
    _emit("WARNING", message)


def print_error_msg(message):
    _emit("ERROR", message)
