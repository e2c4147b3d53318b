"""Runs the tests of this directory (as `python3 -m unittest discover`
would) and reports them in TAP, one result per test method, so that the
test command counts them one by one:

    CORDON_LIB=build/libcordon.so python3 python/tests/tap.py
"""

import os
import sys
import unittest


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n = 0

    def _line(self, ok, test, extra=""):
        self.n += 1
        print("%s %d - %s%s" % ("ok" if ok else "not ok", self.n,
                                test.id(), extra), flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(True, test)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(True, test, " # SKIP " + reason)

    def _bad(self, test, err):
        self._line(False, test)
        for line in self._exc_info_to_string(err, test).splitlines():
            print("# " + line)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._bad(test, err)

    def addError(self, test, err):
        super().addError(test, err)
        self._bad(test, err)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here)
    result = TapResult()
    suite.run(result)
    print("1..%d" % result.n)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
